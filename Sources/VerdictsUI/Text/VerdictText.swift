import MarfaQueue

/// Words, glyphs and roles for a write's verdict: told apart by glyph and word, not colour alone.
enum VerdictText {
  /// One word or two: `accepted`, `refused`, `blocked failing_alone`, `waiting`, `dead`.
  static func word(_ w: QueuedWrite) -> String { w.stateWords }

  /// The glyph for a write's verdict.
  static func glyph(_ w: QueuedWrite, _ g: Glyphs) -> String {
    switch w.verdict {
    case nil: return w.waiting ? g.held : g.waiting
    case .accepted: return g.accepted
    case .merged: return g.merged
    case .conflicted: return g.conflicted
    case .refused: return g.refused
    case .blocked: return g.blocked
    case .dead: return g.dead
    }
  }

  /// The role for a write's verdict.
  static func role(_ w: QueuedWrite) -> Role {
    switch w.verdict {
    case nil: return .waiting
    case .accepted: return .answered
    case .merged: return .merged
    case .conflicted: return .conflicted
    case .refused: return .refused
    case .blocked: return .blocked
    case .dead: return .dead
    }
  }

  /// A blocked reason in words: `failing alone`.
  static func reasonWords(_ r: BlockedReason) -> String { r.wireName.replacing("_", with: " ") }

  /// What a blocked reason asks of the person.
  static func remedy(_ r: BlockedReason) -> String {
    switch r {
    case .credentialRefused: return "a working key (K); the next drain sends it again"
    case .keySpent: return "release (r) sends it under a fresh key"
    case .ancestorUnavailable: return "withdraw (w), or release (r) once the key can read it"
    case .conflictUnresolved: return "withdraw (w); sent again it is blocked the same way"
    case .failingAlone: return "release (r) to try again, or withdraw (w)"
    case .instanceChanged: return "release (r) to send it to the instance there now, or withdraw (w)"
    }
  }

  /// What a write with no verdict is at, for the Waiting pane and the detail: `waiting on <id>`,
  /// `undelivered 503`, `sent`, `queued`; it starts with the write's one word (``QueuedWrite/stateWord``),
  /// as every other view gives it.
  static func waitingText(_ w: QueuedWrite, ellipsis: String = "…") -> String {
    if w.waiting, let on = w.follows ?? w.dependsOn.first { return "waiting on \(ShortID.of(on, ellipsis: ellipsis))" }
    if let f = w.lastFailure, !w.waiting { return "undelivered" + (f.status.map { " \($0)" } ?? " (no answer)") }
    return w.stateWord
  }
}
