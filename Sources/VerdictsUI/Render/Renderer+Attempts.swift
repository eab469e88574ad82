import MarfaQueue

extension Renderer {
  /// The write's attempts as the detail lists them, newest first: when, which drain, what it
  /// met, how long it took, the start of what was said; then how many older ones are counted only.
  func attemptLines(_ w: QueuedWrite) -> [TextLine] {
    guard let attempts = w.attempts, attempts.total > 0 else { return [] }
    let sep = " \(glyphs.separator) "
    var lines: [TextLine] = []
    for (i, a) in attempts.list.enumerated() {
      var t = TextLine(Timestamp.text(a.at), .dim)
      if let drain = a.drain { t.append(" #\(drain)", .dim) }
      t.append(" ")
      t.append(Self.attemptWord(a), Self.attemptRole(a))
      if let status = a.status { t.append(" HTTP \(status)", Role.http(status)) }
      t.append(sep + "\(a.milliseconds) ms", .dim)
      if let text = a.text, !text.isEmpty { t.append(sep + text) }
      lines.append(field(i == 0 ? "attempts" : "", t))
    }
    if attempts.omitted > 0 {
      lines.append(
        field(
          attempts.list.isEmpty ? "attempts" : "",
          TextLine("\(attempts.omitted) earlier attempt(s) counted, not kept (the last \(WriteAttempt.kept) are)", .dim)
        ))
    }
    return lines
  }

  /// What an attempt met, in words: `accepted (replayed)`, `refused validation_failed`, `dropped`.
  static func attemptWord(_ a: WriteAttempt) -> String {
    var word = a.result.rawValue.replacing("_", with: " ")
    if let code = a.code { word += " " + code }
    if a.replayed { word += " (replayed)" }
    return word
  }

  /// The role an attempt's word is drawn in.
  static func attemptRole(_ a: WriteAttempt) -> Role {
    switch a.result {
    case .accepted: return .answered
    case .merged: return .merged
    case .conflicted: return .conflicted
    case .refused: return .refused
    case .blocked: return .blocked
    case .failed, .dropped, .timedOut, .noAnswer: return .streak
    }
  }
}
