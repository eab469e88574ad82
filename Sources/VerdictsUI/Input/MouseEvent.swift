/// A mouse report: a click or a turn of the wheel, at a cell.
package struct MouseEvent: Sendable, Hashable {
  /// What the mouse did.
  public enum Kind: Sendable, Hashable {
    case click, wheelUp, wheelDown
  }

  /// What the mouse did.
  public var kind: Kind
  /// The column, from 0.
  public var x: Int
  /// The row, from 0.
  public var y: Int

  /// Creates a report.
  public init(_ kind: Kind, x: Int, y: Int) {
    self.kind = kind
    self.x = x
    self.y = y
  }
}
