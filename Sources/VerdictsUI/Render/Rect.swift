/// A rectangle of cells.
package struct Rect: Sendable, Hashable {
  /// The left column.
  public var x: Int
  /// The top row.
  public var y: Int
  /// Columns.
  public var width: Int
  /// Rows.
  public var height: Int

  /// Creates a rectangle.
  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = max(0, width)
    self.height = max(0, height)
  }

  /// The rectangle inside a one-cell border.
  var inner: Rect { Rect(x: x + 1, y: y + 1, width: width - 2, height: height - 2) }

  /// Whether it has no cells.
  var isEmpty: Bool { width <= 0 || height <= 0 }

  /// Whether the cell at (x, y) is inside.
  func contains(x: Int, y: Int) -> Bool { x >= self.x && x < self.x + width && y >= self.y && y < self.y + height }

  /// The last row.
  var maxY: Int { y + height - 1 }
}
