import Foundation
import MarfaQueue
import Testing

@testable import VerdictsUI

/// Runs the real ncurses UI over an in-memory queue, only when `VERDICTS_TTY=1` (under tmux,
/// by hand or by a script): `VERDICTS_TTY=1 swift test --skip-build --filter TTYSmokeTests`.
@Suite struct TTYSmokeTests {
  /// Whether this run asked for the real-terminal test (`VERDICTS_TTY=1`, under tmux).
  static let onATerminal = ProcessInfo.processInfo.environment["VERDICTS_TTY"] == "1"
  /// Whether standard output is not a terminal, as under `swift test` without `VERDICTS_TTY`.
  static let withoutATerminal = !onATerminal && isatty(STDOUT_FILENO) == 0

  @Test(.enabled(if: onATerminal, "runs the real ncurses UI only with VERDICTS_TTY=1 (under tmux)"))
  func realTerminal() async throws {
    let env = ProcessInfo.processInfo.environment
    let queue = FakeQueue(writes: AppCoreTests.allWrites())
    let options = AppOptions(
      theme: env["VERDICTS_TTY_THEME"], ascii: env["VERDICTS_TTY_ASCII"] == "1", logFile: env["VERDICTS_TTY_LOG"],
      environment: env)
    if env["VERDICTS_TTY_SCRIPTED"] == "1" {
      // For byte counts under `script -t`: idle for 3 s, one verdict at 3 s, idle again, quit at 6 s.
      Task.detached {
        try? await Task.sleep(nanoseconds: 3_000_000_000)
        queue.mutate { ws in
          if let i = ws.firstIndex(where: { $0.id == "w-undeliv" }) { ws[i].verdict = .accepted }
        }
        try? await Task.sleep(nanoseconds: 3_000_000_000)
        kill(getpid(), SIGTERM)
      }
    }
    try await VerdictsApp.run(source: queue, options: options)
  }

  @Test(.enabled(if: withoutATerminal, "needs standard output not to be a terminal"))
  func withoutATerminalItSaysSo() async {
    await #expect(throws: AppError.self) {
      try await VerdictsApp.run(source: FakeQueue(writes: []), options: AppOptions(environment: ["TERM": "dumb"]))
    }
  }
}
