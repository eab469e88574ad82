import Foundation
import ScriptedInstance
import Testing

@testable import MarfaQueue

/// A store whose queue holds a kind this build does not know (a hostile or
/// newer store): the write is read as unreadable, never as another kind, and a drain refuses it
/// unsent.
@Suite struct UnknownKindTests {
  /// Sets the kind of write `id` in the store file to `sql` (`'bogus_kind'`, `NULL`), past the
  /// table's CHECK and NOT NULL as a hostile program would.
  static func plant(_ sql: String, on id: String, in store: TestStore) {
    if sql == "NULL" {
      let rewrote = store.execute(
        """
        PRAGMA writable_schema = ON;
        UPDATE sqlite_schema SET sql = replace(sql, 'kind TEXT NOT NULL CHECK', 'kind TEXT CHECK')
          WHERE type = 'table' AND name = 'queue';
        PRAGMA writable_schema = OFF;
        """)
      #expect(rewrote, "the schema could not be rewritten")
    }
    #expect(store.execute("PRAGMA ignore_check_constraints = ON; UPDATE queue SET kind = \(sql) WHERE id = '\(id)'"))
  }

  @Test(arguments: [("'bogus_kind'", "bogus_kind"), ("NULL", "")])
  func aStoredKindThisBuildDoesNotKnowIsReadAsUnreadableAndRefusedUnsent(_ sql: String, _ stored: String)
    async throws
  {
    let h = try await DrainHarness()
    let odd = try await h.note(id: "w-odd")
    let fine = try await h.note(id: "w-fine")
    h.copy.close()
    Self.plant(sql, on: odd.id, in: h.store)
    h.copy = try await WorkingCopy.open(
      store: h.store.url, server: Server(url: h.url.absoluteString, key: "k1", timeout: 2))

    let read = try await h.write(odd.id)
    #expect(read.unknownKind == stored)
    #expect(read.kindName == (stored.isEmpty ? "unreadable" : "unreadable:bogus_kind"))
    #expect(read.kindWords == (stored.isEmpty ? "unreadable kind (none stored)" : "unreadable kind 'bogus_kind'"))
    #expect(read.wireJSON["kind"] == (stored.isEmpty ? .null : .string(stored)))
    #expect(read.wireJSON["kind_unreadable"] == .bool(true))
    #expect(try await h.write(fine.id).wireJSON["kind_unreadable"] == nil)
    // Filtering by kind never takes it for a create.
    #expect(WriteFilter("kind:create_item")?.matches(read) == false)

    let report = try await h.copy.queue.drain()
    #expect(report.unsent == 1 && report.answered == 1, "\(report)")
    let entry = try #require(report.verdicts.first { $0.id == odd.id })
    #expect(entry.kindName == read.kindName)
    #expect(entry.wireJSON["kind_unreadable"] == .bool(true))
    let after = try await h.write(odd.id)
    guard case .refused(let refusal) = after.verdict else {
      Issue.record("not refused: \(String(describing: after.verdict))")
      return
    }
    #expect(refusal.reason.contains("which this build does not know, so it was not sent"), "\(refusal.reason)")
    #expect(after.sent == false)
    #expect(try await h.write(fine.id).verdict == .accepted)
    // Nothing went out for it, as a create or anything else.
    #expect(h.instance.requests.filter { $0.bodyText.contains("w-odd") || $0.path.contains("w-odd") }.isEmpty)
  }
}
