import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `watch --plain`, `status` and a TUI watcher, three processes beside the writer, tell one
/// drain's end from the one report the store kept, for each way a drain ends; and a writer that
/// dies, stalls or loses its instance is told so by each of them.
@Suite(.serialized) struct DrainEndAcrossViewsTests {
  /// How a pass ends, and the script that ends it so.
  enum Ending: String, CaseIterable {
    case through, unavailable, stoppedByKey, rateLimited

    var rules: [ScriptRule] {
      let post = ScriptMatch(method: "POST")
      let four = Array(repeating: ScriptedAnswer.normal, count: 4)
      switch self {
      case .through: return []
      case .unavailable:
        return [ScriptRule(post, answers: four + [.error(500, code: "internal", message: "boom")], repeatsLast: true)]
      case .stoppedByKey:
        return [ScriptRule(post, answers: four + [.error(401, code: "unauthorized", message: "no")], repeatsLast: true)]
      case .rateLimited:
        return [ScriptRule(post, answers: four + [.rateLimited(seconds: 7)], repeatsLast: true)]
      }
    }
  }

  /// The report's counts as every view words them.
  static func words(_ r: DrainReport) -> String {
    "answered \(r.answered), held \(r.held), undelivered \(r.undelivered), unsent \(r.unsent), unmade \(r.unmade)"
  }

  /// Leaves a closed writer record in the store, so a new `watch --plain` says a first writer line.
  static func leaveClosedRecord(_ victim: DrainVictim) async throws {
    let copy = try await WorkingCopy.open(store: URL(fileURLWithPath: victim.store), server: nil)
    await copy.describeWriter(program: "setup", mode: "library")
    copy.close()
  }

  static func waitFor(_ p: Spawned, _ needle: String, timeout: Double = 60) -> Bool {
    waitUntil(within: .seconds(timeout)) { p.stdout.contains(needle) }
  }

  static func reader(_ victim: DrainVictim) async throws -> WorkingCopy {
    try await WorkingCopy.openReader(store: URL(fileURLWithPath: victim.store))
  }

  @Test(arguments: Ending.allCases)
  func watchPlainStatusAndTheTUIGiveTheKeptReportsCountsForADrainThatEnds(_ ending: Ending) async throws {
    let victim = try await DrainVictim(writes: 12)
    try await Self.leaveClosedRecord(victim)
    victim.instance.addRules(ending.rules)
    let watch = try Spawned(["watch", "--plain"], environment: victim.environment)
    defer { watch.kill() }
    #expect(Self.waitFor(watch, "writer: none since", timeout: 30), "\(watch.stdout)")
    let drain = try Binary.run(
      ["--json", "drain"], store: victim.store, home: victim.folder.path, environment: victim.environment, timeout: 120)
    let copy = try await Self.reader(victim)
    defer { copy.close() }
    let report = try #require(try await copy.status().lastDrain)
    // The drain's own report is the one kept.
    #expect(drain.json?["answered"]?.intValue == report.answered, "\(drain)")
    #expect(drain.json?["undelivered"]?.intValue == report.undelivered)
    let words = Self.words(report)
    #expect(Self.waitFor(watch, "drain ended"), "\(watch.stdout)")
    let line = try #require(watch.stdout.split(separator: "\n").first { $0.contains("drain ended") })
    #expect(line.contains(": " + words), "\(line) / \(words)")
    let status = try Binary.run(["status"], store: victim.store, home: victim.folder.path)
    let lastDrain = try #require(status.stdout.split(separator: "\n").first { $0.contains("last drain") })
    #expect(lastDrain.contains(words), "\(lastDrain)")
    // Why it ended, in the same words in both.
    for why in [report.unavailable, report.stopped].compactMap({ $0 }) {
      #expect(line.contains(why), "\(line)")
      #expect(lastDrain.contains(why), "\(lastDrain)")
    }
    if let r = report.retryAfterSeconds {
      #expect(line.contains("retry after \(r) s"))
      #expect(lastDrain.contains("retry after \(r) s"))
    }
    switch ending {
    case .through: #expect(report.answered == 12 && report.unavailable == nil && report.stopped == nil)
    case .unavailable, .rateLimited: #expect(report.answered == 4 && report.undelivered == 8, "\(report)")
    case .stoppedByKey: #expect(report.stopped != nil, "\(report)")
    }
    // A TUI watcher started now draws the same counts (each one it names) on its status line.
    let tui = try ScreenPty(
      ["watch"], environment: Binary.environment(store: victim.store, home: victim.folder.path, [:]), width: 200,
      height: 30)
    defer { tui.stop() }
    let counts = [
      (report.answered, "answered"), (report.held, "held"), (report.undelivered, "undelivered"),
      (report.unsent, "unsent"), (report.unmade, "unmade"),
    ].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
    #expect(tui.waitFor("drain at", timeout: 30))
    for c in counts { #expect(tui.waitFor(c, timeout: 10), "\(c) not on the TUI") }
  }

  @Test func aWriterKilledMidDrainIsToldDiedDuringADrainWithItsCountsByEveryView() async throws {
    let victim = try await DrainVictim(writes: 200)
    try await Self.leaveClosedRecord(victim)
    victim.instance.writeDelay = 0.02
    let watch = try Spawned(["watch", "--plain"], environment: victim.environment)
    defer { watch.kill() }
    #expect(Self.waitFor(watch, "writer: none since", timeout: 30))
    let drain = try victim.spawnDrain()
    defer { drain.kill() }
    victim.waitForPosts(30, while: drain)
    let copy = try await Self.reader(victim)
    defer { copy.close() }
    var sent = 0
    try await eventually(within: .seconds(30)) {
      sent = try await copy.writer()?.drain?.sent ?? 0
      return sent >= 10
    }
    let pid = drain.process.processIdentifier
    drain.kill()
    #expect(drain.wait(timeout: 10))
    let dead = try #require(try await copy.writer())
    #expect(dead.state == .gone)
    let d = try #require(dead.drain)
    let words = "died during a drain (\(d.sent) of \(d.total) sent"
    #expect(Self.waitFor(watch, "pid \(pid) died during it (\(d.sent) of \(d.total) sent"), "\(watch.stdout)")
    #expect(watch.stdout.contains("pid \(pid) " + words), "\(watch.stdout)")
    let status = try Binary.run(["status"], store: victim.store, home: victim.folder.path)
    let writer = try #require(status.stdout.split(separator: "\n").first { $0.hasPrefix("writer") })
    #expect(writer.contains("gone"), "\(writer)")
    #expect(writer.contains("pid \(pid) " + words), "\(writer)")
    #expect(writer.contains("this process could now take the role"), "\(writer)")
    let tui = try ScreenPty(
      ["watch"], environment: Binary.environment(store: victim.store, home: victim.folder.path, [:]), width: 200,
      height: 30)
    defer { tui.stop() }
    #expect(tui.waitFor(words, timeout: 30), "the TUI watcher does not say the writer died during its drain")
  }

  @Test func aStoppedWriterMidDrainIsToldStalledWithItsLastProgress() async throws {
    let victim = try await DrainVictim(writes: 200)
    try await Self.leaveClosedRecord(victim)
    victim.instance.writeDelay = 0.02
    let watch = try Spawned(["watch", "--plain"], environment: victim.environment)
    defer { watch.kill() }
    #expect(Self.waitFor(watch, "writer: none since", timeout: 30))
    let drain = try victim.spawnDrain()
    defer { drain.kill() }
    #expect(Self.waitFor(watch, "draining", timeout: 30), "\(watch.stdout)")
    // No line says the role is held without a record while the drain starts.
    #expect(!watch.stdout.contains("no record"), "\(watch.stdout)")
    victim.waitForPosts(20, while: drain)
    kill(drain.process.processIdentifier, SIGSTOP)
    defer { kill(drain.process.processIdentifier, SIGCONT) }
    #expect(Self.waitFor(watch, "stalled: no progress for", timeout: 90), "\(watch.stdout)")
    let copy = try await Self.reader(victim)
    defer { copy.close() }
    let w = try #require(try await copy.writer())
    let d = try #require(w.drain)
    #expect(w.stalled(now: Date()))
    #expect(watch.stdout.contains("(\(d.sent) of \(d.total) sent, last at"), "\(watch.stdout)")
    let status = try Binary.run(["status"], store: victim.store, home: victim.folder.path)
    #expect(status.stdout.contains("stalled: no progress for"), "\(status.stdout)")
    #expect(status.stdout.contains("(\(d.sent) of \(d.total) sent, last at"), "\(status.stdout)")
  }

  @Test("an instance stopped under an auto-draining writer is told unreachable by watch --plain and status")
  func anInstanceStoppedUnderAnAutoDrainingWriterIsToldUnreachableByWatchPlainAndStatus() async throws {
    let victim = try await DrainVictim(writes: 3)
    let watch = try Spawned(["watch", "--plain"], environment: victim.environment)
    defer { watch.kill() }
    let writer = try ScreenPty(["tui"], environment: victim.environment, width: 160, height: 40)
    defer { writer.stop() }
    #expect(writer.waitFor("auto-drain", timeout: 30))
    writer.type("a")
    #expect(Self.waitFor(watch, "instance reachable", timeout: 60), "\(watch.stdout)")
    victim.instance.stop()
    #expect(Self.waitFor(watch, "instance unreachable since", timeout: 60), "\(watch.stdout)")
    #expect(watch.stdout.contains("next try"), "\(watch.stdout)")
    let status = try Binary.run(["status"], store: victim.store, home: victim.folder.path)
    let says = try #require(status.stdout.split(separator: "\n").first { $0.hasPrefix("writer says") })
    #expect(says.contains("instance unreachable since"), "\(says)")
    #expect(says.contains("auto-drain on"), "\(says)")
  }
}
