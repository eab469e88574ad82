extension QueuedWrite {
  /// Whether the write is outstanding: no verdict, blocked or dead (``VerdictName/outstanding``).
  /// An outstanding write that depends on another keeps that one from being discarded or
  /// forgotten; the store asks the same rule in SQL (``SQLite/outstanding(_:orRefused:)``).
  package var isOutstanding: Bool { verdict.map { VerdictName.outstanding.contains($0.name) } ?? true }

  /// The write's state in one word, the same in every view (the screen's panes and detail,
  /// `show`, `queue`, `watch --plain`, and `state` in `--json`): `queued` (not sent yet), `sent`
  /// (its request went out and no answer is stored: in flight, or its writer died waiting),
  /// `undelivered` (it met an environmental failure and goes again), `waiting` (held behind
  /// another write), else the verdict's name (`accepted` … `dead`).
  public var stateWord: String {
    guard let verdict else {
      if waiting { return "waiting" }
      if lastFailure != nil { return "undelivered" }
      return sent ? "sent" : "queued"
    }
    return verdict.wireName
  }
}
