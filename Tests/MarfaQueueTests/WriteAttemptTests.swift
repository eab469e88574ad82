import Foundation
import ScriptedInstance
import Testing

@testable import MarfaQueue

/// Each write's attempts (docs/rules.md "Each write's attempts"): every request the drain sends
/// is kept with what it met, the last 20 a write, the older counted; `lastFailure` and the
/// streak are as before.
@Suite struct WriteAttemptTests {
  /// The write's one attempt after one drain, and the drain the history kept.
  func onlyAttempt(_ h: DrainHarness, _ id: String) async throws -> (WriteAttempt, DrainRecord?) {
    let attempts = try await h.copy.queue.attempts(of: id)
    #expect(attempts.list.count == 1, "\(attempts)")
    #expect(attempts.omitted == 0)
    let attempt = try #require(attempts.list.first)
    return (attempt, try await h.copy.history().first)
  }

  @Test func anAcceptedWriteKeepsOneAttemptNamingItsDrainAndNoText() async throws {
    let h = try await DrainHarness()
    let w = try await h.note(id: "w-ok")
    let before = Date()
    _ = try await h.copy.queue.drain()
    let (a, drain) = try await onlyAttempt(h, w.id)
    #expect(a.result == .accepted)
    #expect(a.status == 201 || a.status == 200, "\(a)")
    #expect(a.text == nil)
    #expect(a.replayed == false)
    #expect(a.drain == drain?.number && a.drain != nil)
    #expect(a.at >= before.addingTimeInterval(-1) && a.at <= Date().addingTimeInterval(1))
    #expect(a.milliseconds >= 0 && a.milliseconds < 60_000)
    // The seed's fields are unchanged by the record.
    #expect(try await h.write(w.id).lastFailure == nil)
  }

  @Test func aRefusalIsKeptWithItsCodeAndTheStartOfItsText() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-400"), .validation([("title", "too long")]))])
    let w = try await h.note(id: "w-400")
    _ = try await h.copy.queue.drain()
    let (a, _) = try await onlyAttempt(h, w.id)
    #expect(a.result == .refused)
    #expect(a.status == 400 || a.status == 422, "\(a)")
    let reason = try await h.write(w.id).verdict?.refusal?.reason
    #expect(a.code == reason && reason != nil)
    #expect(a.text?.contains("too long") == true, "\(a)")
  }

  @Test func aBlockingAnswerIsKeptAsBlockedWithItsReason() async throws {
    let h = try await DrainHarness(items: [SeedItem(id: "n1", type: "note", properties: ["t": 0])])
    h.instance.addRule(.once(.route("PATCH", "/items/n1"), .versionConflict))
    let w = try await h.copy.updateItem(id: "n1", properties: .object([("t", .number(1))]))
    _ = try await h.copy.queue.drain()
    let (a, _) = try await onlyAttempt(h, w.id)
    #expect(a.result == .blocked)
    #expect(a.code == "conflict_unresolved")
    #expect(a.status == 409)
  }

  @Test func aGatewayPageIsKeptAsAFailureWithItsStatusAndText() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-gw"), .gatewayPage(status: 502))])
    let w = try await h.note(id: "w-gw")
    _ = try await h.copy.queue.drain()
    let (a, drain) = try await onlyAttempt(h, w.id)
    #expect(a.result == .failed)
    #expect(a.status == 502)
    let failure = try await h.write(w.id).lastFailure
    #expect(a.text == failure?.text, "cut as lastFailure.text is")
    #expect(drain?.ending == .unavailable)
  }

  @Test func aRateLimitIsKeptAsA429() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-429"), .rateLimited(seconds: 7))])
    let w = try await h.note(id: "w-429")
    _ = try await h.copy.queue.drain()
    let (a, drain) = try await onlyAttempt(h, w.id)
    #expect(a.result == .failed)
    #expect(a.status == 429)
    #expect(drain?.retryAfterSeconds == 7)
  }

  @Test func aDroppedConnectionIsKeptAsDroppedWithNoStatus() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-drop"), .drop)])
    let w = try await h.note(id: "w-drop")
    _ = try await h.copy.queue.drain()
    let (a, _) = try await onlyAttempt(h, w.id)
    #expect(a.result == .dropped, "\(a)")
    #expect(a.status == nil)
    #expect(a.text?.hasPrefix("the connection was dropped") == true)
  }

  @Test func aTimeoutIsKeptAsTimedOutWithItsDuration() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-stall"), .stall)], timeout: 1)
    let w = try await h.note(id: "w-stall")
    _ = try await h.copy.queue.drain()
    let (a, _) = try await onlyAttempt(h, w.id)
    #expect(a.result == .timedOut, "\(a)")
    #expect(a.status == nil)
    #expect(a.milliseconds >= 900, "the request waited out its deadline: \(a.milliseconds) ms")
  }

  @Test func aCountedFailureIsKeptAsAFailureAndTheNextAttemptAsAccepted() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-fl"), .inFlight)])
    let w = try await h.note(id: "w-fl")
    _ = try await h.copy.queue.drain()
    _ = try await h.copy.queue.drain()
    let attempts = try await h.copy.queue.attempts(of: w.id)
    // Newest first.
    #expect(attempts.list.map(\.result) == [.accepted, .failed], "\(attempts)")
    #expect(attempts.list[1].status == 409)
    #expect(attempts.list[0].drain! > attempts.list[1].drain!)
  }

  @Test func aMergedAnswerIsKeptAsMerged() async throws {
    let h = try await DrainHarness(items: [SeedItem(id: "n1", type: "note", properties: ["title": "t", "prio": "low"])])
    let w = try await h.copy.updateItem(id: "n1", properties: .object([("prio", .string("high"))]))
    h.instance.edit(ConcurrentEdit(itemId: "n1", properties: ["prio": "mid"]))
    _ = try await h.copy.queue.drain()
    let (a, _) = try await onlyAttempt(h, w.id)
    #expect(a.result == .merged)
    #expect(a.text == nil)
  }

  @Test func aKeepBothCopiesAnswerIsKeptAsConflicted() async throws {
    let h = try await DrainHarness(items: [SeedItem(id: "n1", type: "note", properties: ["body": "a"])])
    let w = try await h.copy.updateItem(id: "n1", properties: .object([("body", .string("mine"))]))
    h.instance.edit(ConcurrentEdit(itemId: "n1", properties: ["body": "theirs"]))
    _ = try await h.copy.queue.drain()
    let (a, _) = try await onlyAttempt(h, w.id)
    #expect(a.result == .conflicted)
  }

  @Test("an answer of another contract then a replay are kept as a failure and a replayed acceptance")
  func anAnswerOfAnotherContractThenAReplayAreKeptAsAFailureAndAReplayedAcceptance() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-c3"), ScriptedAnswer.normal.contract("3"))])
    let w = try await h.note(id: "w-c3")
    await #expect(throws: QueueError.contractMismatch(served: "3")) { _ = try await h.copy.queue.drain() }
    _ = try await h.copy.queue.drain()
    let attempts = try await h.copy.queue.attempts(of: w.id)
    #expect(attempts.list.map(\.result) == [.accepted, .failed], "\(attempts)")
    #expect(attempts.list[0].replayed)
    #expect(attempts.list[1].text?.contains("another contract (3)") == true, "\(attempts)")
    // The drain that met it ended with the error, and the history says so.
    let drains = try await h.copy.history()
    #expect(drains.map(\.ending) == [.finished, .failed])
    #expect(attempts.list[1].drain == drains[1].number)
  }

  @Test func aWriteKeepsItsLastTwentyAttemptsNewestFirstAndCountsTheOlder() async throws {
    let h = try await DrainHarness(rules: [ScriptRule(.write("w-fail"), answers: [.serverFault], repeatsLast: true)])
    let w = try await h.note(id: "w-fail")
    for _ in 0..<23 { _ = try await h.copy.queue.drain() }
    let attempts = try await h.copy.queue.attempts(of: w.id)
    #expect(attempts.list.count == WriteAttempt.kept)
    #expect(attempts.omitted == 3)
    #expect(attempts.total == 23)
    let drains = attempts.list.compactMap(\.drain)
    #expect(drains == drains.sorted(by: >), "newest first")
    #expect(attempts.list.allSatisfy { $0.result == .failed && $0.status == 500 })
    // The seed's streak and last failure are as they were.
    let after = try await h.write(w.id)
    #expect(after.environmentalStreak == 23)
    #expect(after.lastFailure?.status == 500)
    // The store holds no more than the kept ones.
    let rows = try await h.copy.store.run {
      try $0.scalar("SELECT count(*) FROM attempts WHERE write_id = ?", [.text(w.id)])
    }
    #expect(rows == WriteAttempt.kept)
  }

  @Test func aDepartedWriteKeepsItsAttemptsWhileTheArchiveKeepsItAndNotAfter() async throws {
    let h = try await DrainHarness()
    let w = try await h.note(id: "w-gone")
    _ = try await h.copy.queue.drain()
    #expect(try await h.copy.queue.attempts(of: w.id).list.count == 1)
    #expect(try await h.copy.queue.forgetAnswered(ids: [w.id]) == 1)
    let count = { try await h.copy.store.run { try $0.scalar("SELECT count(*) FROM attempts") } }
    // Kept with the archived write, for `undo` to put back and `show` to list.
    #expect(try await count() == 1)
    // Pruned from the archive (its age past the limit): its attempts go with it.
    // (Every step of the clock taken as witnessed, so one step past the age prunes.)
    let later = Int(Date().timeIntervalSince1970 * 1000) + ArchiveLimits.standard.maxAgeMilliseconds + 60_000
    let limits = ArchiveLimits(
      maxAgeMilliseconds: ArchiveLimits.standard.maxAgeMilliseconds, maxBytes: ArchiveLimits.standard.maxBytes,
      maxStepMilliseconds: .max)
    try await h.copy.store.run { db in try db.transaction(durable: false) { try db.pruneArchive(limits, nowMs: later) }
    }
    #expect(try await count() == 0)
  }

  @Test func aDamagedAttemptRowIsReadInRangeAndSaidOnce() async throws {
    let h = try await DrainHarness()
    let w = try await h.note(id: "w-dmg")
    _ = try await h.copy.queue.drain()
    try await h.copy.store.run { db in
      try db.query(
        "UPDATE attempts SET at_ms = ?, status = ?, ms = ?, k = ?",
        [
          .int(Int(Int64.max)), .int(-1), .int(Int(Int64.min)), .int(Int(Int64.max)),
        ])
    }
    let attempts = try await h.copy.queue.attempts(of: w.id)
    #expect(attempts.list.count == 1)
    #expect(attempts.list.first?.status == nil)
    #expect(attempts.list.first?.milliseconds == 0)
    #expect(attempts.omitted >= 0)
    #expect(await h.copy.damage() != nil)
  }

  @Test func keepingAttemptsAndHistoryCostsUnder200BytesAWriteInTheStore() async throws {
    let h = try await DrainHarness()
    let n = 1_000
    for i in 0..<n { _ = try await h.note("write \(i)") }
    // A night: one drain ended by a gateway, then the rest.
    h.instance.addRule(.once(ScriptMatch(methods: ["POST"]), .gatewayPage(status: 502)))
    _ = try await h.copy.queue.drain()
    let report = try await h.copy.queue.drain()
    #expect(report.answered == n, "\(report)")
    let bytes = try await h.copy.store.run { db in
      try db.scalar("SELECT sum(pgsize) FROM dbstat WHERE name IN ('attempts', 'drains')")
    }
    let perWrite = Double(bytes ?? 0) / Double(n)
    print("attempts and history: \(bytes ?? 0) bytes in pages for \(n) writes, \(perWrite) bytes a write")
    #expect(perWrite <= 200, "\(perWrite) bytes a write")
    #expect(perWrite > 0)
  }
}
