/// Text attributes a cell or a theme style asks for, beyond colour.
package struct CellAttributes: OptionSet, Sendable, Hashable {
  /// The attribute bits.
  public let rawValue: UInt8

  /// Creates attributes from their raw bits.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Bold (or bright).
  public static let bold = CellAttributes(rawValue: 1 << 0)
  /// Dim.
  public static let dim = CellAttributes(rawValue: 1 << 1)
  /// Underlined.
  public static let underline = CellAttributes(rawValue: 1 << 2)
  /// Foreground and background swapped.
  public static let reverse = CellAttributes(rawValue: 1 << 3)

  /// The attribute names a theme file uses, in a fixed order.
  static let named: [(String, CellAttributes)] = [
    ("bold", .bold), ("dim", .dim), ("underline", .underline), ("reverse", .reverse),
  ]

  /// The names of the attributes set, in the theme file's order.
  var names: [String] { Self.named.filter { contains($0.1) }.map(\.0) }
}
