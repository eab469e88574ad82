import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A screen whose terminal goes away with no SIGHUP (a terminal that is not its controlling one,
/// as under `setsid` or a harness's pty): it ends, instead of polling a terminal that reads as
/// ready for ever. Found with fifty watchers: screens left behind by a killed bench spun at 9 % of
/// a core each. Through the built binary on a terminal of its own.
@Suite(.serialized) struct TerminalHangUpTests {
  @Test(arguments: ["watch", "tui"])
  func aScreenWhoseTerminalHangsUpEnds(_ command: String) throws {
    let t = TempFolder()
    let r = try Binary.run(["items", "create", "--type", "note", "--properties", "{}"], store: t.store, home: t.path)
    #expect(r.code == 0, "\(r)")
    let pty = try ScreenPty(
      ["--store", t.store, command], environment: Binary.environment(store: nil, home: t.path, [:]), width: 120,
      height: 40)
    defer { pty.stop() }
    #expect(pty.waitFor("Detail", timeout: 10), "\(pty.text.suffix(400).debugDescription)")
    pty.hangUp()
    #expect(pty.waitForExit(timeout: 5), "the screen still runs 5 s after its terminal hung up")
    #expect(pty.signal == nil)
  }
}
