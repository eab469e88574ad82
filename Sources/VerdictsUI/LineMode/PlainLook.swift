import MarfaQueue

/// What a write's `watch --plain` line shows that can change, kept without making the line: two
/// states of one write with equal looks print the same line
/// (``PlainFormatter/line(_:time:ascii:keepsFailures:)``), so a watcher tells a change it must
/// print from one it need not by a comparison, not by making a line it then throws away.
///
/// The line's other fields are the write's id, kind and rows, which no store statement changes
/// once the write is queued (an undo puts the same row back): the memory is keyed by the id, and
/// kind and rows are left out, so a look of an accepted write holds nothing on the heap.
struct PlainLook: Equatable {
  /// The verdict whole: its name, its reason and a refusal's message.
  var verdict: Verdict?
  /// `queued`, `sent`, `undelivered` or `waiting` while it has no verdict.
  var stateWord: String
  /// The write it waits on, when it waits.
  var awaiting: String?
  var streak: Int
  var failure: LastFailure?

  init(_ w: QueuedWrite) {
    verdict = w.verdict
    stateWord = w.verdict == nil ? w.stateWord : ""
    awaiting = w.verdict == nil && w.waiting ? w.follows ?? w.dependsOn.first : nil
    streak = w.environmentalStreak
    failure = w.lastFailure
  }
}
