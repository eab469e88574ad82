/// What a command line asks for.
enum ParseOutcome: Sendable {
  /// Run a command.
  case run(CommandID, ParsedArguments)
  /// Print the help of the command at this path (empty: the root's).
  case help([String], ParsedArguments)
  /// Print the version.
  case version(ParsedArguments)
  /// The line could not be accepted; the globals read so far are kept (for `--json`).
  case failure(UsageError, ParsedArguments)
}
