/// The commands that arrive with the TUI, the demo and the scripted instance.
///
/// The parser already accepts them and their options; each lands here, in one function the
/// TUI's and the instance's authors fill in. Until then each says so and exits 2.
enum ArrivingCommands {
  /// `verdicts` / `verdicts tui`: the TUI, writer if the store is free, else read-only.
  static func runTUI(_ context: CommandContext) async throws -> ExitCode {
    try await ScreenCommands.tui(context)
  }

  /// `verdicts watch [--plain]`: follow the queue read-only; `plain` prints a line per change.
  static func runWatch(_ context: CommandContext, plain: Bool) async throws -> ExitCode {
    try await ScreenCommands.watch(context, plain: plain)
  }

  /// `verdicts demo [--plain] [--seconds N]`: scripted instance, fresh store, the `tour` scenario.
  static func runDemo(_ context: CommandContext, plain: Bool, seconds: Int?) async throws -> ExitCode {
    try await ScreenCommands.demo(context, plain: plain, seconds: seconds)
  }

  /// `verdicts instance [--port N] [--scenario NAME|FILE]`: the scripted instance in the foreground.
  static func runInstance(_ context: CommandContext, port: Int?, scenario: String?) async throws -> ExitCode {
    try await InstanceCommand.run(context, port: port, scenario: scenario)
  }

  static func notYet(_ what: String) -> CommandFailure {
    CommandFailure(
      code: "not_built",
      message: "\(what); until then: queue, status, drain, release, withdraw, discard, forget and the write commands",
      exit: .usage)
  }
}
