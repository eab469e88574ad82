import Foundation
import MarfaQueue
import Testing

@testable import VerdictsUI

/// Runs the real ncurses UI over an in-memory queue, only when `VERDICTS_TTY=1` (under tmux,
/// by hand or by a script): `VERDICTS_TTY=1 swift test --skip-build --filter TTYSmokeTests`.
@Suite struct TTYSmokeTests {
  @Test func realTerminal() async throws {
    let env = ProcessInfo.processInfo.environment
    guard env["VERDICTS_TTY"] == "1" else { return }
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

  @Test func withoutATerminalItSaysSo() async {
    // Under `swift test` stdout is not a terminal (it is when VERDICTS_TTY runs it in tmux).
    guard ProcessInfo.processInfo.environment["VERDICTS_TTY"] != "1", isatty(STDOUT_FILENO) == 0 else { return }
    await #expect(throws: AppError.self) {
      try await VerdictsApp.run(source: FakeQueue(writes: []), options: AppOptions(environment: ["TERM": "dumb"]))
    }
  }
}
