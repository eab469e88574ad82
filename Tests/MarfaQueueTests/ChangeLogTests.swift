import CSQLite
import Foundation
import Testing

@testable import MarfaQueue

/// The change log the store keeps by triggers (StoreSchema.changeLog): which writes changed
/// after a mark, which left, and when the log cannot say (pruned, too many, an older store).
@Suite struct ChangeLogTests {
  @Test func theLogNamesTheWritesChangedAfterAMarkInSendOrderAndThoseThatLeft() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    var ids: [String] = []
    for i in 0..<4 {
      ids.append(try await copy.createItem(type: "note", properties: .object([("n", .int(i))])).id)
    }
    let start = try #require(try await copy.queue.changed(since: nil))
    #expect(start.writes.isEmpty && start.gone.isEmpty)
    // Nothing since the mark: nothing named, the mark stays.
    #expect(try await copy.queue.changed(since: start.mark) == ChangedWrites(writes: [], gone: [], mark: start.mark))

    try await copy.forceVerdict(ids[2], .accepted)
    try await copy.forceVerdict(ids[0], .blocked(reason: .keySpent, refusal: nil))
    try await copy.forceVerdict(ids[3], .accepted)
    let fifth = try await copy.createItem(type: "note", properties: .object([]))
    #expect(try await copy.queue.forgetAnswered(ids: [ids[3]]) == 1)

    let changed = try #require(try await copy.queue.changed(since: start.mark))
    // In send order, as the queue holds them now, without bodies; each once.
    #expect(changed.writes.map(\.id) == [ids[0], ids[2], fifth.id])
    #expect(changed.writes[0].verdict == .blocked(reason: .keySpent, refusal: nil))
    #expect(changed.writes[1].verdict == .accepted)
    #expect(changed.writes.allSatisfy { $0.body == .object([]) })
    #expect(changed.gone == [ids[3]])
    #expect(changed.mark > start.mark)
    // Read from the new mark: nothing more.
    let again = try #require(try await copy.queue.changed(since: changed.mark))
    #expect(again.writes.isEmpty && again.gone.isEmpty)
  }

  @Test func aMarkWhoseEntriesWerePrunedOrThatIsFromAnotherLogAsksForAWholeRead() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    _ = try await copy.createItem(type: "note", properties: .object([]))
    let start = try #require(try await copy.queue.changed(since: nil))
    // More entries than are kept: the prune drops those right after the mark.
    let count = StoreSchema.changeLogKept + StoreSchema.changeLogPruneEvery * 2
    try await copy.store.run { db in
      try db.transaction(durable: false) {
        try db.query(
          "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?) INSERT INTO change_log (id) SELECT 'x' FROM k",
          [.int(count)])
      }
    }
    let kept = try await copy.store.run { try $0.scalar("SELECT count(*) FROM change_log") ?? 0 }
    #expect(kept >= StoreSchema.changeLogKept && kept < StoreSchema.changeLogKept + StoreSchema.changeLogPruneEvery)
    #expect(try await copy.queue.changed(since: start.mark) == nil)
    // A mark past the newest entry does not come from this log.
    let now = try #require(try await copy.queue.changed(since: nil))
    #expect(now.mark == start.mark + count)
    #expect(try await copy.queue.changed(since: now.mark + 10) == nil)
    // From the newest mark, the log follows again.
    _ = try await copy.createItem(type: "note", properties: .object([]))
    #expect(try await copy.queue.changed(since: now.mark)?.writes.count == 1)
  }

  @Test func moreChangedWritesThanAWholeReadCostsAsksForAWholeRead() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    let start = try #require(try await copy.queue.changed(since: nil))
    try await copy.store.run { db in
      try db.transaction(durable: false) {
        try db.query(
          "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?) INSERT INTO change_log (id) SELECT 'w-' || i FROM k",
          [.int(SQLite.changedWritesLimit + 1)])
      }
    }
    #expect(try await copy.queue.changed(since: start.mark) == nil)
  }

  @Test("a backlog is read a page of entries at a time, and the pages name every changed write once")
  func aBacklogIsReadAPageAtATimeAndThePagesNameEveryChangedWriteOnce() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    let start = try #require(try await copy.queue.changed(since: nil))
    // 2,500 writes changed twice each, interleaved: 5,000 entries, read in pages of changedPage.
    let writes = 2_500
    try await copy.store.run { db in
      try db.transaction(durable: false) {
        try db.query(
          "WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < ?) INSERT INTO change_log (id) SELECT 'w-' || (i % ?) FROM k",
          [.int(2 * writes - 1), .int(writes)])
      }
    }
    var mark = start.mark
    var pages = 0
    var named: [String: Int] = [:]
    while true {
      let page = try #require(try await copy.queue.changed(since: mark))
      pages += 1
      #expect(page.gone.count <= SQLite.changedPage)
      #expect(page.mark == mark + min(SQLite.changedPage, start.mark + 2 * writes - mark))
      for id in page.gone { named[id, default: 0] += 1 }
      mark = page.mark
      if !page.more { break }
    }
    #expect(pages == 2 * writes / SQLite.changedPage)
    #expect(named.count == writes)
    // Each write changed once in each half of the backlog: it is named once in each.
    #expect(named.values.allSatisfy { $0 == 2 })
    #expect(mark == start.mark + 2 * writes)
    #expect(try await copy.queue.changed(since: mark) == ChangedWrites(writes: [], gone: [], mark: mark))
  }

  @Test("a reader catching up on a backlog keeps no page of it cached after each page")
  func aReaderCatchingUpOnABacklogKeepsNoPageOfItCachedAfterEachPage() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    // A watcher's own connection: the writer's pages are not in its cache.
    let reader = try await WorkingCopy.openReader(store: t.url)
    defer { reader.close() }
    let start = try #require(try await reader.queue.changed(since: nil))
    // 8,000 entries naming writes with long ids: about 150 pages of the file.
    try await copy.store.run { db in
      try db.transaction(durable: false) {
        try db.query(
          "WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 7999) INSERT INTO change_log (id) SELECT printf('write-%060d', i) FROM k"
        )
      }
    }
    func cached() async throws -> Int32 {
      try await reader.store.run { db in
        var used: Int32 = 0
        var highest: Int32 = 0
        sqlite3_db_status(db.db, SQLITE_DBSTATUS_CACHE_USED, &used, &highest, 0)
        return used
      }
    }
    let before = try await cached()
    var mark = start.mark
    var most: Int32 = 0
    var pages = 0
    while true {
      let page = try #require(try await reader.queue.changed(since: mark))
      pages += 1
      most = max(most, try await cached() - before)
      mark = page.mark
      if !page.more { break }
    }
    #expect(pages == 8_000 / SQLite.changedPage)
    // Kept, the pages read would add up to several hundred KB by the last page.
    #expect(most < 64 * 1024, "the cache grew by \(most) B while the backlog was read")
  }

  @Test func aStoreMadeBeforeTheLogWasKeptIsReadWholeThenGetsItFromItsWriter() async throws {
    let t = TestStore()
    do {
      let copy = try await t.open()
      _ = try await copy.createItem(type: "note", properties: .object([]))
      copy.close()
    }
    // As an earlier build made it: no log, no triggers.
    #expect(
      t.execute(
        "DROP TRIGGER queue_log_insert; DROP TRIGGER queue_log_update; DROP TRIGGER queue_log_delete; DROP TRIGGER change_log_prune; DROP TABLE change_log;"
      ))
    let reader = try await WorkingCopy.openReader(store: t.url)
    #expect(try await reader.queue.changed(since: nil) == nil)
    reader.close()
    let writer = try await t.open()
    defer { writer.close() }
    let start = try #require(try await writer.queue.changed(since: nil))
    let added = try await writer.createItem(type: "note", properties: .object([]))
    #expect(try await writer.queue.changed(since: start.mark)?.writes.map(\.id) == [added.id])
  }
}

/// What a writer changes in a store made by an earlier build, when it opens it.
@Suite struct StoreUpgradeTests {
  @Test func theOldVerdictIndexIsDroppedByTheWriterAndEveryReadStillAnswers() async throws {
    let t = TestStore()
    var ids: [String] = []
    do {
      let copy = try await t.open()
      for _ in 0..<3 { ids.append(try await copy.createItem(type: "note", properties: .object([])).id) }
      try await copy.forceVerdict(ids[1], .blocked(reason: .keySpent, refusal: nil))
      copy.close()
    }
    // As an earlier build made it: a second index by verdict.
    #expect(t.execute("CREATE INDEX queue_verdict ON queue (verdict, seq);"))
    let writer = try await t.open()
    defer { writer.close() }
    let indexes = try await writer.store.run { db in
      try db.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'queue'", []) { $0.text(0) ?? "" }
    }
    #expect(!indexes.contains("queue_verdict"))
    #expect(indexes.contains("queue_pane"))
    #expect(try await writer.queue.counts() == QueueCounts(waiting: 2, blocked: 1))
    #expect(try await writer.queue.page(.blocked, offset: 0, limit: 5).writes.map(\.id) == [ids[1]])
    #expect(try await writer.queue.release(reason: .keySpent) == 1)
    #expect(try await writer.queue.counts() == QueueCounts(waiting: 3))
  }
}

extension ChangeLogTests {
  @Test func aWriteThatLeftSaysWhyWithdrawnDiscardedOrForgotten() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    var ids: [String] = []
    for _ in 0..<3 { ids.append(try await copy.createItem(type: "note", properties: .object([])).id) }
    try await copy.forceVerdict(ids[0], .accepted)
    try await copy.forceVerdict(ids[1], .refused(Refusal(reason: "validation_failed", code: "validation_failed")))
    let start = try #require(try await copy.queue.changed(since: nil))
    #expect(try await copy.queue.forgetAnswered(ids: [ids[0]]) == 1)
    #expect(try await copy.queue.discard(ids[1]))
    // A withdraw asks the instance first; its store step is the one measured here.
    let third = ids[2]
    try await copy.store.run { db in try db.transaction(durable: true) { try db.deleteWrite(third, as: .withdrawn) } }
    let changed = try #require(try await copy.queue.changed(since: start.mark))
    #expect(changed.gone == ids.sorted())
    #expect(changed.departures == [ids[0]: .forgotten, ids[1]: .discarded, ids[2]: .withdrawn])
  }
}
