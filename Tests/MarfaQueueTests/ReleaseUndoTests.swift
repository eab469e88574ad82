import Foundation
import ScriptedInstance
import Testing

@testable import MarfaQueue

/// A release can be taken back right after: each write it put back laid back exactly as it was
/// (verdict, reason, refusals, key), while nothing was sent since (docs/rules.md, "Undo").
@Suite struct ReleaseUndoTests {
  @Test func undoingAReleaseLaysTheWriteBackExactlyAsItWasBlocked() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-422"), .keyReused)])
    let w = try await h.note(id: "w-422")
    _ = try await h.copy.queue.drain()
    let blocked = try await h.write(w.id)
    #expect(blocked.verdict?.blockedReason == .keySpent)
    #expect(try await h.copy.queue.release(w.id))
    let released = try await h.write(w.id)
    #expect(released.verdict == nil && released.idempotencyKey != blocked.idempotencyKey)
    let batch = try #require(try await h.copy.queue.lastRelease())
    #expect(batch.ids == [w.id])
    let undo = try await h.copy.queue.undoRelease(batch.number)
    #expect(undo.restored == [w.id] && undo.changedSince.isEmpty)
    let back = try await h.write(w.id)
    #expect(back == blocked, "the write is as it was before the release, its key too")
    #expect(try await h.copy.queue.lastRelease() == nil, "an undone release is not offered again")
    // Blocked again, a drain passes it over as before.
    _ = try await h.copy.queue.drain()
    #expect(h.requests("POST", "/items").count == 1)
  }

  @Test func aWriteSentSinceTheReleaseIsLeftAsItIsAndNamed() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-a"), .keyReused), .once(.write("w-b"), .keyReused)])
    let a = try await h.note(id: "w-a")
    let b = try await h.note(id: "w-b")
    _ = try await h.copy.queue.drain()
    #expect(try await h.copy.queue.release(reason: .keySpent) == 2)
    let batch = try #require(try await h.copy.queue.lastRelease())
    #expect(batch.ids == [a.id, b.id], "a release by reason is one batch, in send order")
    _ = try await h.copy.queue.drain()
    #expect(try await h.write(a.id).verdict == .accepted)
    let undo = try await h.copy.queue.undoRelease(batch.number)
    #expect(undo.restored.isEmpty && undo.changedSince == [a.id, b.id])
    #expect(try await h.write(a.id).verdict == .accepted, "an answered write is never laid back")
  }

  @Test func aReleaseOfSeveralIdsIsOneBatchAndOnlyTheLastBatchesAreKept() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-a"), .keyReused), .once(.write("w-b"), .keyReused)])
    let a = try await h.note(id: "w-a")
    let b = try await h.note(id: "w-b")
    _ = try await h.copy.queue.drain()
    let outcomes = try await h.copy.queue.release(ids: [a.id, b.id])
    let allReleased = outcomes.allSatisfy { $0.result.isReleased }
    #expect(allReleased)
    let batch = try #require(try await h.copy.queue.lastRelease())
    #expect(Set(batch.ids) == [a.id, b.id])
    #expect(try await h.copy.queue.undoRelease(batch.number).restored.count == 2)
    #expect(try await h.write(a.id).verdict?.blockedReason == .keySpent)
    // Many releases later, the store keeps only the last batches.
    let kept = try await h.copy.queue.store.run { db -> Int in
      for _ in 0..<(StoreSchema.releasesKept + 4) {
        let next = try #require(try db.nextReleaseBatch())
        try db.keepBeforeRelease(a.id, batch: next, key: "k", nowMs: 0)
      }
      return try db.scalar("SELECT count(DISTINCT batch) FROM releases") ?? 0
    }
    #expect(kept == StoreSchema.releasesKept)
  }
}
