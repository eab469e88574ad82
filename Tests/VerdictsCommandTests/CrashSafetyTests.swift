import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `verdicts drain` killed (-9) or signalled mid-drain: after a restart and a full drain every
/// write is answered, none is lost, and the instance applied each exactly once.
@Suite(.serialized) struct CrashSafetyTests {
  /// Writes queued for the kill test: 2,000 (10,000 with `SOAK=1`).
  static var writes: Int { Soak.on ? 10_000 : 2_000 }
  /// Kills: at least 20 (200 with `SOAK=1`).
  static var kills: Int { Soak.on ? 200 : 20 }

  @Test("kill 9 at random moments during a 2000-write drain loses nothing and applies each write once")
  func kill9AtRandomMomentsDuringA2000WriteDrainLosesNothingAndAppliesEachWriteOnce() async throws {
    let seed = SeededRandom.testSeed()
    var rng = SeededRandom(seed: seed)
    let victim = try await DrainVictim(writes: Self.writes)
    var kills = 0
    var midDrain = 0
    var finished = 0
    var moments: [String] = []
    // Each kill takes at most 1/25 of the queue, so 20 kills land before the queue runs dry.
    let most = max(2, Self.writes / (Self.kills + 5))
    while kills < Self.kills {
      let before = victim.posts
      let drain = try victim.spawnDrain()
      // A random moment: a random time after the start (often before any request), or a
      // random number of write requests in, plus up to 3 ms (between send, answer and commit).
      if Int.random(in: 0..<4, using: &rng) == 0 {
        let ms = Int.random(in: 0...250, using: &rng)
        usleep(UInt32(ms * 1000))
        moments.append("\(ms) ms")
      } else {
        let k = Int.random(in: 1...most, using: &rng)
        victim.waitForPosts(before + k, while: drain)
        let us = Int.random(in: 0...3000, using: &rng)
        usleep(UInt32(us))
        moments.append("\(k) posts + \(us) µs")
      }
      let running = drain.process.isRunning
      drain.kill()
      #expect(drain.wait(timeout: 30), "seed \(seed): the killed drain did not end")
      if running && drain.process.terminationReason == .uncaughtSignal {
        kills += 1
        if victim.posts > before { midDrain += 1 }
      } else {
        // It ended on its own first: the queue ran dry (the kills are sized so it should not).
        finished += 1
        #expect(drain.result().code == 0, "seed \(seed): \(drain.result())")
        break
      }
    }
    #expect(kills >= Self.kills, "seed \(seed): only \(kills) kills landed before the queue ran dry")
    #expect(midDrain >= Self.kills / 2, "seed \(seed): only \(midDrain) kills came after a write was sent")

    let finals = try victim.drainToCompletion()
    let last = try #require(finals.last)
    #expect(last.code == 0, "seed \(seed): \(last)")
    let queue = try await victim.queueNow()
    let problems = victim.problems(after: queue)
    #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(20))")
    let replayed = queue.filter(\.replayed).count
    print(
      """
      kill -9 (seed \(seed)): \(Self.writes) writes, \(kills) kills (\(midDrain) after a write was sent), \
      \(finals.count) drain(s) to finish, \(victim.posts) write requests, \(victim.replays) answered from the record \
      (\(replayed) writes settled by a replay), \(problems.count) problems; moments: \(moments.joined(separator: ", "))
      """)
  }

  @Test(
    "a signal mid-drain leaves a consistent store the next drain finishes and each write is applied once",
    arguments: [SIGTERM, SIGHUP, SIGINT])
  func aSignalMidDrainLeavesAConsistentStoreTheNextDrainFinishesAndEachWriteIsAppliedOnce(_ signal: Int32) async throws
  {
    let victim = try await DrainVictim(writes: 2_000)
    let drain = try victim.spawnDrain()
    victim.waitForPosts(40, while: drain)
    // A second opener meanwhile is a reader: its drain is refused, and reading goes on.
    let second = try Binary.run(
      ["--json", "drain"], store: victim.store, home: victim.folder.path, environment: victim.environment)
    #expect(second.code == 4, "\(second)")
    #expect(second.errorCode == "reading_handle", "\(second)")
    let read = try Binary.run(["--json", "queue"], store: victim.store, home: victim.folder.path)
    #expect(read.code == 0)
    #expect(read.json?.arrayValue?.count == 2_000)

    #expect(drain.process.isRunning, "the drain ended before the signal")
    kill(drain.process.processIdentifier, signal)
    #expect(drain.wait(timeout: 30))
    if signal == SIGINT || signal == SIGTERM || signal == SIGHUP {
      // Heard: the drain ends itself after the write in flight, canceled, exit 3.
      #expect(drain.process.terminationReason == .exit && drain.process.terminationStatus == 3, "\(drain.result())")
    } else {
      #expect(drain.process.terminationReason == .uncaughtSignal, "\(drain.result())")
    }
    let interrupted = try await victim.queueNow()
    #expect(interrupted.contains { $0.verdict == nil }, "the drain finished before the signal; nothing was interrupted")
    #expect(interrupted.contains { $0.verdict == .accepted }, "the signal came before any write was answered")

    let finals = try victim.drainToCompletion()
    #expect(finals.last?.code == 0, "\(String(describing: finals.last))")
    let problems = victim.problems(after: try await victim.queueNow())
    #expect(problems.isEmpty, "\(problems.prefix(20))")
  }
}
