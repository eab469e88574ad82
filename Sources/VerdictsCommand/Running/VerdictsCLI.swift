import FoundationEssentials
import MarfaQueue

#if canImport(Glibc)
  import Glibc
#endif

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
    // The completion scripts' call: every word after `--` is taken as typed, an empty one too.
    if arguments.count >= 2, arguments[0] == "__complete", arguments[1] == "--" {
      return await CommandRunner.complete(Array(arguments.dropFirst(2)), environment: environment, output: output)
        .rawValue
    }
    let code = await runCommandLine(arguments: arguments, environment: environment, output: output)
    // Output that could not be written is a failure, like coreutils' `write error`: a command
    // that did its work exits 3 saying so (one that failed already said why, and keeps its code).
    guard code == ExitCode.done.rawValue, let failure = output.outFailure else { return code }
    let globals: GlobalOptions
    switch CommandTable.parser.parse(helpAsFlag(arguments)) {
    case .help(_, let p), .version(let p), .failure(_, let p), .run(_, let p):
      globals = GlobalOptions(p, environment: environment)
    }
    return report(CommandFailure(output: failure), globals: globals, output: output)
  }

  /// Runs one command line (not the completion scripts' call) and returns its exit code.
  static func runCommandLine(arguments: [String], environment: [String: String], output: any CommandOutput) async
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
      let commit: JSONValue = BuildStamp.commit.map { .string($0.hash + ($0.dirty ? "-dirty" : "")) } ?? .null
      output.out(
        globals.json
          ? JSONValue.object([("version", .string(version)), ("commit", commit)]).text + "\n"
          : version + " " + BuildStamp.words + "\n")
      return ExitCode.done.rawValue
    case .failure(let error, let parsed):
      let globals = GlobalOptions(parsed, environment: environment)
      return report(CommandFailure(usage: error), globals: globals, output: output)
    case .run(let id, let parsed):
      var context = CommandContext(
        globals: GlobalOptions(parsed, environment: environment), environment: environment, output: output,
        arguments: parsed, rawArguments: arguments)
      if context.globals.keyOnCommandLine {
        context.warn(
          code: "key_on_command_line",
          "--key on the command line is visible to every user of this machine (ps); "
            + "use MARFA_API_KEY, --key-file PATH or --key - (standard input)")
      }
      do {
        try context.globals.readKey(standardInput: standardInput)
        return try await CommandRunner(context: context).run(id).rawValue
      } catch {
        return report(CommandFailure(any: error), globals: context.globals, output: output)
      }
    }
  }

  /// Runs one command line given as the bytes the process received: an argument that is not
  /// UTF-8 is refused (exit 2), never changed into U+FFFD and used.
  public static func run(rawArguments: [[UInt8]], environment: [String: String], output: any CommandOutput) async
    -> Int32
  {
    let arguments = rawArguments.map { String(decoding: $0, as: UTF8.self) }
    // A completion is only offered, never acted on: a word that is not UTF-8 just fits nothing.
    let completing = arguments.count >= 2 && arguments[0] == "__complete" && arguments[1] == "--"
    guard !completing, let bad = rawArguments.firstIndex(where: { String(validating: $0, as: UTF8.self) == nil }) else {
      return await run(arguments: arguments, environment: environment, output: output)
    }
    let parsed: ParsedArguments
    switch CommandTable.parser.parse(arguments) {
    case .help(_, let p), .version(let p), .failure(_, let p), .run(_, let p): parsed = p
    }
    let previous = bad > 0 ? arguments[bad - 1] : ""
    let what =
      previous.hasPrefix("--") && !previous.contains("=")
      ? "the value of \(previous)" : "argument \(bad + 1) (\(Sanitizer.clean(arguments[bad], ascii: true)))"
    let failure = CommandFailure(
      code: "usage", message: "\(what) is not valid UTF-8; it is refused rather than changed", exit: .usage)
    return report(failure, globals: GlobalOptions(parsed, environment: environment), output: output)
  }

  /// Up to `limit` bytes of standard input (for `--key -`), nil when it cannot be read.
  static func standardInput(_ limit: Int) -> [UInt8]? {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while bytes.count < limit {
      let n = read(STDIN_FILENO, &chunk, min(chunk.count, limit - bytes.count))
      if n < 0 {
        if errno == EINTR { continue }
        return nil
      }
      if n == 0 { break }
      bytes.append(contentsOf: chunk[0..<n])
    }
    return bytes
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
      // A usage message may run over lines (the line of bad JSON and a caret under it): each line is
      // made safe on its own; any other failure is one line, whatever it holds.
      let lines =
        failure.code == "usage"
        ? failure.message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        : [failure.message]
      output.err("verdicts: " + lines.map { Sanitizer.clean($0, ascii: globals.ascii) }.joined(separator: "\n") + "\n")
    }
    return failure.exit.rawValue
  }
}
