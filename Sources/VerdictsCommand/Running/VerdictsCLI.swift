import MarfaQueue

/// The `verdicts` command line: parses the arguments, runs the command, prints, and says how to exit.
public enum VerdictsCLI {
  /// Runs one command line to the end.
  ///
  /// - Parameters:
  ///   - arguments: the arguments, without the program's name.
  ///   - environment: the environment variables (`MARFA_DB`, `MARFA_API_URL`, `MARFA_API_KEY`, …).
  ///   - output: where standard output and standard error go.
  /// - Returns: the exit code (see ``ExitCode``).
  public static func run(arguments: [String], environment: [String: String], output: any CommandOutput) async
    -> Int32
  {
    if arguments == ["help", "options"] {
      output.out(HelpText.options())
      return ExitCode.done.rawValue
    }
    switch CommandTable.parser.parse(helpAsFlag(arguments)) {
    case .help(let path, _):
      output.out(HelpText.render(path: path))
      return ExitCode.done.rawValue
    case .version(let parsed):
      let globals = GlobalOptions(parsed, environment: environment)
      let version = CommandTable.version
      output.out(globals.json ? JSONValue.object([("version", .string(version))]).text + "\n" : version + "\n")
      return ExitCode.done.rawValue
    case .failure(let error, let parsed):
      let globals = GlobalOptions(parsed, environment: environment)
      return report(CommandFailure(usage: error), globals: globals, output: output)
    case .run(let id, let parsed):
      let context = CommandContext(
        globals: GlobalOptions(parsed, environment: environment), environment: environment, output: output,
        arguments: parsed)
      do {
        return try await CommandRunner(context: context).run(id).rawValue
      } catch {
        return report(CommandFailure(any: error), globals: context.globals, output: output)
      }
    }
  }

  /// `verdicts help [CMD …]` as `verdicts [CMD …] --help`: the same text, whichever way it is asked.
  static func helpAsFlag(_ arguments: [String]) -> [String] {
    guard arguments.first == "help" else { return arguments }
    return Array(arguments.dropFirst()) + ["--help"]
  }

  /// Prints a failure on standard error (the JSON envelope with `--json`) and returns its exit code.
  static func report(_ failure: CommandFailure, globals: GlobalOptions, output: any CommandOutput) -> Int32 {
    if globals.json {
      output.err(failure.envelope.text(escaping: globals.jsonEscaping) + "\n")
    } else {
      output.err("verdicts: \(Sanitizer.clean(failure.message, ascii: globals.ascii))\n")
    }
    return failure.exit.rawValue
  }
}
