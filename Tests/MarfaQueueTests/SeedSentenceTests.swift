import Foundation
import ScriptedInstance
import Testing

@testable import MarfaQueue

/// The seed page's sentences where the queue once parted from it, and the
/// sentences no test covered before: each test names the sentence it holds the queue to.
@Suite struct SeedSentenceTests {
  /// Reads the copy's changes until the marker's `.local(.addTag)`, which every test queues
  /// after the call it watches: what the call told lies before it.
  static func changesUntilMarker(_ copy: WorkingCopy, _ changes: AsyncStream<Change>) async throws -> [Change] {
    _ = try await copy.addTag(item: "marker", tag: "m")
    var seen: [Change] = []
    for await c in changes {
      if c == .local(.addTag) { break }
      seen.append(c)
    }
    return seen
  }

  // MARK: "A write held behind another that has no answer yet has `waiting` set to `true`"

  @Test func afterAPassEndsEarlyAWriteHeldBehindTheUnansweredOneIsCountedHeldAndStaysWaiting() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-first"), .serverFault)])
    let first = try await h.note(id: "w-first")
    let tag = try await h.copy.addTag(item: "w-first", tag: "t")
    let other = try await h.note(id: "w-other")
    let report = try await h.copy.queue.drain()
    #expect(report.unavailable != nil)
    #expect(report.held == 1)
    #expect(report.undelivered == 2)
    let held = try await h.write(tag.id)
    #expect(held.waiting)
    #expect(held.verdict == nil)
    #expect(held.wireJSON["reason"] == .string("awaiting_dependency"))
    #expect(try await h.write(other.id).waiting == false)
    #expect(try await h.write(first.id).waiting == false)
    // The next drain sends them in order.
    let again = try await h.copy.queue.drain()
    #expect(again.answered == 3)
  }

  @Test func afterAPassEndsEarlyAWriteThatOnlyFollowsTheUnansweredOneStaysWaiting() async throws {
    let h = try await DrainHarness(
      items: [SeedItem(id: "n1", type: "note")], rules: [.once(.door("PATCH", "/items/n1"), .serverFault)])
    let first = try await h.copy.updateItem(id: "n1", properties: .object([("a", .number(1))]))
    let second = try await h.copy.updateItem(id: "n1", properties: .object([("a", .number(2))]))
    #expect(second.follows == first.id && second.dependsOn.isEmpty)
    let report = try await h.copy.queue.drain()
    #expect(report.held == 1)
    #expect(report.undelivered == 1)
    #expect(try await h.write(second.id).waiting)
  }

  // MARK: "`discard(_:)` returns `false` … for a write that a waiting write depends on"

  @Test func aRefusedCreateWhoseOnlyDependantWasRefusedUnsentIsDiscardedAndTheDependantIsNeverReleased() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-c"), .validation([("title", "bad")]))])
    let create = try await h.note(id: "w-c")
    let tag = try await h.copy.addTag(item: "w-c", tag: "t")
    _ = try await h.copy.queue.drain()
    let refusedUnsent = try await h.write(tag.id)
    #expect(refusedUnsent.sent == false)
    #expect(refusedUnsent.verdict?.refusal?.reason == "the create_item it waits for was refused")
    // A dependant refused unsent is not waiting: the create may go.
    #expect(try await h.copy.queue.permission(.discard, for: create.id) == .allowed)
    #expect(try await h.copy.queue.discard(create.id))
    // Once the create is gone, the tag would name a row that never was: never released.
    let orphan = try await h.write(tag.id)
    #expect(orphan.dependencyGone)
    #expect(orphan.allows(.release) == .notAllowed(.dependencyGone))
    #expect(try await h.copy.queue.release(tag.id) == false)
    let posts = h.requests("POST", "/items").count
    _ = try await h.copy.queue.drain()
    #expect(h.requests("POST", "/items").count == posts)
    #expect(try await h.write(tag.id).verdict?.name == .refused)
  }

  @Test func aRefusedCreateWithAWaitingDependantIsNotDiscarded() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let create = try await copy.createItem(type: "note", properties: .object([]))
    _ = try await copy.addTag(item: create.itemId!, tag: "t")
    try await copy.forceVerdict(create.id, .refused(Refusal(reason: "validation_error")))
    #expect(try await copy.queue.permission(.discard, for: create.id) == .notAllowed(.waitingDependant))
    #expect(try await copy.queue.discard(create.id) == false)
  }

  // MARK: "refused unsent, with the reason `the <kind> it waits for was withdrawn`"

  @Test func aWriteWaitingOnADeadCreateIsRefusedNamingTheKindsWireName() async throws {
    let h = try await DrainHarness()
    let create = try await h.note(id: "w-dead")
    let tag = try await h.copy.addTag(item: "w-dead", tag: "t")
    try await h.copy.forceVerdict(create.id, .dead)
    let report = try await h.copy.queue.drain()
    #expect(report.unsent == 1)
    #expect(try await h.write(tag.id).verdict?.refusal?.reason == "the create_item it waits for was dead")
  }

  @Test func aWriteThatOnlyFollowsAWithdrawnUpdateIsRefusedUnsentAndNeverSent() async throws {
    let h = try await DrainHarness(
      items: [SeedItem(id: "n1", type: "note")], rules: [.once(.door("PATCH", "/items/n1"), .versionConflict)])
    let first = try await h.copy.updateItem(id: "n1", properties: .object([("a", .number(1))]))
    _ = try await h.copy.queue.drain()
    #expect(try await h.write(first.id).verdict?.blockedReason == .conflictUnresolved)
    let follower = try await h.copy.updateItem(id: "n1", properties: .object([("a", .number(2))]))
    #expect(follower.follows == first.id && follower.dependsOn.isEmpty)
    #expect(try await h.copy.queue.withdraw(first.id))
    let refused = try await h.write(follower.id)
    #expect(refused.verdict?.refusal?.reason == "the update_item it waits for was withdrawn")
    #expect(refused.dependencyGone)
    #expect(try await h.copy.queue.release(follower.id) == false)
    let patches = h.requests("PATCH", "/items/n1").count
    _ = try await h.copy.queue.drain()
    #expect(h.requests("PATCH", "/items/n1").count == patches)
  }

  // MARK: `unmade` in the report

  @Test func aWriteWhoseRequestCannotBeMadeIsCountedUnmadeAndDiesAtTheCeiling() async throws {
    let h = try await DrainHarness(items: [SeedItem(id: "n1", type: "note")])
    let w = try await h.copy.updateItem(id: "n1", properties: .object([("a", .number(1))]))
    // A store as another program left it: the write names no row, so no request can be made.
    try await h.copy.store.run { try $0.query("UPDATE queue SET item_id = '' WHERE id = ?", [.text(w.id)]) }
    let report = try await h.copy.queue.drain()
    #expect(report.unmade == 1)
    #expect(report.answered == 0 && report.undelivered == 0)
    #expect(try await h.write(w.id).refusals == 1)
    #expect(h.requests("PATCH", "/items").isEmpty)
    for _ in 1..<QueueLimits.ceiling { _ = try await h.copy.queue.drain() }
    #expect(try await h.write(w.id).verdict == .dead)
  }

  // MARK: "A held `updates()` sequence drains … again after a drain left a write undelivered"

  @Test func heldUpdatesDrainAgainAfterADrainLeftAWriteUndelivered() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-again"), .serverFault)])
    let w = try await h.note(id: "w-again")
    var updates = h.copy.updates().makeAsyncIterator()
    var reports: [DrainReport] = []
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline, let u = await updates.next() {
      if case .drained(let r) = u { reports.append(r) }
      if reports.last?.answered == 1 { break }
    }
    #expect(reports.first?.undelivered == 1)
    #expect(reports.last?.answered == 1)
    #expect(try await h.write(w.id).verdict == .accepted)
  }

  // MARK: "Each call that clears a write tells the copy's streams `.refreshed(.forgotten)`"

  @Test func forgetAnsweredTellsTheStreamsForgotten() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let a = try await copy.createItem(type: "note", properties: .object([]))
    let b = try await copy.createItem(type: "note", properties: .object([]))
    try await copy.forceVerdict(a.id, .accepted)
    try await copy.forceVerdict(b.id, .accepted)
    let changes = copy.changes()
    #expect(try await copy.queue.forgetAnswered(ids: [a.id]) == 1)
    #expect(try await copy.queue.forgetAnswered() == 1)
    #expect(try await copy.queue.forgetAnswered() == 0)
    let seen = try await Self.changesUntilMarker(copy, changes)
    #expect(seen == [.refreshed(.forgotten), .refreshed(.forgotten)])
  }

  @Test func discardTellsTheStreamsForgotten() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let w = try await copy.createItem(type: "note", properties: .object([]))
    let kept = try await copy.createItem(type: "note", properties: .object([]))
    try await copy.forceVerdict(w.id, .refused(Refusal(reason: "validation_error")))
    let changes = copy.changes()
    #expect(try await copy.queue.discard(kept.id) == false)
    #expect(try await copy.queue.discard(w.id))
    let seen = try await Self.changesUntilMarker(copy, changes)
    #expect(seen == [.refreshed(.forgotten)])
  }

  @Test func withdrawTellsTheStreamsForgottenAndWithdrawn() async throws {
    let h = try await DrainHarness(
      items: [SeedItem(id: "n1", type: "note")], rules: [.once(.door("PATCH", "/items/n1"), .versionConflict)])
    let w = try await h.copy.updateItem(id: "n1", properties: .object([("a", .number(1))]))
    _ = try await h.copy.queue.drain()
    let changes = h.copy.changes()
    #expect(try await h.copy.queue.withdraw(w.id))
    let seen = try await Self.changesUntilMarker(h.copy, changes)
    #expect(
      seen.filter { if case .refreshed = $0 { return true } else { return false } } == [
        .refreshed(.forgotten), .refreshed(.withdrawn),
      ])
  }
}
