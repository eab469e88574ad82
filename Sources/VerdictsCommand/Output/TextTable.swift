/// An aligned text table: a header row, then rows, columns padded to their widest cell.
///
/// A cell longer than ``cellLimit`` characters (``lastCellLimit`` in the last column) is cut to
/// it, ending in `…` (`~` in ASCII), so one huge value (an id another program stored, a long
/// failure) costs its own row a bounded width and never pads every other row out to it.
struct TextTable {
  /// The column titles.
  var headers: [String]
  /// The rows; each as many cells as there are headers.
  var rows: [[String]] = []
  /// The most characters a cell shows, its ellipsis included.
  var cellLimit = TextTable.defaultCellLimit
  /// The most characters a cell of the last column shows: it pads no other column, so it may
  /// say more (a last failure's text, as `watch --plain` cuts it).
  var lastCellLimit = TextTable.defaultLastCellLimit
  /// Whether the ellipsis must be ASCII.
  var ascii = false

  /// The most characters a cell of `queue`, `take-answered` and `drain` shows: room for any id
  /// the command line takes (256 bytes) is not needed to tell writes apart, and `show ID` prints
  /// a write whole.
  static let defaultCellLimit = 80
  /// The most characters the last column of those tables shows (`watch --plain`'s text: 300).
  static let defaultLastCellLimit = 300

  /// The table as lines, each ending in a line feed; trailing spaces trimmed.
  func render() -> String {
    let all = ([headers] + rows).map { row in
      row.enumerated().map { i, cell in cut(cell, to: i == headers.count - 1 ? lastCellLimit : cellLimit) }
    }
    var widths = [Int](repeating: 0, count: headers.count)
    for row in all {
      for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
    }
    return all.map { row in
      var line = ""
      for (i, cell) in row.enumerated() {
        line += cell
        if i < row.count - 1 { line += String(repeating: " ", count: widths[i] - cell.count + 2) }
      }
      while line.last == " " { line.removeLast() }
      return line + "\n"
    }.joined()
  }

  /// `cell`, or its first characters and an ellipsis when it is longer than `limit` (read only
  /// as far as the limit: a cell of megabytes costs no more than a short one).
  func cut(_ cell: String, to limit: Int) -> String {
    // Fewer bytes than the limit means fewer characters too.
    guard cell.utf8.count > limit else { return cell }
    var end = cell.startIndex
    for _ in 0..<limit {
      guard end < cell.endIndex else { return cell }
      end = cell.index(after: end)
    }
    guard end < cell.endIndex else { return cell }
    return String(cell[..<cell.index(before: end)]) + (ascii ? "~" : "…")
  }
}
