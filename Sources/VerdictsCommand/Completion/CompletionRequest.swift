/// The word under the cursor, what it stands for, and what the words before it said of the store.
struct CompletionRequest: Sendable, Hashable {
  /// What the word is.
  var target: CompletionTarget
  /// The word as typed so far (for `--pane=bl`, the value's part: `bl`).
  var word: String
  /// Put before every candidate: `--pane=` when the word carries its option, else empty.
  var prefix = ""
  /// `--store PATH` typed earlier on the line, as typed.
  var store: String?
}
