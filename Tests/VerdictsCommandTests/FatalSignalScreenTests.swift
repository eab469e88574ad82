import Foundation
import MarfaQueue
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A trap anywhere gives the person's terminal back before the process
/// ends, never hands it to Swift's interactive backtracer (which waited 30 s on it), and says
/// where the crash report went; a binary started where `/proc` is not mounted says what it
/// lacks and ends (exit 3) rather than trap at its first line. Through the built binary, on a pseudo-terminal of its own (``ScreenPty``).
@Suite(.serialized) struct FatalSignalScreenTests {
  /// Whether this process may make a mount namespace of its own (root, or CAP_SYS_ADMIN).
  static let canUnshare: Bool = {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
    let run = try? ChildProcess.run(
      "/usr/bin/unshare", ["-m", "--", "/bin/sh", "-c", "umount -l /proc && test ! -e /proc/self/stat"])
    return run?.shellStatus == 0
  }()

  @Test(.disabled(if: SanitizerRun.active, "a sanitizer takes the fatal signals (and reads /proc) itself"))
  func aTrapInTheScreenRestoresTheTerminalSaysWhereTheReportIsAndWaitsOnNothing() throws {
    let t = TempFolder()
    let created = try Binary.run(
      ["items", "create", "--type", "note", "--properties", "{}"], store: t.store, home: t.path)
    #expect(created.code == 0, "\(created)")
    let started = Date()
    let pty = try ScreenPty(
      ["--store", t.store, "watch"],
      environment: Binary.environment(store: nil, home: t.path, ["VERDICTS_TEST_TRAP": "1"]))
    defer { pty.stop() }
    #expect(pty.waitForExit(timeout: 20), "still running after 20 s: \(pty.text.suffix(600).debugDescription)")
    let took = Date().timeIntervalSince(started)
    // The trap ends it by its own signal, at once: no backtracer holding the terminal for 30 s.
    #expect(
      pty.signal == SIGILL || pty.signal == SIGTRAP, "signal \(pty.signal ?? 0), exit \(pty.process.terminationStatus)")
    #expect(took < 15, "took \(took) s")
    #expect(!pty.text.contains("Press space"), "\(pty.text.suffix(600).debugDescription)")
    // Echo, line editing and the rest are as the shell left them.
    #expect(pty.modesRestored, "the terminal's modes were not restored")
    let text = pty.text
    // The alternate screen is left and the cursor shown after the last frame, then one line says what happened.
    let frame = text.range(of: "Detail", options: .backwards)
    let left = text.range(of: "\u{1B}[?1049l", options: .backwards)
    let said = text.range(of: "verdicts: stopped by a fatal error (SIGILL); the terminal was restored.")
    #expect(frame != nil && left != nil && said != nil, "\(text.suffix(800).debugDescription)")
    if let frame, let left, let said {
      #expect(frame.lowerBound < left.lowerBound && left.lowerBound < said.lowerBound)
    }
    #expect(text.contains("\u{1B}[?25h"), "the cursor was not shown again")
    // The report went to a file under the state folder, and the terminal says which.
    let folder = t.path + "/.local/state/verdicts/crashes"
    let reports = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    // Where the Swift backtracer is there (a toolchain's runtime, not a device's), its report
    // went to a file under the state folder and the terminal names it; else the terminal says
    // there is none.
    if text.contains("verdicts: writing the crash report to ") {
      #expect(reports.count == 1, "\(reports)")
      if let name = reports.first {
        #expect(text.contains("verdicts: the crash report is in \(folder)/\(name)"))
        let report = (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? ""
        #expect(report.contains("Program crashed"), "\(report.prefix(400))")
      }
    } else {
      #expect(text.contains("no crash report was written"))
      #expect(reports.isEmpty, "\(reports)")
    }
  }

  @Test(
    "a trap on another thread while the screen repaints is restored and no later frame undoes it",
    .disabled(if: SanitizerRun.active, "a sanitizer takes the fatal signals (and reads /proc) itself"))
  func aTrapOnAnotherThreadWhileTheScreenRepaintsIsRestoredAndNoLaterFrameUndoesIt() throws {
    let t = TempFolder()
    _ = try Binary.run(["items", "create", "--type", "note", "--properties", "{}"], store: t.store, home: t.path)
    let pty = try ScreenPty(
      ["--store", t.store, "watch"],
      environment: Binary.environment(store: nil, home: t.path, ["VERDICTS_TEST_TRAP": "thread"]), width: 80,
      height: 24)
    defer { pty.stop() }
    #expect(pty.waitFor("Detail", timeout: 10))
    // ctrl-l repaints the whole screen: frames keep going while the other thread traps.
    waitUntil(within: .seconds(20), every: .milliseconds(5)) {
      guard pty.process.isRunning else { return true }
      pty.type("\u{0C}")
      return false
    }
    #expect(pty.waitForExit(timeout: 5))
    #expect(pty.signal == SIGILL || pty.signal == SIGTRAP, "signal \(pty.signal ?? 0)")
    let text = pty.text
    // Nothing of the screen after the restore: the descriptor curses drew on was silenced.
    if let said = text.range(of: "the terminal was restored") {
      let after = text[said.upperBound...]
      #expect(!after.contains("\u{1B}[?1049h") && !after.contains("Waiting"), "\(after.prefix(400).debugDescription)")
    } else {
      Issue.record("no restore line: \(text.suffix(400).debugDescription)")
    }
    #expect(pty.modesRestored, "the terminal's modes were not restored")
  }

  @Test func startingItselfAgainInATerminalKeepsTheArgumentsTheStreamsAndTheExitCode() throws {
    // In a terminal the program executes itself once more with SWIFT_BACKTRACE naming a file:
    // the same arguments, the same terminal, the same exit code.
    let t = TempFolder()
    let version = try ScreenPty(["--version"], environment: Binary.environment(store: t.store, home: t.path, [:]))
    defer { version.stop() }
    #expect(version.waitForExit(timeout: 10))
    #expect(version.process.terminationStatus == 0)
    #expect(version.text.contains("verdicts 0.1.0"), "\(version.text.debugDescription)")
    let bad = try ScreenPty(
      ["queue", "--no-such-option"], environment: Binary.environment(store: t.store, home: t.path, [:]))
    defer { bad.stop() }
    #expect(bad.waitForExit(timeout: 10))
    #expect(bad.process.terminationStatus == 2)
    #expect(bad.text.contains("--no-such-option"), "\(bad.text.debugDescription)")
  }

  @Test(
    .enabled(if: canUnshare, "needs a mount namespace of its own (root) to unmount /proc"),
    .disabled(if: SanitizerRun.active, "a sanitizer takes the fatal signals (and reads /proc) itself"))
  func withoutProcTheBinaryStartsSaysWhatItLacksAndEndsExitThreeNeverBySignal() throws {
    let binary = try Binary.require()
    let t = TempFolder()
    let created = try Binary.run(
      ["items", "create", "--type", "note", "--properties", "{}"], store: t.store, home: t.path)
    #expect(created.code == 0)
    func withoutProc(_ line: String) throws -> (Int32, String) {
      let run = try ChildProcess.run(
        "/usr/bin/unshare", ["-m", "--", "/bin/sh", "-c", "umount -l /proc && exec \(line)"],
        environment: Binary.environment(store: t.store, home: t.path, [:]), errorsToOutput: true)
      return (run.shellStatus, run.output)
    }
    // Every run ends by itself, exit 3, saying what is missing and how to mount it, before any
    // task starts (libdispatch would stop it at random: it reads /proc/<tid>/stat); with --json
    // as the error envelope, so the arguments were read.
    for _ in 0..<5 {
      let (versionCode, version) = try withoutProc("'\(binary)' --version")
      #expect(versionCode == 3, "\(version)")
      #expect(version.hasPrefix("verdicts: /proc is not mounted, and verdicts needs it"), "\(version)")
      #expect(version.contains("mount -t proc proc /proc"), "\(version)")
      let (queueCode, queue) = try withoutProc("'\(binary)' --json queue --pane waiting")
      #expect(queueCode == 3, "\(queue)")
      #expect(
        JSONValue.parse(queue.trimmingCharacters(in: .whitespacesAndNewlines))?["error"]?["code"] == .string("no_proc"),
        "\(queue)")
    }
  }
}
