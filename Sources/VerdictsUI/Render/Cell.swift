/// One screen cell: the text drawn there, how many columns it takes, and what it means.
///
/// A wide character fills its own cell (width 2) and the next one, which is a
/// continuation (width 0, empty text) that terminals never draw.
package struct Cell: Sendable, Hashable {
  /// One grapheme (a base character with any combining marks), or empty for a continuation.
  public var text: String
  /// Columns taken: 1, 2 for a wide character, 0 for the right half of a wide one.
  public var width: Int
  /// What the cell means; a theme gives it colours.
  public var role: Role
  /// Attributes on top of the role's.
  public var attributes: CellAttributes

  /// Creates a cell.
  public init(text: String = " ", width: Int = 1, role: Role = .text, attributes: CellAttributes = []) {
    self.text = text
    self.width = width
    self.role = role
    self.attributes = attributes
  }

  /// A blank cell in a role.
  public static func blank(_ role: Role = .text) -> Cell { Cell(text: " ", width: 1, role: role) }

  /// Whether this is the right half of a wide character.
  public var isContinuation: Bool { width == 0 }
}
