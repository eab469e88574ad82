/// A colour as a theme file names it: the terminal's own, one of 256 indexes, or a `#rrggbb` value.
package enum ThemeColor: Sendable, Hashable {
  /// The terminal's own foreground or background.
  case terminalDefault
  /// An index into the terminal's palette, 0–255 (0–7 the basic colours, 8–15 the bright ones).
  case indexed(Int)
  /// A 24-bit colour, mapped down to what the terminal has.
  case rgb(UInt8, UInt8, UInt8)

  /// The basic colour names, in palette order; `bright-NAME` adds 8.
  static let names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]

  /// Reads a colour: `default`, a name, `bright-NAME`, `grey`, `0`–`255` or `#rrggbb`; nil if none.
  public init?(parsing token: String) {
    let t = token.lowercased()
    if t == "default" {
      self = .terminalDefault
      return
    }
    if t == "grey" || t == "gray" {
      self = .indexed(8)
      return
    }
    if let i = Self.names.firstIndex(of: t) {
      self = .indexed(i)
      return
    }
    if t.hasPrefix("bright-"), let i = Self.names.firstIndex(of: String(t.dropFirst(7))) {
      self = .indexed(i + 8)
      return
    }
    if let n = Int(t), (0...255).contains(n), t.allSatisfy(\.isASCII) {
      self = .indexed(n)
      return
    }
    if t.hasPrefix("#"), t.count == 7, let v = UInt32(t.dropFirst(), radix: 16) {
      self = .rgb(UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF))
      return
    }
    return nil
  }

  /// The palette index to use on a terminal of `depth`; nil for the terminal's own colour
  /// (and always nil without colour).
  public func index(for depth: ColorDepth) -> Int? {
    switch (self, depth) {
    case (_, .none), (.terminalDefault, _): return nil
    case (.indexed(let n), .colors256): return n
    case (.rgb(let r, let g, let b), .colors256): return Palette.nearest256(r, g, b)
    case (.indexed(let n), .colors16): return n < 16 ? n : Palette.nearest16(Palette.rgb(of: n))
    case (.rgb(let r, let g, let b), .colors16): return Palette.nearest16((r, g, b))
    case (.indexed(let n), .colors8):
      if n < 8 { return n }
      if n < 16 { return n - 8 }
      return Palette.nearest8(Palette.rgb(of: n))
    case (.rgb(let r, let g, let b), .colors8): return Palette.nearest8((r, g, b))
    }
  }

  /// How a theme file writes this colour.
  public var name: String {
    switch self {
    case .terminalDefault: return "default"
    case .indexed(let n) where n < 8: return Self.names[n]
    case .indexed(let n) where n < 16: return "bright-" + Self.names[n - 8]
    case .indexed(let n): return String(n)
    case .rgb(let r, let g, let b):
      return "#"
        + [r, g, b].map {
          let h = String($0, radix: 16)
          return h.count == 1 ? "0" + h : h
        }.joined()
    }
  }
}
