import Foundation
import ScriptedInstance
import Testing

@testable import MarfaQueue

/// The drains before this one (docs/rules.md "The drains before this one"): a bounded row per
/// drain, one for each way a drain ends, the last 500 kept, pruned in the writer's own transaction.
@Suite struct DrainHistoryTests {
  @Test func aFinishedDrainIsKeptWithItsCountsItsWriterAndItsPace() async throws {
    let h = try await DrainHarness()
    await h.copy.describeWriter(program: "verdicts", mode: "drain")
    for i in 0..<3 { _ = try await h.note("n\(i)") }
    let before = Date()
    let report = try await h.copy.queue.drain()
    let drains = try await h.copy.history()
    #expect(drains.count == 1)
    let d = try #require(drains.first)
    #expect(d.ending == .finished)
    #expect(d.why == nil)
    #expect(d.answered == report.answered && d.answered == 3)
    #expect(d.held == 0 && d.undelivered == 0 && d.unsent == 0 && d.unmade == 0)
    #expect(d.verdicts == ["accepted": 3])
    #expect(d.program == "verdicts" && d.mode == "drain")
    #expect(d.pid == Int(getpid()))
    #expect(!d.host.isEmpty)
    #expect(d.startedAt >= before.addingTimeInterval(-1))
    let ended = try #require(d.endedAt)
    #expect(ended >= d.startedAt)
    #expect((d.writesPerSecond ?? 0) > 0)
  }

  @Test func aDrainWithNothingToDoIsNotKept() async throws {
    let h = try await DrainHarness()
    _ = try await h.copy.queue.drain()
    _ = try await h.copy.queue.drain()
    #expect(try await h.copy.history().isEmpty)
  }

  @Test func aDrainEndedByTheNetworkIsKeptUnavailableWithWhy() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-gw"), .gatewayPage(status: 502))])
    _ = try await h.note(id: "w-gw")
    _ = try await h.note()
    let report = try await h.copy.queue.drain()
    let d = try #require(try await h.copy.history().first)
    #expect(d.ending == .unavailable)
    #expect(d.why == report.unavailable.map(LastFailure.cut))
    #expect(d.undelivered == 2)
  }

  @Test func aDrainEndedByARefusedKeyIsKeptStopped() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-401"), .unauthorized)])
    _ = try await h.note(id: "w-401")
    let report = try await h.copy.queue.drain()
    let d = try #require(try await h.copy.history().first)
    #expect(d.ending == .stopped)
    #expect(d.why == report.stopped)
  }

  @Test func aDrainThatThrowsIsKeptFailedWithItsError() async throws {
    let h = try await DrainHarness()
    _ = try await h.note()
    h.instance.switchInstance(to: "22222222-0000-7000-8000-000000000000", keepData: true)
    await #expect(throws: QueueError.self) { _ = try await h.copy.queue.drain() }
    let d = try #require(try await h.copy.history().first)
    #expect(d.ending == .failed)
    #expect(d.why?.contains("instance") == true, "\(String(describing: d.why))")
    #expect(d.endedAt != nil)
  }

  @Test func aDrainThatFailsBeforeAnyAnswerStillTellsTheScreensToReadAgain() async throws {
    let h = try await DrainHarness()
    _ = try await h.note()
    h.instance.switchInstance(to: "22222222-0000-7000-8000-000000000000", keepData: true)
    let changes = h.copy.changes()
    let heard = Task { () -> Bool in
      for await change in changes where change == .refreshed(.drained) { return true }
      return false
    }
    await #expect(throws: QueueError.self) { _ = try await h.copy.queue.drain() }
    let timeout = Task {
      try await Task.sleep(nanoseconds: 3_000_000_000)
      heard.cancel()
    }
    #expect(await heard.value, "no refresh after a drain that failed")
    timeout.cancel()
  }

  @Test func aDrainWithNoEndWhoseProcessNoLongerHoldsTheRoleIsReadCutShort() async throws {
    let h = try await DrainHarness()
    // The live writer names itself; the drain's row names another process.
    await h.copy.describeWriter(program: "verdicts", mode: "drain", publish: true)
    let n = try await h.copy.store.run { db in try db.beginDrainRecord(startedAt: Date(), writer: nil) }
    let d = try #require(try await h.copy.history().first)
    #expect(d.number == n)
    #expect(d.ending == .cutShort && d.endedAt == nil)
    // The store keeps it open: only the reading tells it was cut short.
    let stored = try await h.copy.store.run { try $0.drainHistory(since: nil, limit: 1, answering: false) }
    #expect(stored.first?.ending == .open)
  }

  @Test func aDrainWithNoEndRunByTheLiveWriterIsReadOpen() async throws {
    let h = try await DrainHarness()
    await h.copy.describeWriter(program: "verdicts", mode: "drain", publish: true)
    let writer = try await h.copy.writer()
    _ = try await h.copy.store.run { db in try db.beginDrainRecord(startedAt: Date(), writer: writer) }
    let d = try #require(try await h.copy.history().first)
    #expect(d.ending == .open && d.endedAt == nil)
  }

  @Test func aDrainWithNoEndIsReadCutShortOnceTheWriterRoleIsFree() async throws {
    let store = TestStore()
    let copy = try await store.open()
    await copy.describeWriter(program: "verdicts", mode: "drain", publish: true)
    let writer = try await copy.writer()
    _ = try await copy.store.run { db in try db.beginDrainRecord(startedAt: Date(), writer: writer) }
    copy.close()
    let reader = try await WorkingCopy.openReader(store: store.url)
    defer { reader.close() }
    #expect(try await reader.history().first?.ending == .cutShort)
  }

  @Test func aDrainStoppedByItsCallerIsKeptInterruptedWithWhoAsked() async throws {
    let h = try await DrainHarness()
    h.instance.writeDelay = 0.05
    for i in 0..<20 { _ = try await h.note("n\(i)") }
    let queue = h.copy.queue
    Task {
      try await Task.sleep(nanoseconds: 200_000_000)
      queue.stopDrain(because: "stopped by SIGTERM")
    }
    await #expect(throws: QueueError.self) { _ = try await queue.drain() }
    let d = try #require(try await h.copy.history().first)
    #expect(d.ending == .interrupted)
    #expect(d.why == "stopped by SIGTERM")
    #expect(d.answered > 0 && d.answered < 20, "\(d)")
    #expect(d.endedAt != nil)
  }

  @Test func writesASecondCountOnlyTheWritesAnswered() {
    let t0 = Date()
    let d = DrainRecord(
      number: 1, startedAt: t0, endedAt: t0.addingTimeInterval(2), answered: 10, held: 91, undelivered: 5_914)
    #expect(d.writesPerSecond == 5)
    let none = DrainRecord(number: 2, startedAt: t0, endedAt: t0.addingTimeInterval(2), undelivered: 5_914)
    #expect(none.writesPerSecond == nil)
  }

  @Test func theStoreKeepsTheLast500DrainsNewestFirst() async throws {
    let h = try await DrainHarness()
    let last = try await h.copy.store.run { db in
      try db.transaction(durable: false) {
        var n: Int?
        for _ in 0..<(DrainRecord.kept + 7) { n = try db.beginDrainRecord(startedAt: Date(), writer: nil) }
        return n
      }
    }
    let drains = try await h.copy.history()
    #expect(drains.count == DrainRecord.kept)
    #expect(drains.first?.number == last)
    #expect(drains.last?.number == (last ?? 0) - DrainRecord.kept + 1)
    let rows = try await h.copy.store.run { try $0.scalar("SELECT count(*) FROM drains") }
    #expect(rows == DrainRecord.kept)
    #expect(try await h.copy.history(limit: 3).map(\.number) == [last!, last! - 1, last! - 2])
  }

  @Test func historySinceAndAnsweringChooseTheirDrains() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-gw"), .gatewayPage(status: 502))])
    _ = try await h.note(id: "w-gw")
    _ = try await h.copy.queue.drain()
    _ = try await h.copy.queue.drain()
    let all = try await h.copy.history()
    #expect(all.map(\.ending) == [.finished, .unavailable])
    #expect(try await h.copy.history(answering: true).map(\.number) == [all[0].number])
    #expect(try await h.copy.history(since: Date().addingTimeInterval(60)).isEmpty)
    #expect(try await h.copy.history(since: Date().addingTimeInterval(-3_600)).count == 2)
  }

  @Test func aStoreOfAnEarlierBuildGetsTheTablesWhenAWriterOpensIt() async throws {
    let store = TestStore()
    var copy = try await store.open()
    copy.close()
    #expect(
      store.execute(
        "DROP TABLE attempts; DROP TABLE drains; DROP TRIGGER IF EXISTS attempts_leave; DROP TRIGGER IF EXISTS attempts_leave_archive;"
      ))
    // A reader reads such a store as keeping none.
    let reader = try await WorkingCopy.openReader(store: store.url)
    #expect(try await reader.history().isEmpty)
    reader.close()
    copy = try await store.open()
    defer { copy.close() }
    let tables = try await copy.store.run {
      try $0.scalar("SELECT count(*) FROM sqlite_master WHERE name IN ('attempts', 'drains')")
    }
    #expect(tables == 2)
  }

  @Test func aDamagedDrainRowIsReadInRangeAndSaidOnce() async throws {
    let h = try await DrainHarness()
    _ = try await h.note()
    _ = try await h.copy.queue.drain()
    try await h.copy.store.run { db in
      try db.query(
        "UPDATE drains SET answered = ?, ended_ms = ?, pid = ?, retry_after = ?",
        [.int(-1), .int(Int(Int64.max)), .int(Int(Int64.min)), .int(Int(Int64.max))])
    }
    let d = try #require(try await h.copy.history().first)
    #expect(d.answered == 0)
    #expect(d.endedAt == nil)
    #expect(d.pid == 0)
    #expect(d.retryAfterSeconds == nil)
    #expect(await h.copy.damage() != nil)
  }
}
