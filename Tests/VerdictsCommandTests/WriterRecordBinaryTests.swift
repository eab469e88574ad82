import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The writer's published record seen from another process: a `verdicts drain` running, killed
/// with -9, and ending cleanly.
@Suite(.serialized) struct WriterRecordBinaryTests {
  /// The record as a reader in this process reads it now.
  static func sighting(_ victim: DrainVictim) async throws -> WriterRecord? {
    let copy = try await WorkingCopy.openReader(store: URL(fileURLWithPath: victim.store))
    defer { copy.close() }
    return try await copy.writer()
  }

  /// Waits for the process to end without holding a thread of the shared pool (other suites' timing
  /// tests run beside this one on two cores); false after `timeout` seconds.
  static func ended(_ p: Spawned, timeout: Double) async throws -> Bool {
    await eventually(within: .seconds(timeout)) { !p.process.isRunning }
    return !p.process.isRunning && p.wait(timeout: 5)
  }

  @Test func aDrainKilledWithSignal9IsSeenLiveThenGoneWithItsPidAndItsDrainLeftOpen() async throws {
    let victim = try await DrainVictim(writes: 200)
    // 50 ms a write: the drain lasts about 10 s, so a loaded machine still sees it running (at
    // 10 ms it ended before a sighting on a machine busy with two builds).
    victim.instance.writeDelay = 0.05
    let drain = try victim.spawnDrain()
    defer { drain.kill() }
    await eventually(within: .seconds(30), every: .milliseconds(5)) { victim.posts >= 20 || !drain.process.isRunning }
    // Progress is published at most every 250 ms: wait for one that shows the drain.
    var live: WriterRecord?
    try await eventually(within: .seconds(5)) {
      live = try await Self.sighting(victim)
      return live?.drain != nil
    }
    let running = try #require(live)
    #expect(running.state == .live)
    #expect(running.program == "verdicts")
    #expect(running.mode == "drain")
    #expect(running.pid == drain.process.processIdentifier)
    #expect(running.drain?.total == 200)
    drain.kill()
    #expect(try await Self.ended(drain, timeout: 10))
    let dead = try #require(try await Self.sighting(victim))
    #expect(dead.state == .gone)
    #expect(dead.pid == running.pid)
    #expect(dead.drain != nil)
    #expect(dead.closedAt == nil)
  }

  @Test func aDrainThatEndsCleanlyLeavesTheRecordClosedWithItsLastDrain() async throws {
    let victim = try await DrainVictim(writes: 30)
    let drain = try Spawned(["--json", "drain"], environment: victim.environment)
    #expect(try await Self.ended(drain, timeout: 60))
    #expect(drain.result().code == 0)
    let seen = try #require(try await Self.sighting(victim))
    #expect(seen.state == .closed)
    #expect(seen.mode == "drain")
    #expect(seen.drain == nil)
    #expect(seen.lastDrain?.answered == 30)
    #expect(seen.lastDrain?.verdicts["accepted"] == 30)
  }
}
