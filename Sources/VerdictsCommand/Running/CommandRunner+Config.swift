import MarfaQueue
import MarfaWire
import VerdictsUI

/// `config check`: every problem in the files the TUI reads at start.
extension CommandRunner {
  /// Prints each problem as `FILE:LINE: message` (or one JSON value); exit 0 clean, 2 with problems.
  func configCheck() -> ExitCode {
    let outcome = ConfigCheck.run(options: ScreenCommands.options(context, autoDrain: false))
    if json {
      let problems = outcome.findings.map { f in
        JSONValue.object([
          ("file", .string(f.file)), ("line", f.line.map { .number(JSONNumber($0)) } ?? .null),
          ("message", .string(f.message)),
        ])
      }
      context.printJSON(
        .object([
          ("clean", .bool(outcome.findings.isEmpty)), ("theme", .string(context.visible(outcome.theme))),
          ("files", .array(outcome.files.map { .string(context.visible($0)) })), ("problems", .array(problems)),
        ]))
    } else {
      for f in outcome.findings { context.print(context.visible(f.located)) }
      let files = outcome.files.isEmpty ? "no config files" : outcome.files.map(context.visible).joined(separator: ", ")
      let count = outcome.findings.count
      context.print(
        count == 0
          ? "no problems (\(files); theme \(context.visible(outcome.theme)))"
          : "\(count) problem\(count == 1 ? "" : "s") (\(files); theme \(context.visible(outcome.theme)))")
    }
    return outcome.findings.isEmpty ? .done : .usage
  }
}
