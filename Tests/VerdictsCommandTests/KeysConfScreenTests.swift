import Foundation
import MarfaQueue
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// With every action bound to `q` in keys.conf the status line said `q was
/// quit's; now next-pane (quit has no key left)` while `q` quit. Now the words say what the
/// file left, and the key does what they say. Through the built binary on a terminal of its own.
@Suite(.serialized) struct KeysConfScreenTests {
  /// Every action's name as keys.conf spells it, in the order help lists them.
  static let actions = [
    "next-pane", "previous-pane", "pane-waiting", "pane-answered", "pane-blocked", "pane-dead", "down", "up", "top",
    "bottom", "page-down", "page-up", "focus-detail", "mark", "mark-all", "clear", "release", "release-reason",
    "withdraw", "discard", "take", "forget", "drain", "auto-drain", "use-key", "filter", "sort", "pause", "follow",
    "goto", "jump", "back", "copy-id", "export", "tail", "help", "repaint", "quit",
  ]

  func run(keys: String) throws -> (ScreenPty, TempFolder) {
    let t = TempFolder()
    _ = try Binary.run(["items", "create", "--type", "note", "--properties", "{}"], store: t.store, home: t.path)
    try FileManager.default.createDirectory(atPath: t.path + "/config/verdicts", withIntermediateDirectories: true)
    try Data(keys.utf8).write(to: URL(fileURLWithPath: t.path + "/config/verdicts/keys.conf"))
    let pty = try ScreenPty(
      ["--store", t.store, "watch"],
      environment: Binary.environment(store: nil, home: t.path, ["XDG_CONFIG_HOME": t.path + "/config"]), width: 160,
      height: 40)
    return (pty, t)
  }

  @Test func everyActionBoundToQSaysQIsQuitAndQQuits() throws {
    let (pty, folder) = try run(keys: Self.actions.map { "\($0) = q" }.joined(separator: "\n") + "\n")
    defer { _ = folder }
    defer { pty.stop() }
    let n = Self.actions.count
    #expect(
      pty.waitFor("keys.conf line \(n): q is bound on \(n) lines (1 to \(n)); the last wins: q is quit", timeout: 10),
      "\(pty.text.suffix(600).debugDescription)")
    #expect(!pty.text.contains("quit has no key left"))
    pty.type("q")
    #expect(pty.waitForExit(timeout: 10))
    #expect(pty.process.terminationStatus == 0 && pty.signal == nil)
    #expect(pty.modesRestored)
  }

  @Test func quitBoundFirstThenEveryOtherActionToQSaysQuitHasNoKeyAndCtrlCEndsIt() throws {
    let order = ["quit"] + Self.actions.filter { $0 != "quit" }
    let (pty, folder) = try run(keys: order.map { "\($0) = q" }.joined(separator: "\n") + "\n")
    defer { _ = folder }
    defer { pty.stop() }
    #expect(pty.waitFor("the last wins: q is repaint", timeout: 10), "\(pty.text.suffix(600).debugDescription)")
    // q repaints, as the words say: it does not quit.
    pty.type("q")
    // A fixed pause: an exit that does not come has no event to wait on.
    usleep(500_000)
    #expect(pty.process.isRunning)
    // ctrl-c (SIGINT from the terminal's line discipline) ends it; no controlling terminal here,
    // so the test sends the signal the key would.
    kill(pty.process.processIdentifier, SIGINT)
    #expect(pty.waitForExit(timeout: 10))
    #expect(pty.signal == nil)
    #expect(pty.modesRestored)
  }
}
