import Testing

@testable import MarfaQueue

/// The queue's CHECKs hold every kind and verdict to the names the queue knows, and cost the
/// statements that write them no temporary table (an `IN` list of constants builds one each
/// time the statement runs).
@Suite struct StoreCheckTests {
  @Test func aKindOrVerdictTheQueueDoesNotKnowIsRefusedByTheStore() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    let w = try await copy.createItem(type: "note", properties: .object([]))
    let refused = try await copy.store.run { db -> [Bool] in
      var out: [Bool] = []
      for sql in [
        "UPDATE queue SET verdict = 'accepted ' WHERE id = ?", "UPDATE queue SET verdict = 'ACCEPTED' WHERE id = ?",
        "UPDATE queue SET kind = 'create_items' WHERE id = ?", "UPDATE queue SET kind = '' WHERE id = ?",
      ] {
        out.append((try? db.query(sql, [.text(w.id)])) == nil)
      }
      // Every name the queue knows is taken, and no verdict at all.
      for v in VerdictName.allCases {
        try db.query("UPDATE queue SET verdict = ? WHERE id = ?", [.text(v.rawValue), .text(w.id)])
      }
      try db.query("UPDATE queue SET verdict = NULL WHERE id = ?", [.text(w.id)])
      for k in WriteKind.allCases {
        try db.query("UPDATE queue SET kind = ? WHERE id = ?", [.text(k.rawValue), .text(w.id)])
      }
      return out
    }
    #expect(refused == [true, true, true, true])
  }

  @Test func storingAVerdictOrQueueingAWriteBuildsNoTemporaryTable() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    let opcodes = try await copy.store.run { db -> [String: [String]] in
      func program(_ sql: String) throws -> [String] { try db.rows("EXPLAIN " + sql) { $0.text(1) ?? "" } }
      return [
        "verdict": try program(SQLite.verdictSQL),
        "verdict clearing the failure": try program(SQLite.verdictClearingFailureSQL),
        "the write ahead of a queued one": try program(
          "SELECT id FROM queue WHERE item_id = 'x' AND \(SQLite.outstanding(orRefused: true)) ORDER BY seq DESC LIMIT 1"
        ),
        "queueing": try program(
          "INSERT INTO queue (id, kind, idempotency_key, payload, queued_at) VALUES ('a', 'create_item', 'k', '{}', 'now')"
        ),
      ]
    }
    for (statement, program) in opcodes {
      let opensATemporaryTable = program.contains("OpenEphemeral")
      #expect(!program.isEmpty)
      #expect(!opensATemporaryTable, "\(statement) opens a temporary table")
    }
  }
}
