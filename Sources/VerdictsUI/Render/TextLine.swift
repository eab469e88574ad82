import MarfaWire

/// A line of spans, drawn left to right, which can be cut or wrapped to a width.
struct TextLine: Sendable, Hashable {
  var spans: [Span]

  init(_ spans: [Span] = []) { self.spans = spans }

  init(_ text: String, _ role: Role = .text) { self.spans = [Span(text, role)] }

  static func + (l: TextLine, r: TextLine) -> TextLine { TextLine(l.spans + r.spans) }

  mutating func append(_ text: String, _ role: Role = .text, _ attributes: CellAttributes = []) {
    spans.append(Span(text, role, attributes))
  }

  /// The columns it takes.
  var width: Int { spans.reduce(0) { $0 + $1.width } }

  /// The line as plain text.
  var plain: String { spans.map(\.text).joined() }

  /// Draws the line; text beyond `limit` columns is cut, the last column showing `ellipsis`.
  func draw(into grid: inout Grid, x: Int, y: Int, limit: Int, ellipsis: String? = nil) {
    guard limit > 0 else { return }
    let fits = width <= limit
    let room = fits || ellipsis == nil ? limit : limit - 1
    var col = x
    for span in spans {
      let left = x + room - col
      if left <= 0 { break }
      col += grid.put(span.text, x: col, y: y, role: span.role, attributes: span.attributes, limit: left)
    }
    if !fits, let ellipsis {
      grid.put(ellipsis, x: x + limit - 1, y: y, role: spans.last?.role ?? .text, limit: 1)
    }
  }

  /// The line wrapped to `width` columns; continuation lines start with `indent` blanks.
  func wrapped(_ width: Int, indent: Int = 0) -> [TextLine] {
    guard width > indent + 1, self.width > width else { return [self] }
    var lines: [TextLine] = []
    var current = TextLine()
    var used = 0
    for span in spans {
      for segment in Sanitizer.segments(span.text) {
        let role: Role = segment.escaped ? .escaped : span.role
        var chunk = ""
        for ch in segment.text {
          let w = max(0, CharWidth.of(ch))
          if used + w > width {
            if !chunk.isEmpty { current.append(chunk, role, span.attributes) }
            lines.append(current)
            current = TextLine(String(repeating: " ", count: indent))
            used = indent
            chunk = ""
          }
          chunk.append(ch)
          used += w
        }
        if !chunk.isEmpty { current.append(chunk, role, span.attributes) }
      }
    }
    if !current.spans.isEmpty { lines.append(current) }
    return lines
  }
}
