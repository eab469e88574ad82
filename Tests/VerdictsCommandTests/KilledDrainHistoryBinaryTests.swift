import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A drain whose process is ended mid-pass (a hang-up, SIGTERM, Ctrl-C, `kill -9`) leaves in
/// `history` what it answered: the row's counts are kept with the verdicts' group commits, so
/// they say what the store holds answered, not `answered 0`. Through the built binary, against
/// a slow instance so the kill lands between answers.
@Suite(.serialized) struct KilledDrainHistoryBinaryTests {
  /// Each write's answer takes this long: the kill lands while one is out.
  static let delay = 0.4

  /// What the history's newest row and the store say after `pid` was killed by `signal`
  /// once the instance had received `posts` writes; `appliedAtKill`: the writes the instance had
  /// answered by then.
  static func killMidDrain(
    _ victim: DrainVictim, pid: pid_t, signal: Int32, posts: Int,
    isRunning: () -> Bool
  ) async throws -> (row: JSONValue, storedAnswered: Int, appliedAtKill: Int) {
    #expect(waitUntil(within: .seconds(60), every: .milliseconds(5)) { victim.posts >= posts || !isRunning() })
    #expect(isRunning(), "the drain ended before it was killed")
    // Half an answer's wait: the answers before it are stored and their group committed.
    usleep(UInt32(delay / 2 * 1_000_000))
    let appliedAtKill = victim.instance.appliedWrites.count
    kill(pid, signal)
    #expect(waitUntil(within: .seconds(15)) { !isRunning() }, "the drain still runs 15 s after signal \(signal)")
    let stored = try await victim.queueNow().filter { $0.verdict == .accepted }.count
    let history = try Binary.run(["history", "--json"], store: victim.store, home: victim.folder.path)
    #expect(history.code == 0, "\(history)")
    let row = try #require(history.json?.arrayValue?.first, "\(history.stdout)")
    return (row, stored, appliedAtKill)
  }

  @Test(arguments: [SIGHUP, SIGTERM, SIGINT, SIGKILL])
  func aDrainKilledMidPassLeavesWhatItAnsweredAndHowItEndedInTheHistory(_ signal: Int32) async throws {
    let victim = try await DrainVictim(writes: 30)
    victim.instance.writeDelay = Self.delay
    let drain = try victim.spawnDrain()
    defer { drain.kill() }
    let (row, stored, applied) = try await Self.killMidDrain(
      victim, pid: drain.process.processIdentifier, signal: signal, posts: 6,
      isRunning: { drain.process.isRunning })
    #expect(applied >= 4, "the instance answered \(applied) writes before the kill")
    #expect(row["answered"]?.intValue == stored, "history \(row), the store holds \(stored) answered")
    #expect((row["answered"]?.intValue ?? 0) >= applied, "history \(row), the instance answered \(applied)")
    #expect(row["verdict_counts"]?["accepted"]?.intValue == stored, "\(row)")
    if signal == SIGKILL {
      // Nothing could be written at the end: the reading tells that its process ended first.
      #expect(row["ended"]?.stringValue == "cut_short" && row["ended_at"] == .null, "\(row)")
    } else {
      // The drain heard these and ended itself after the write in flight, naming the signal.
      let name = DrainSignalsNames.name(signal)
      #expect(row["ended"]?.stringValue == "interrupted", "\(row)")
      #expect(row["why"]?.stringValue == "stopped by \(name)", "\(row)")
      let status = try Binary.run(["status"], store: victim.store, home: victim.folder.path)
      let last = status.stdout.split(separator: "\n").first { $0.hasPrefix("last drain") } ?? ""
      #expect(last.contains("interrupted: stopped by \(name)") && !last.contains("never"), "\(status.stdout)")
    }
  }

  /// The words each signal is named by in a drain's row.
  enum DrainSignalsNames {
    static func name(_ signal: Int32) -> String {
      switch signal {
      case SIGINT: return "SIGINT (Ctrl-C)"
      case SIGHUP: return "SIGHUP (the terminal or the session closed)"
      default: return "SIGTERM"
      }
    }
  }

  @Test func aScreenHungUpMidDrainLeavesWhatItAnsweredInTheHistory() async throws {
    let victim = try await DrainVictim(writes: 30)
    victim.instance.writeDelay = Self.delay
    let tui = try ScreenPty(["tui"], environment: victim.environment, width: 160)
    defer { tui.stop() }
    #expect(tui.waitFor("Detail", timeout: 30), "\(tui.text.suffix(600).debugDescription)")
    tui.type("d")
    let (row, stored, applied) = try await Self.killMidDrain(
      victim, pid: tui.process.processIdentifier, signal: SIGHUP, posts: 6,
      isRunning: { tui.process.isRunning })
    #expect(applied >= 4, "the instance answered \(applied) writes before the hang-up")
    #expect(row["writer"]?["mode"]?.stringValue == "tui", "\(row)")
    #expect(row["answered"]?.intValue == stored, "history \(row), the store holds \(stored) answered")
    #expect((row["answered"]?.intValue ?? 0) >= applied, "history \(row), the instance answered \(applied)")
  }
}
