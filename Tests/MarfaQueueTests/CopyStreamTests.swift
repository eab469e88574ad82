import Foundation
import ScriptedInstance
import TestSupport
import Testing

@testable import MarfaQueue

/// What a working copy's streams tell: a held `updates()` sequence drains again after a drain
/// left a write undelivered, and each call that clears a write tells `.refreshed(.forgotten)`
/// (the seed page's sentences, each test naming its own).
@Suite struct CopyStreamTests {
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

  // MARK: "A held `updates()` sequence drains … again after a drain left a write undelivered"

  @Test func heldUpdatesDrainAgainAfterADrainLeftAWriteUndelivered() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-again"), .serverFault)])
    let w = try await h.note(id: "w-again")
    var updates = h.copy.updates().makeAsyncIterator()
    var reports: [DrainReport] = []
    // Each look waits for the next update; the stream's end ends the wait too.
    await eventually(within: .seconds(20), every: .zero) {
      guard let u = await updates.next() else { return true }
      if case .drained(let r) = u { reports.append(r) }
      return reports.last?.answered == 1
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
      items: [SeedItem(id: "n1", type: "note")], rules: [.once(.route("PATCH", "/items/n1"), .versionConflict)])
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
