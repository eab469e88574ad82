/// What `verdicts __complete` prints: the candidates, one a line, and whether the shell should
/// complete file names too (a first line `:file`).
struct CompletionAnswer: Sendable, Hashable {
  /// The line that asks the shell for file names. No candidate starts with `:`.
  static let filesLine = ":file"

  /// The words to offer, each whole (the shell replaces the word under the cursor with one).
  var candidates: [String] = []
  /// Whether file names are wanted too.
  var files = false

  /// The text printed: `:file` first when files are wanted, then a candidate a line; nothing at all
  /// when there is nothing to offer.
  var text: String {
    let lines = (files ? [Self.filesLine] : []) + candidates
    return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
  }
}
