import Foundation
import ScriptedInstance
import TestSupport
import Testing

@testable import MarfaQueue

/// Writes that depend on others (held behind an unanswered write, following a create or an
/// update): how a pass that ends early, a refusal, a discard or a withdraw leaves them, as the
/// seed page's sentences say (each test names the sentence it holds the queue to).
@Suite struct DependantWriteTests {
  // MARK: "A write held behind another that has no answer yet has `waiting` set to `true`"

  @Test("after a pass ends early a write held behind the unanswered one is counted held and stays waiting")
  func afterAPassEndsEarlyAWriteHeldBehindTheUnansweredOneIsCountedHeldAndStaysWaiting() async throws {
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
      items: [SeedItem(id: "n1", type: "note")], rules: [.once(.route("PATCH", "/items/n1"), .serverFault)])
    let first = try await h.copy.updateItem(id: "n1", properties: .object([("a", .number(1))]))
    let second = try await h.copy.updateItem(id: "n1", properties: .object([("a", .number(2))]))
    #expect(second.follows == first.id && second.dependsOn.isEmpty)
    let report = try await h.copy.queue.drain()
    #expect(report.held == 1)
    #expect(report.undelivered == 1)
    #expect(try await h.write(second.id).waiting)
  }

  // MARK: "`discard(_:)` returns `false` … for a write that a waiting write depends on"

  @Test("a refused create whose only dependant was refused unsent is discarded and the dependant is never released")
  func aRefusedCreateWhoseOnlyDependantWasRefusedUnsentIsDiscardedAndTheDependantIsNeverReleased() async throws {
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
      items: [SeedItem(id: "n1", type: "note")], rules: [.once(.route("PATCH", "/items/n1"), .versionConflict)])
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
}
