/// One exit status of `verdicts`: what it means and the error codes (`--json`'s `error.code`) that end with it.
struct ExitStatusEntry: Sendable, Hashable {
  /// The status.
  var code: ExitCode
  /// What it means, in a few words.
  var meaning: String
  /// The `error.code` values a failure with this status carries, in the order docs/cli.md lists them.
  var errorCodes: [String]
}
