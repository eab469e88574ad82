import Foundation
import Testing

@testable import MarfaQueue

/// `undo`: a discarded, forgotten or taken write goes back exactly as it was; a withdrawn one,
/// or one something since makes wrong, is refused with its reason.
@Suite struct UndoTests {
  /// Every column of every queue row, in send order, as the archive keeps a row (exact text).
  func rows(_ copy: WorkingCopy) async throws -> [String] {
    try await copy.store.run { db in try db.ids("SELECT \(SQLite.archivedRow) FROM queue q ORDER BY q.seq") }
  }

  func deps(_ copy: WorkingCopy) async throws -> [String] {
    try await copy.store.run { db in try db.ids("SELECT id || '>' || on_id FROM queue_deps ORDER BY id, on_id") }
  }

  func note(_ copy: WorkingCopy, _ n: Int, id: String? = nil) async throws -> QueuedWrite {
    try await copy.createItem(type: "note", properties: .object([("n", .int(n))]), id: id)
  }

  @Test func undoOfADiscardPutsTheRefusedWriteBackExactlyWithTheWritesItsDiscardMarked() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let first = try await note(copy, 1)
    let refused = try await note(copy, 2, id: "i-refused")
    // Waits on the refused create, and was refused unsent behind it: a discard marks it gone.
    let behind = try await copy.updateItem(id: "i-refused", properties: .object([("n", .int(3))]), version: 0)
    let last = try await note(copy, 4)
    try await copy.forceVerdict(first.id, .accepted)
    try await copy.forceVerdict(refused.id, .refused(Refusal(reason: "validation_failed", code: "validation_failed")))
    try await copy.forceVerdict(
      behind.id, .refused(Refusal(reason: "the create it waits for was refused")), sent: false)
    let rowsBefore = try await rows(copy)
    let depsBefore = try await deps(copy)
    let countsBefore = try await copy.queue.counts()
    let allBefore = try await copy.queue.all()

    #expect(try await copy.queue.discard(refused.id))
    #expect(try await copy.queue.write(behind.id).dependencyGone)
    let kept = try #require(try await copy.queue.departedWrite(refused.id))
    #expect(kept.departure == .discarded)
    #expect(kept.write == allBefore[1])
    #expect(kept.pid == Int(ProcessInfo.processInfo.processIdentifier))

    guard case .restored = try await copy.queue.undo(refused.id) else {
      Issue.record("the discard was not undone")
      return
    }
    #expect(try await rows(copy) == rowsBefore)
    #expect(try await deps(copy) == depsBefore)
    #expect(try await copy.queue.counts() == countsBefore)
    #expect(try await copy.queue.all() == allBefore)
    #expect(try await copy.queue.all().map(\.id) == [first.id, refused.id, behind.id, last.id])
    #expect(try await copy.queue.departed().isEmpty)
  }

  @Test func undoOfAForgetPutsTheAnsweredWriteBackInItsPlace() async throws {
    let t = TestStore()
    let copy = try await t.open()
    var ids: [String] = []
    for i in 0..<5 {
      let w = try await note(copy, i)
      try await copy.forceVerdict(w.id, i == 2 ? .merged(fields: ["n"]) : .accepted)
      ids.append(w.id)
    }
    let rowsBefore = try await rows(copy)
    let countsBefore = try await copy.queue.counts()
    #expect(try await copy.queue.forgetAnswered(ids: [ids[2]]) == 1)
    #expect(try await copy.queue.counts().answered == 4)
    let departed = try await copy.queue.departed()
    #expect(departed.map(\.id) == [ids[2]])
    #expect(departed.first?.departure == .forgotten)
    guard case .restored = try await copy.queue.undo(ids[2]) else {
      Issue.record("the forget was not undone")
      return
    }
    #expect(try await rows(copy) == rowsBefore)
    #expect(try await copy.queue.counts() == countsBefore)
    #expect(try await copy.queue.all().map(\.id) == ids)
  }

  @Test func undoOfATakeAnsweredPutsEveryTakenWriteBackExactly() async throws {
    let t = TestStore()
    let copy = try await t.open()
    var ids: [String] = []
    for i in 0..<4 {
      let w = try await note(copy, i)
      if i != 1 { try await copy.forceVerdict(w.id, .accepted) }
      ids.append(w.id)
    }
    let rowsBefore = try await rows(copy)
    let countsBefore = try await copy.queue.counts()
    let taken = try await copy.queue.takeAnswered()
    #expect(taken.map(\.id) == [ids[0], ids[2], ids[3]])
    #expect(try await copy.queue.all().map(\.id) == [ids[1]])
    for w in taken.reversed() {
      guard case .restored = try await copy.queue.undo(w.id) else {
        Issue.record("\(w.id) was not put back")
        return
      }
    }
    #expect(try await rows(copy) == rowsBefore)
    #expect(try await copy.queue.counts() == countsBefore)
  }

  @Test func aWithdrawnWriteIsNotPutBackAndSaysWhyButStaysReadable() async throws {
    let h = try await DrainHarness()
    let w = try await h.note("kept", id: "i-w")
    try await h.copy.forceVerdict(w.id, .blocked(reason: .failingAlone, refusal: nil), sent: true)
    let before = try await h.write(w.id)
    #expect(try await h.copy.queue.withdraw(w.id))
    let kept = try #require(try await h.copy.queue.departedWrite(w.id))
    #expect(kept.departure == .withdrawn)
    #expect(kept.write == before)
    #expect(kept.write.body == before.body)
    guard case .refused(let obstacle) = try await h.copy.queue.undo(w.id) else {
      Issue.record("a withdrawn write was put back")
      return
    }
    #expect(obstacle == .withdrawn)
    #expect(obstacle.predicate.contains("withdrawn"))
    #expect(obstacle.predicate.contains("refused"))
    await #expect(throws: QueueError.notFound(id: w.id)) { _ = try await h.write(w.id) }
    #expect(try await h.copy.queue.departedWrite(w.id) != nil)
  }

  @Test func aWriteQueuedSinceOnTheSameRowRefusesTheUndo() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let create = try await note(copy, 1, id: "i-same")
    try await copy.forceVerdict(create.id, .accepted)
    #expect(try await copy.queue.forgetAnswered(ids: [create.id]) == 1)
    let since = try await copy.updateItem(id: "i-same", properties: .object([("n", .int(2))]), version: 0)
    let countsBefore = try await copy.queue.counts()
    guard case .refused(let obstacle) = try await copy.queue.undo(create.id) else {
      Issue.record("put back in front of a write queued since on its row")
      return
    }
    #expect(obstacle == .queuedSince(id: since.id))
    #expect(try await copy.queue.counts() == countsBefore)
    #expect(try await copy.queue.departedWrite(create.id) != nil)
  }

  @Test func aWriteThatCouldStillGoIsNotPutBackWhenWhatItWaitsOnLeftSince() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let create = try await note(copy, 1, id: "i-dep")
    let update = try await copy.updateItem(id: "i-dep", properties: .object([("n", .int(2))]), version: 0)
    try await copy.forceVerdict(create.id, .refused(Refusal(reason: "validation_failed")))
    // Refused unsent behind the create: a release could still send it.
    try await copy.forceVerdict(
      update.id, .refused(Refusal(reason: "the create it waits for was refused")), sent: false)
    #expect(try await copy.queue.write(update.id).allows(.release).isAllowed)
    #expect(try await copy.queue.discard(update.id))
    #expect(try await copy.queue.discard(create.id))
    guard case .refused(let obstacle) = try await copy.queue.undo(update.id) else {
      Issue.record("put back waiting on a write that left since")
      return
    }
    #expect(obstacle == .dependencyLeft(id: create.id))
    // Put back in the order they left, both go back.
    guard case .restored = try await copy.queue.undo(create.id) else {
      Issue.record("the create was not put back")
      return
    }
    guard case .restored = try await copy.queue.undo(update.id) else {
      Issue.record("the update was not put back once the create was")
      return
    }
    #expect(try await copy.queue.all().map(\.id) == [create.id, update.id])
  }

  @Test func aWriteInTheQueueAndAnIdNeverKeptAreRefused() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let w = try await note(copy, 1)
    try await copy.forceVerdict(w.id, .accepted)
    #expect(try await copy.queue.forgetAnswered(ids: [w.id]) == 1)
    guard case .restored = try await copy.queue.undo(w.id) else {
      Issue.record("not put back")
      return
    }
    await #expect(throws: QueueError.notFound(id: w.id)) { _ = try await copy.queue.undo(w.id) }
    await #expect(throws: QueueError.notFound(id: "never")) { _ = try await copy.queue.undo("never") }
  }

  @Test func aReaderCannotUndo() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let w = try await note(copy, 1)
    try await copy.forceVerdict(w.id, .accepted)
    _ = try await copy.queue.forgetAnswered(ids: [w.id])
    let reader = try await WorkingCopy.openReader(store: t.url)
    defer { reader.close() }
    #expect(try await reader.queue.departed().map(\.id) == [w.id])
    await #expect(throws: QueueError.self) { _ = try await reader.queue.undo(w.id) }
    copy.close()
  }
}
