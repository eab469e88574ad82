import MarfaQueue

/// Pretty JSON as coloured lines (two-space indent, members in their order).
enum JSONLines {
  /// The longest string laid out whole (characters); a longer one shows its start and `…`.
  static let stringLimit = 16_384

  /// The value's lines; past `limit` lines the rest is left out (and a last line says so), so a
  /// huge value costs what its first lines do.
  static func lines(_ value: JSONValue, indent: Int = 0, limit: Int = .max) -> [TextLine] {
    var out: [TextLine] = []
    var current = TextLine(String(repeating: " ", count: indent))
    write(value, level: indent / 2, base: indent, into: &out, current: &current, limit: limit)
    if out.count >= limit {
      out.append(
        TextLine(
          String(repeating: " ", count: indent) + "… the rest is not shown (its first \(limit) lines are above)", .dim))
      return out
    }
    out.append(current)
    return out
  }

  static func write(
    _ value: JSONValue, level: Int, base: Int, into out: inout [TextLine], current: inout TextLine,
    limit: Int = .max
  ) {
    let pad = { (n: Int) in String(repeating: " ", count: n * 2) }
    if out.count >= limit { return }
    switch value {
    case .null: current.append("null", .jsonLiteral)
    case .bool(let b): current.append(b ? "true" : "false", .jsonLiteral)
    case .number(let n): current.append(number(n), .jsonNumber)
    case .string(let s):
      if s.utf8.count > stringLimit, s.count > stringLimit {
        current.append(quoted(String(s.prefix(stringLimit))) + "…", .jsonString)
      } else {
        current.append(quoted(s), .jsonString)
      }
    case .array(let items):
      if items.isEmpty {
        current.append("[]")
        return
      }
      current.append("[")
      for (i, item) in items.enumerated() {
        out.append(current)
        current = TextLine(pad(level + 1))
        write(item, level: level + 1, base: base, into: &out, current: &current, limit: limit)
        if out.count >= limit { return }
        if i < items.count - 1 { current.append(",") }
      }
      out.append(current)
      current = TextLine(pad(level) + "]")
    case .object(let members):
      if members.isEmpty {
        current.append("{}")
        return
      }
      current.append("{")
      for (i, (k, v)) in members.enumerated() {
        out.append(current)
        current = TextLine(pad(level + 1))
        current.append(quoted(k), .jsonKey)
        current.append(": ")
        write(v, level: level + 1, base: base, into: &out, current: &current, limit: limit)
        if out.count >= limit { return }
        if i < members.count - 1 { current.append(",") }
      }
      out.append(current)
      current = TextLine(pad(level) + "}")
    }
  }

  static func number(_ n: JSONNumber) -> String { n.text }

  /// A JSON string literal, written by the one JSON writer (the screen's sanitizer then makes
  /// any character that steers a terminal visible).
  static func quoted(_ s: String) -> String { JSONValue.quoted(s) }
}
