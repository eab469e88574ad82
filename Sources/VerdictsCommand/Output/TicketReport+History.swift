import MarfaQueue

/// The report's record of what happened before it: the drains the store keeps and, in the text
/// form, each write's attempts one a line as `show ID` lists them.
extension TicketReport {
  /// The newest ``drainsKept`` drains as `history --json` lists them, stopping at
  /// ``drainsBudget`` bytes (and saying so in `leftOut`).
  static func drainHistory(_ copy: WorkingCopy, leftOut: inout [String]) async throws -> [JSONValue] {
    let kept = try await copy.history(limit: drainsKept)
    var drains: [JSONValue] = []
    var used = 0
    for record in kept {
      let value = record.wireJSON
      let size = value.text.utf8.count + 2
      if used + size > drainsBudget {
        leftOut.append(
          "the \(kept.count - drains.count) oldest of the last \(kept.count) drains "
            + "(the list stops at \(drainsBudget) bytes; verdicts history lists them)")
        break
      }
      used += size
      drains.append(value)
    }
    return drains
  }

  /// One attempt of a write's `attempts` as the text form says it, as `show ID` does: when,
  /// which drain, what it met, how long it took, the start of what was said.
  static func attemptLine(_ a: JSONValue, ascii: Bool) -> String {
    var parts: [String] = [a["at"]?.stringValue ?? "-"]
    if let drain = a["drain"], !drain.isNull { parts.append("#" + drain.text) }
    var word = (a["result"]?.stringValue ?? "").replacing("_", with: " ")
    if let code = a["code"]?.stringValue { word += " " + code }
    if a["replayed"] == .bool(true) { word += " (replayed)" }
    if let status = a["status"], !status.isNull { word += " HTTP " + status.text }
    parts.append(word)
    let sep = ascii ? " | " : " · "
    var line = parts.joined(separator: " ") + sep + (a["milliseconds"]?.text ?? "0") + " ms"
    if let text = a["text"]?.stringValue, !text.isEmpty { line += sep + text }
    return Sanitizer.clean(line, ascii: ascii)
  }
}
