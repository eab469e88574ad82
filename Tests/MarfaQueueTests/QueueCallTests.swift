import Foundation
import Testing

@testable import MarfaQueue

/// The queue calls on stored verdicts (seed page "Read the queue", "Blocked writes",
/// "Withdraw a write"; contract 4.1 and 4.2). Verdicts are set through the test seam.
@Suite struct QueueCallTests {
  func note(_ copy: WorkingCopy, _ title: String = "a") async throws -> QueuedWrite {
    try await copy.createItem(type: "note", properties: .object([("title", .string(title))]))
  }

  @Test func takeAnsweredClearsAcceptedMergedConflictedAndContentlessRefusedOnly() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let accepted = try await note(copy)
    let merged = try await note(copy)
    let conflicted = try await note(copy)
    let refusedContent = try await note(copy)
    let refusedTag = try await copy.addTag(item: "x", tag: "t")
    let blocked = try await note(copy)
    let dead = try await note(copy)
    let unanswered = try await note(copy)
    try await copy.forceVerdict(accepted.id, .accepted)
    try await copy.forceVerdict(merged.id, .merged(fields: ["a"]))
    try await copy.forceVerdict(conflicted.id, .conflicted(siblingId: "s", fields: ["a"]))
    try await copy.forceVerdict(refusedContent.id, .refused(Refusal(reason: "validation_error")))
    try await copy.forceVerdict(refusedTag.id, .refused(Refusal(reason: "item_not_found")))
    try await copy.forceVerdict(blocked.id, .blocked(reason: .keySpent))
    try await copy.forceVerdict(dead.id, .dead)
    let taken = try await copy.queue.takeAnswered()
    #expect(Set(taken.map(\.id)) == [accepted.id, merged.id, conflicted.id, refusedTag.id])
    let left = try await copy.queue.all().map(\.id)
    #expect(Set(left) == [refusedContent.id, blocked.id, dead.id, unanswered.id])
    #expect(try await copy.queue.takeAnswered().isEmpty)
  }

  @Test func clearingKeepsAnAnsweredWriteThatAWaitingWriteDependsOn() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let create = try await note(copy)
    let update = try await copy.updateItem(id: create.itemId!, properties: .object([]))
    #expect(update.dependsOn == [create.id])
    try await copy.forceVerdict(create.id, .accepted)
    #expect(try await copy.queue.forgetAnswered() == 0)
    try await copy.forceVerdict(update.id, .accepted)
    #expect(try await copy.queue.forgetAnswered() == 2)
  }

  @Test func forgetAnsweredByIdsClearsOnlyNamedClearableWrites() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let a = try await note(copy)
    let b = try await note(copy)
    let c = try await note(copy)
    try await copy.forceVerdict(a.id, .accepted)
    try await copy.forceVerdict(b.id, .accepted)
    try await copy.forceVerdict(c.id, .blocked(reason: .keySpent))
    #expect(try await copy.queue.forgetAnswered(ids: [a.id, c.id, "unknown"]) == 1)
    #expect(Set(try await copy.queue.all().map(\.id)) == [b.id, c.id])
  }

  @Test func concurrentTakeAnsweredCallersNeverBothGetOneWrite() async throws {
    let t = TestStore()
    let copy = try await t.open()
    var ids: [String] = []
    for i in 0..<200 { ids.append(try await note(copy, "n\(i)").id) }
    for id in ids { try await copy.forceVerdict(id, .accepted) }
    let results = try await withThrowingTaskGroup(of: [String].self) { group in
      for _ in 0..<8 { group.addTask { try await copy.queue.takeAnswered().map(\.id) } }
      var all: [[String]] = []
      for try await r in group { all.append(r) }
      return all
    }
    let flat = results.flatMap { $0 }
    #expect(flat.count == 200)
    #expect(Set(flat).count == 200)
  }

  @Test func discardTakesARefusedWriteAndAnswersFalseOtherwise() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let refused = try await note(copy)
    let accepted = try await note(copy)
    try await copy.forceVerdict(refused.id, .refused(Refusal(reason: "validation_error")))
    try await copy.forceVerdict(accepted.id, .accepted)
    #expect(try await copy.queue.discard(accepted.id) == false)
    #expect(try await copy.queue.discard(refused.id) == true)
    #expect(try await copy.queue.all().map(\.id) == [accepted.id])
  }

  @Test func discardAnswersFalseForARefusedWriteAWaitingWriteDependsOn() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let create = try await note(copy)
    _ = try await copy.updateItem(id: create.itemId!, properties: .object([]))
    try await copy.forceVerdict(create.id, .refused(Refusal(reason: "validation_error")))
    #expect(try await copy.queue.discard(create.id) == false)
  }

  @Test func discardOfAnUnknownIdThrowsNotFound() async throws {
    let t = TestStore()
    let copy = try await t.open()
    await #expect(throws: QueueError.notFound(id: "nope")) { _ = try await copy.queue.discard("nope") }
    await #expect(throws: QueueError.notFound(id: "nope")) { _ = try await copy.queue.release("nope") }
    await #expect(throws: QueueError.notFound(id: "nope")) { _ = try await copy.queue.withdraw("nope") }
  }

  @Test func releaseGivesAFreshKeyKeepsTheOldOneAndResetsTheCount() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let w = try await note(copy)
    try await copy.forceVerdict(w.id, .dead)
    #expect(try await copy.queue.write(w.id).refusals == 5)
    #expect(try await copy.queue.release(w.id) == true)
    let after = try await copy.queue.write(w.id)
    #expect(after.verdict == nil)
    #expect(after.refusals == 0)
    #expect(after.idempotencyKey != w.idempotencyKey)
    let spent = try await copy.store.run { try $0.text("SELECT spent_keys FROM queue WHERE id = ?", [.text(w.id)]) }
    #expect(spent?.contains(w.idempotencyKey) == true)
  }

  @Test func releaseNeverReleasesAWriteTheInstanceRefused() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let w = try await note(copy)
    try await copy.forceVerdict(w.id, .refused(Refusal(reason: "validation_error")), sent: true)
    #expect(try await copy.queue.release(w.id) == false)
    #expect(try await copy.queue.write(w.id).verdict == .refused(Refusal(reason: "validation_error")))
  }

  @Test func releaseByReasonTakesEveryWriteBlockedForItAndNeverADeadOne() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let a = try await note(copy)
    let b = try await note(copy)
    let c = try await note(copy)
    let d = try await note(copy)
    try await copy.forceVerdict(a.id, .blocked(reason: .keySpent))
    try await copy.forceVerdict(b.id, .blocked(reason: .keySpent))
    try await copy.forceVerdict(c.id, .blocked(reason: .conflictUnresolved))
    try await copy.forceVerdict(d.id, .dead)
    #expect(try await copy.queue.release(reason: .keySpent) == 2)
    #expect(try await copy.queue.write(c.id).verdict?.blockedReason == .conflictUnresolved)
    #expect(try await copy.queue.write(d.id).verdict == .dead)
  }

  @Test func releaseTakesTheWritesTheDrainRefusedUnsentBecauseOfIt() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let create = try await note(copy)
    let update = try await copy.updateItem(id: create.itemId!, properties: .object([]))
    try await copy.forceVerdict(create.id, .dead)
    try await copy.forceVerdict(
      update.id, .refused(Refusal(reason: "the create_item it waits for was dead")), sent: false)
    #expect(try await copy.queue.release(create.id) == true)
    #expect(try await copy.queue.write(update.id).verdict == nil)
  }

  @Test func withdrawAnswersFalseForAWriteThatIsNotWithdrawable() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let a = try await note(copy)
    let b = try await note(copy)
    try await copy.forceVerdict(b.id, .blocked(reason: .keySpent))
    #expect(try await copy.queue.withdraw(a.id) == false)
    #expect(try await copy.queue.withdraw(b.id) == false)
    #expect(try await copy.queue.all().count == 2)
  }

  @Test func withdrawWithoutAnInstanceChangesNothing() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let a = try await note(copy)
    try await copy.forceVerdict(a.id, .blocked(reason: .conflictUnresolved))
    await #expect(throws: QueueError.noServer) { _ = try await copy.queue.withdraw(a.id) }
    #expect(try await copy.queue.write(a.id).verdict?.blockedReason == .conflictUnresolved)
  }

  @Test func streamsAreToldForgottenReleasedAndLocal() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let changes = copy.changes()
    let a = try await note(copy)
    try await copy.forceVerdict(a.id, .accepted)
    _ = try await copy.queue.takeAnswered()
    let b = try await note(copy)
    try await copy.forceVerdict(b.id, .dead)
    _ = try await copy.queue.release(b.id)
    var seen: [Change] = []
    for await c in changes {
      seen.append(c)
      if seen.count == 4 { break }
    }
    #expect(seen == [.local(.createItem), .refreshed(.forgotten), .local(.createItem), .refreshed(.released)])
  }

  @Test func liveQueueYieldsAtOnceAndAgainAfterAChange() async throws {
    let t = TestStore()
    let copy = try await t.open()
    var results = copy.live(.queue).makeAsyncIterator()
    guard case .queue(let first) = await results.next() else {
      Issue.record("no first result")
      return
    }
    #expect(first.isEmpty)
    _ = try await note(copy)
    guard case .queue(let second) = await results.next() else {
      Issue.record("no second result")
      return
    }
    #expect(second.count == 1)
  }

  @Test func pagesReadOnePaneInSendOrderWithACount() async throws {
    let t = TestStore()
    let copy = try await t.open()
    var ids: [String] = []
    for i in 0..<30 { ids.append(try await note(copy, "n\(i)").id) }
    for id in ids.prefix(10) { try await copy.forceVerdict(id, .accepted) }
    let page = try await copy.queue.page(.waiting, offset: 5, limit: 10)
    #expect(page.total == 20)
    #expect(page.writes.map(\.id) == Array(ids[15..<25]))
    let counts = try await copy.queue.counts()
    #expect(counts == QueueCounts(waiting: 20, answered: 10))
    let filtered = try await copy.queue.page(.answered, offset: 0, limit: 50, filter: ids[3])
    #expect(filtered.writes.map(\.id) == [ids[3]])
  }
}

@Suite struct PositionTests {
  @Test func positionNamesTheWritesPaneAndIndexUnderTheFilter() async throws {
    let t = TestStore()
    let copy = try await t.open()
    var ids: [String] = []
    for i in 0..<10 { ids.append(try await copy.createItem(type: "note", properties: .object([("n", .int(i))])).id) }
    try await copy.forceVerdict(ids[2], .accepted)
    try await copy.forceVerdict(ids[7], .accepted)
    let p = try await copy.queue.position(of: ids[7])
    #expect(p?.pane == .answered)
    #expect(p?.index == 1)
    #expect(try await copy.queue.position(of: ids[9])?.index == 7)
    #expect(try await copy.queue.position(of: ids[9], filter: "zzz") == nil)
    #expect(try await copy.queue.position(of: "unknown") == nil)
  }
}
