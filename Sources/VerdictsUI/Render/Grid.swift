import MarfaWire

/// An in-memory screen of cells, which the renderer draws into and terminals copy out.
package struct Grid: Sendable, Hashable {
  /// Columns.
  public let width: Int
  /// Rows.
  public let height: Int
  /// Row-major cells.
  public private(set) var cells: [Cell]

  /// A blank grid.
  public init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    self.cells = Array(repeating: .blank(), count: self.width * self.height)
  }

  /// The cell at a column and row.
  public subscript(x: Int, y: Int) -> Cell {
    cells[y * width + x]
  }

  /// Sets one cell, keeping wide characters whole (a half overwritten blanks the other half).
  mutating func set(_ cell: Cell, x: Int, y: Int) {
    guard x >= 0, y >= 0, x < width, y < height else { return }
    let i = y * width + x
    if cells[i].isContinuation, x > 0 {
      cells[i - 1] = .blank(cells[i - 1].role)
    }
    if cells[i].width == 2, x + 1 < width {
      cells[i + 1] = .blank(cells[i].role)
    }
    cells[i] = cell
  }

  /// Fills a rectangle with blanks in a role.
  mutating func fill(_ rect: Rect, role: Role = .text, text: String = " ") {
    for y in rect.y..<min(height, rect.y + rect.height) where y >= 0 {
      for x in rect.x..<min(width, rect.x + rect.width) where x >= 0 {
        set(Cell(text: text, width: 1, role: role), x: x, y: y)
      }
    }
  }

  /// Writes text from a column, clipped to `limit` columns; returns the columns written.
  ///
  /// The text is sanitized on the way in: control and escape characters are drawn as
  /// visible stand-ins in the `escaped` role, so nothing raw reaches a terminal.
  @discardableResult
  mutating func put(
    _ text: String, x: Int, y: Int, role: Role = .text, attributes: CellAttributes = [], limit: Int? = nil
  ) -> Int {
    guard y >= 0, y < height, x < width else { return 0 }
    let end = min(width, x + (limit ?? width))
    var col = x
    // Printable ASCII, most of what a screen draws: a cell a byte, with no grapheme breaking.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
      for byte in text.utf8 {
        if col >= end { return end - x }
        if col >= 0 {
          set(Cell(text: String(Unicode.Scalar(byte)), width: 1, role: role, attributes: attributes), x: col, y: y)
        }
        col += 1
      }
      return col - x
    }
    for segment in Sanitizer.segments(text) {
      let segRole: Role = segment.escaped ? .escaped : role
      for ch in segment.text {
        let w = CharWidth.of(ch)
        if w == 0 {
          // A combining mark with no base in this run: attach it to the cell before, or show it on ◌.
          if col > x, col - 1 < width, col - 1 >= 0 {
            var i = (y * width) + col - 1
            if cells[i].isContinuation, i > 0 { i -= 1 }
            cells[i].text += String(ch)
          } else if col < end {
            set(Cell(text: "◌" + String(ch), width: 1, role: segRole, attributes: attributes), x: col, y: y)
            col += 1
          }
          continue
        }
        if col + w > end {
          // A wide character that does not fit fills the last column with a blank.
          if col < end { set(Cell(text: " ", width: 1, role: segRole, attributes: attributes), x: col, y: y) }
          return end - x
        }
        if col >= 0 {
          set(Cell(text: String(ch), width: w, role: segRole, attributes: attributes), x: col, y: y)
          if w == 2 { set(Cell(text: "", width: 0, role: segRole, attributes: attributes), x: col + 1, y: y) }
        }
        col += w
      }
    }
    return col - x
  }

  /// Sets the role of every cell in a row span (used to paint a selected row).
  mutating func paint(_ rect: Rect, role: Role) {
    for y in rect.y..<min(height, rect.y + rect.height) where y >= 0 {
      for x in rect.x..<min(width, rect.x + rect.width) where x >= 0 {
        cells[y * width + x].role = role
      }
    }
  }

  /// One row as text (continuations skipped), trailing blanks kept.
  public func line(_ y: Int) -> String {
    var s = ""
    for x in 0..<width {
      let c = self[x, y]
      if !c.isContinuation { s += c.text }
    }
    return s
  }

  /// The whole grid as text, one line per row, trailing blanks trimmed.
  public var text: String {
    (0..<height).map { y -> String in
      var l = line(y)
      while l.last == " " { l.removeLast() }
      return l
    }.joined(separator: "\n")
  }

  /// Runs of cells sharing a role and attributes in one row: `(start column, count, role, attributes)`.
  public func runs(_ y: Int) -> [(x: Int, count: Int, role: Role, attributes: CellAttributes)] {
    var out: [(x: Int, count: Int, role: Role, attributes: CellAttributes)] = []
    for x in 0..<width {
      let c = self[x, y]
      if let last = out.last, last.role == c.role, last.attributes == c.attributes {
        out[out.count - 1].count += 1
      } else {
        out.append((x, 1, c.role, c.attributes))
      }
    }
    return out
  }
}
