/// The failure of a command whose output could not be written.
extension CommandFailure {
  /// `write_error`, exit 3: what the output failed with, as coreutils say it, and what that
  /// means for the command's work (`note`: the drain's verdicts are stored, nothing was taken).
  init(output failure: OutputFailure, note: String? = nil) {
    self.init(
      code: "write_error", message: failure.message + (note.map { "; " + $0 } ?? ""), exit: .environment)
  }
}
