/// One row of a reference list: an environment variable or a file, and what `verdicts` uses it for.
struct ManualEntry: Sendable, Hashable {
  /// The variable's name (`MARFA_DB`) or the file's path (`$XDG_CONFIG_HOME/verdicts/keys.conf`).
  var term: String
  /// What it is for, in a sentence or two.
  var text: String

  /// Creates an entry.
  init(_ term: String, _ text: String) {
    self.term = term
    self.text = text
  }
}
