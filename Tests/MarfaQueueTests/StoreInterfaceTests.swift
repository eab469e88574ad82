import CSQLite
import Foundation
import Testing

@testable import MarfaQueue

/// The store's one interface for SQL: every table read by column name through its codec, the batch
/// release in one transaction with a result per write, the bulk insert the bench fills with.
@Suite struct StoreInterfaceTests {
  func note(_ copy: WorkingCopy, _ title: String = "a") async throws -> QueuedWrite {
    try await copy.createItem(type: "note", properties: .object([("title", .string(title))]))
  }

  @Test func everyCodecColumnIsAColumnOfItsTable() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let found = try await copy.store.run { db -> [String: Set<String>] in
      var out: [String: Set<String>] = [:]
      for table in [
        "queue", "meta", "rows", "read_backs", "change_log", "pane_counts", "queue_deps", "departures", "archive",
      ] {
        out[table] = Set(
          try db.rows("SELECT name FROM pragma_table_xinfo('\(table)')", reading: SchemaColumn.self) {
            $0.text(.name) ?? ""
          })
      }
      return out
    }
    func check<C: SQLColumn>(_: C.Type) {
      let missing = C.allCases.map(\.name).filter { !(found[C.table] ?? []).contains($0) }
      #expect(missing.isEmpty, "\(C.table) has no \(missing)")
    }
    check(QueueColumn.self)
    check(MetaColumn.self)
    check(CopyRowColumn.self)
    check(ReadBackColumn.self)
    check(ChangeLogColumn.self)
    check(PaneCountColumn.self)
    check(QueueDepColumn.self)
    check(DepartureColumn.self)
    check(ArchiveColumn.self)
  }

  @Test func aWriteReadsTheSameWhateverOrderItsColumnsAreSelectedIn() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let w = try await note(copy, "ordered")
    try await copy.forceVerdict(w.id, .merged(fields: ["title"]))
    let (forward, backward) = try await copy.store.run { db -> (QueuedWrite?, QueuedWrite?) in
      let reversed = QueueColumn.list(QueueCodec.read.reversed())
      return (
        try db.write(id: w.id), try db.writes("SELECT \(reversed) FROM queue WHERE id = ?", [.text(w.id)]).first
      )
    }
    #expect(forward != nil)
    #expect(forward == backward)
    #expect(backward?.verdict == .merged(fields: ["title"]))
  }

  @Test func aColumnTheStatementDoesNotSelectReadsAsNull() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let w = try await note(copy)
    let read = try await copy.store.run { db in
      try db.rows("SELECT id FROM queue WHERE id = ?", [.text(w.id)], reading: QueueColumn.self) {
        ($0.text(.id), $0.text(.payload), $0.int(.seq))
      }.first
    }
    #expect(read?.0 == w.id)
    #expect(read?.1 == nil)
    #expect(read?.2 == nil)
  }

  @Test func releaseOfSeveralWritesCommitsOnceAndSaysWhatBecameOfEach() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let blocked = try await note(copy, "blocked")
    let dead = try await note(copy, "dead")
    let accepted = try await note(copy, "accepted")
    try await copy.forceVerdict(blocked.id, .blocked(reason: .keySpent))
    try await copy.forceVerdict(dead.id, .dead)
    try await copy.forceVerdict(accepted.id, .accepted)
    let before = try await copy.store.run { $0.commits }
    let outcomes = try await copy.queue.release(ids: [blocked.id, accepted.id, "no-such-write", dead.id])
    let after = try await copy.store.run { $0.commits }
    #expect(after - before == 1)
    #expect(outcomes.map(\.id) == [blocked.id, accepted.id, "no-such-write", dead.id])
    #expect(outcomes[0].result == .released(count: 1))
    #expect(outcomes[1].result == .notAllowed(.notFor(.release, state: "accepted")))
    #expect(outcomes[2].result == .notFound)
    #expect(outcomes[3].result == .released(count: 1))
    #expect(try await copy.queue.write(blocked.id).verdict == nil)
    #expect(try await copy.queue.write(dead.id).verdict == nil)
    #expect(try await copy.queue.write(blocked.id).idempotencyKey != blocked.idempotencyKey)
    #expect(try await copy.queue.write(accepted.id).verdict == .accepted)
  }

  @Test func aBatchReleaseThatFailsPartWayReleasesNone() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let first = try await note(copy, "first")
    let second = try await note(copy, "second")
    try await copy.forceVerdict(first.id, .blocked(reason: .keySpent))
    try await copy.forceVerdict(second.id, .blocked(reason: .keySpent))
    // The second write's update fails inside the transaction, after the first was released.
    try await copy.store.run { db in
      try db.execute(
        """
        CREATE TRIGGER refuse_second BEFORE UPDATE OF verdict ON queue WHEN OLD.id = '\(second.id)'
        BEGIN SELECT RAISE(ABORT, 'refused for the test'); END;
        """)
    }
    await #expect(throws: (any Error).self) { try await copy.queue.release(ids: [first.id, second.id]) }
    #expect(try await copy.queue.write(first.id).verdict == .blocked(reason: .keySpent))
    #expect(try await copy.queue.write(first.id).idempotencyKey == first.idempotencyKey)
    #expect(try await copy.queue.write(second.id).verdict == .blocked(reason: .keySpent))
  }

  @Test func bulkInsertFillsTheQueueThroughTheStoresOwnSchema() async throws {
    let t = TestStore()
    let copy = try await t.open()
    copy.close()
    let bulk = try StoreBulkInsert(path: t.url.path)
    try bulk.setMeta(.instanceId, "inst-bulk")
    var waiting = BulkWrite(
      id: "w-1", kind: .createItem, idempotencyKey: "k-1", payload: #"{"type":"note"}"#,
      queuedAt: "2026-01-01T00:00:00.000Z")
    waiting.itemId = "item-1"
    var blocked = BulkWrite(
      id: "w-2", kind: .updateItem, idempotencyKey: "k-2", payload: "{}", queuedAt: "2026-01-01T00:00:01.000Z")
    blocked.verdict = "blocked"
    blocked.reason = BlockedReason.keySpent.rawValue
    blocked.sent = true
    try bulk.insert(waiting)
    try bulk.insert(blocked)
    try bulk.finish()
    let reopened = try await t.open()
    let counts = try await reopened.queue.counts()
    #expect(counts.waiting == 1)
    #expect(counts.blocked == 1)
    let w = try await reopened.queue.write("w-2")
    #expect(w.verdict == .blocked(reason: .keySpent))
    #expect(w.sent)
    #expect(try await reopened.queue.write("w-1").itemId == "item-1")
    #expect(try await reopened.status().instanceId == "inst-bulk")
  }
}
