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
  /// when there is nothing to offer. A candidate holding a control character (a line break, an
  /// escape) is left out, whatever gave it: it could not be one line, and a shell listing it
  /// would send the terminal its controls. Every other character is the shell script's to quote.
  var text: String {
    let lines = (files ? [Self.filesLine] : []) + candidates.filter { !Self.holdsControl($0) }
    return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
  }

  /// Whether `text` holds a C0 or C1 control character or DEL.
  static func holdsControl(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
  }
}
