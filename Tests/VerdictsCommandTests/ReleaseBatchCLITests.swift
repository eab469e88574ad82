import Foundation
import TestSupport
import Testing

@testable import MarfaQueue

/// `verdicts release ID ID …`: every ID resolved first, then one batch (one transaction), with
/// what became of each write said.
@Suite struct ReleaseBatchCLITests {
  /// A store holding a blocked, a dead and an accepted write; their ids in that order.
  static func store(_ folder: TempFolder) async throws -> [String] {
    let copy = try await WorkingCopy.open(store: URL(fileURLWithPath: folder.store), server: nil)
    defer { copy.close() }
    var ids: [String] = []
    for verdict in [Verdict.blocked(reason: .keySpent), .dead, .accepted] {
      let w = try await copy.createItem(type: "note", properties: .object([("title", .string("a"))]))
      try await copy.store.run { db in
        try db.transaction(durable: true) {
          try db.recordVerdict(id: w.id, verdict: verdict, sent: true, answer: nil, now: "2026-12-01T00:00:00.000Z")
        }
      }
      ids.append(w.id)
    }
    return ids
  }

  @Test func severalIDsAreReleasedTogetherAndEachRefusalIsNamed() async throws {
    let folder = TempFolder()
    let ids = try await Self.store(folder)
    let r = await runInProcess(["release"] + ids, store: folder.store)
    #expect(r.code == 0, "\(r)")
    #expect(
      r.stdout
        == "not released: \(ids[2]) is accepted; only a blocked or dead write, or one the drain refused unsent, goes again\n"
        + "released 2 write(s); the next drain sends them under fresh keys\n", "\(r)")
    let queue = await runInProcess(["--json", "queue", "--pane", "waiting"], store: folder.store)
    #expect(Set(queue.json?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []) == [ids[0], ids[1]], "\(queue)")
  }

  @Test func anUnknownIDAmongSeveralReleasesNone() async throws {
    let folder = TempFolder()
    let ids = try await Self.store(folder)
    let r = await runInProcess(["release", ids[0], "no-such-write"], store: folder.store)
    #expect(r.code == 4, "\(r)")
    let blocked = await runInProcess(["--json", "queue", "--pane", "blocked"], store: folder.store)
    #expect(blocked.json?.arrayValue?.count == 1, "\(blocked)")
  }
}
