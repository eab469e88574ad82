/// An aligned text table: a header row, then rows, columns padded to their widest cell.
struct TextTable {
  /// The column titles.
  var headers: [String]
  /// The rows; each as many cells as there are headers.
  var rows: [[String]] = []

  /// The table as lines, each ending in a line feed; trailing spaces trimmed.
  func render() -> String {
    let all = [headers] + rows
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
}
