/// Text attributes a cell or a theme style asks for, beyond colour.
public struct CellAttributes: OptionSet, Sendable, Hashable {
  public let rawValue: UInt8

  /// Creates attributes from their raw bits.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  public static let bold = CellAttributes(rawValue: 1 << 0)
  public static let dim = CellAttributes(rawValue: 1 << 1)
  public static let underline = CellAttributes(rawValue: 1 << 2)
  public static let reverse = CellAttributes(rawValue: 1 << 3)

  /// The attribute names a theme file uses, in a fixed order.
  static let named: [(String, CellAttributes)] = [
    ("bold", .bold), ("dim", .dim), ("underline", .underline), ("reverse", .reverse),
  ]

  /// The names of the attributes set, in the theme file's order.
  var names: [String] { Self.named.filter { contains($0.1) }.map(\.0) }
}
