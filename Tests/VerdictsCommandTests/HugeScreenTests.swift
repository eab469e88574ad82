import Foundation
import MarfaQueue
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The screen's parts: a terminal larger than the screen draws says so
/// in one line and waits for a size it draws (a 65535×65535 one took 25 s and 1.19 GB to a
/// first frame, or was refused with "TERM=xterm-256color cannot address the cursor… use a TERM
/// such as xterm-256color"); a refused write with a huge answer is laid out by its start, so
/// `2` then `q` is as quick as on any store. Through the built binary on a terminal of its own.
@Suite(.serialized) struct HugeScreenTests {
  func storeWithOneWrite() throws -> TempFolder {
    let t = TempFolder()
    let r = try Binary.run(["items", "create", "--type", "note", "--properties", "{}"], store: t.store, home: t.path)
    #expect(r.code == 0, "\(r)")
    return t
  }

  @Test func a65535By65535TerminalIsToldInOneLineAndTheScreenWaitsForASizeItDraws() throws {
    let t = try storeWithOneWrite()
    let started = Date()
    let pty = try ScreenPty(
      ["--store", t.store, "watch"], environment: Binary.environment(store: nil, home: t.path, [:]), width: 65535,
      height: 65535)
    defer { pty.stop() }
    #expect(pty.waitFor("too large: 65535×65535 (the screen draws at most 1000×1000)", timeout: 10))
    #expect(Date().timeIntervalSince(started) < 5, "took \(Date().timeIntervalSince(started)) s to say it")
    #expect(!pty.text.contains("cannot address the cursor"))
    // It waits: still running, nothing drawn (a fixed pause: a frame that is not drawn has no
    // event to wait on).
    usleep(600_000)
    #expect(pty.process.isRunning)
    #expect(!pty.text.contains("Detail"))
    // A size it draws (no SIGWINCH reaches a process whose controlling terminal this is not:
    // the wait reads the size again twice a second).
    let resized = Date()
    pty.resize(width: 120, height: 40, signal: false)
    #expect(pty.waitFor("Detail", timeout: 10), "\(pty.text.suffix(400).debugDescription)")
    #expect(Date().timeIntervalSince(resized) < 3)
    pty.type("q")
    #expect(pty.waitForExit(timeout: 10))
    #expect(pty.process.terminationStatus == 0 && pty.signal == nil)
    #expect(pty.modesRestored)
  }

  @Test func growingPastTheLimitWhileRunningDrawsOneLineAndShrinkingBackDrawsTheScreen() throws {
    let t = try storeWithOneWrite()
    let pty = try ScreenPty(
      ["--store", t.store, "watch"], environment: Binary.environment(store: nil, home: t.path, [:]), width: 120,
      height: 40)
    defer { pty.stop() }
    #expect(pty.waitFor("Detail", timeout: 10))
    let before = pty.bytes.count
    pty.resize(width: 5000, height: 5000)
    waitUntil(within: .seconds(10)) { pty.text(after: before).contains("too large: 5000×5000") }
    #expect(
      pty.text(after: before).contains("too large: 5000×5000"),
      "\(pty.text(after: before).suffix(400).debugDescription)")
    #expect(pty.process.isRunning)
    let back = pty.bytes.count
    pty.resize(width: 120, height: 40)
    waitUntil(within: .seconds(20)) { pty.text(after: back).contains("Detail") }
    #expect(pty.text(after: back).contains("Detail"))
    pty.type("q")
    #expect(pty.waitForExit(timeout: 10))
    #expect(pty.process.terminationStatus == 0 && pty.signal == nil)
    #expect(pty.modesRestored)
  }
}

extension HugeScreenTests {
  /// A store whose one answered write is refused with a 100 MB answer (as a hostile store holds it).
  func storeWithAHugeAnswer() throws -> (TempFolder, String) {
    let t = try storeWithOneWrite()
    let id = try #require(try SQLiteScript.texts("SELECT id FROM queue", on: t.store).first)
    try SQLiteScript.run(
      """
      UPDATE queue SET verdict = 'refused', reason = 'validation_error', refusals = 1, sent = 1,
        answer = '{"error":{"code":"validation_error","message":"' || hex(randomblob(50000000)) || '"}}'
      """, on: t.store)
    return (t, id)
  }

  /// The peak resident memory of a running process, in MB (`VmHWM`), nil when it cannot be read.
  func peakMB(_ pid: Int32) -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kb = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return nil }
    return kb / 1024
  }

  @Test func aRefusedWriteWithA100MBAnswerIsDrawnByItsStartAndQuitIsImmediate() throws {
    let (t, _) = try storeWithAHugeAnswer()
    let pty = try ScreenPty(
      ["--store", t.store, "watch"], environment: Binary.environment(store: nil, home: t.path, [:]), width: 120,
      height: 40)
    defer { pty.stop() }
    #expect(pty.waitFor("Detail", timeout: 10))
    pty.type("2")
    // Keys paced as a person types them (the screen shows no sign that a key was read).
    usleep(300_000)
    // The detail focused and scrolled to its end says how much of the answer is left out (its
    // first 64 KiB are drawn).
    pty.type("\r")
    usleep(200_000)
    pty.type("G")
    #expect(pty.waitFor("more not shown", timeout: 10), "\(pty.text.suffix(600).debugDescription)")
    let peak = peakMB(pty.process.processIdentifier)
    let asked = Date()
    pty.type("q")
    #expect(pty.waitForExit(timeout: 10))
    let took = Date().timeIntervalSince(asked)
    #expect(took < 3, "q took \(took) s")
    #expect(pty.process.terminationStatus == 0 && pty.signal == nil)
    #expect(pty.modesRestored)
    // Only the answer's first 64 KiB is read (27 MB seen; 552 MB before).
    if let peak { #expect(peak < 100, "peak \(peak) MB") }
  }

  @Test func showOfA100MBAnswerPrintsItsStartAndHowMuchMoreInBoundedTime() throws {
    let (t, id) = try storeWithAHugeAnswer()
    let started = Date()
    let shown = try Binary.run(["show", id], store: t.store, home: t.path)
    let took = Date().timeIntervalSince(started)
    #expect(shown.code == 0, "\(shown.stderr)")
    #expect(took < 10, "took \(took) s")
    #expect(shown.stdout.utf8.count < 200_000, "\(shown.stdout.utf8.count) bytes")
    #expect(shown.stdout.contains("more not shown (the answer is 95.4 MiB;"), "\(shown.stdout.suffix(300))")
    #expect(shown.stdout.contains("`verdicts show --json ID` prints it whole"))
  }
}
