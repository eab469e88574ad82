import Foundation
import Testing

@testable import MarfaQueue

/// The pane counts the store keeps by triggers (StoreSchema.paneCounts) against a count of the
/// queue itself, through queueing, verdicts, releases, forgetting; a store made before they
/// were kept gets them when a writer opens it; a reader hears another connection's commit.
@Suite struct PaneCountTests {
  func counted(_ copy: WorkingCopy) async throws -> QueueCounts {
    try await copy.store.run { db in
      var c = QueueCounts()
      try db.query("SELECT pane, count(*) FROM queue GROUP BY pane") { r in
        let n = r.int(1) ?? 0
        switch r.int(0) {
        case 0: c.waiting = n
        case 1: c.answered = n
        case 2: c.blocked = n
        default: c.dead = n
        }
      }
      return c
    }
  }

  @Test func keptCountsFollowEveryChangeOfPane() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    #expect(try await copy.store.run { try $0.hasPaneCounts() })
    var ids: [String] = []
    for i in 0..<12 {
      ids.append(try await copy.createItem(type: "note", properties: .object([("n", .int(i))])).id)
    }
    #expect(try await copy.queue.counts() == QueueCounts(waiting: 12))
    try await copy.forceVerdict(ids[0], .accepted)
    try await copy.forceVerdict(ids[1], .merged(fields: ["title"]))
    try await copy.forceVerdict(ids[2], .refused(Refusal(reason: "validation_failed")))
    try await copy.forceVerdict(ids[3], .blocked(reason: .failingAlone, refusal: nil))
    try await copy.forceVerdict(ids[4], .blocked(reason: .keySpent, refusal: nil))
    try await copy.forceVerdict(ids[5], .dead)
    // Within a pane: no change of count.
    try await copy.forceVerdict(ids[1], .accepted)
    let expected = QueueCounts(waiting: 6, answered: 3, blocked: 2, dead: 1)
    #expect(try await copy.queue.counts() == expected)
    #expect(try await counted(copy) == expected)
    #expect(try await copy.queue.release(ids[3]))
    _ = try await copy.queue.forgetAnswered()
    let after = try await counted(copy)
    #expect(try await copy.queue.counts() == after)
    #expect(after.waiting == 7 && after.blocked == 1)
    for pane in QueuePane.allCases {
      #expect(try await copy.queue.page(pane, offset: 0, limit: 5).total == after[pane])
    }
    // A filter still counts what it matches.
    #expect(try await copy.queue.page(.answered, offset: 0, limit: 5, filter: "no such text").total == 0)
  }

  @Test func aStoreMadeBeforeCountsWereKeptIsReadThenUpgradedByItsWriter() async throws {
    let t = TestStore()
    do {
      let copy = try await t.open()
      let a = try await copy.createItem(type: "note", properties: .object([]))
      _ = try await copy.createItem(type: "note", properties: .object([]))
      try await copy.forceVerdict(a.id, .dead)
      copy.close()
    }
    // As an earlier build made it: no table, no triggers.
    #expect(
      t.execute(
        "DROP TRIGGER queue_count_insert; DROP TRIGGER queue_count_delete; DROP TRIGGER queue_count_update; DROP TABLE pane_counts;"
      ))
    let reader = try await WorkingCopy.openReader(store: t.url)
    #expect(!(try await reader.store.run { try $0.hasPaneCounts() }))
    #expect(try await reader.queue.counts() == QueueCounts(waiting: 1, dead: 1))
    #expect(try await reader.queue.page(.dead, offset: 0, limit: 5).total == 1)
    reader.close()
    let writer = try await t.open()
    defer { writer.close() }
    #expect(try await writer.store.run { try $0.hasPaneCounts() })
    #expect(try await writer.queue.counts() == QueueCounts(waiting: 1, dead: 1))
    _ = try await writer.createItem(type: "note", properties: .object([]))
    #expect(try await writer.queue.counts() == QueueCounts(waiting: 2, dead: 1))
  }

  @Test func aReaderHearsAnotherConnectionsCommitWithoutWaitingForItsTimer() async throws {
    let t = TestStore()
    let writer = try await t.open()
    defer { writer.close() }
    _ = try await writer.createItem(type: "note", properties: .object([]))
    let watch = try #require(SaveWatch(storePath: t.url.path))
    // Nothing written: the wait times out.
    #expect((await watch.wait(timeoutMs: 50)).isEmpty)
    // Heard, not timed out: a timed-out wait is empty. The bound is far below the timeout and
    // far above what a loaded two-core machine's pool has been seen to add (2 s).
    async let woke = watch.wait(timeoutMs: 120_000)
    // A fixed pause: the watch does not say when its wait is under way (a write before it also wakes it).
    try await Task.sleep(nanoseconds: 50_000_000)
    let start = Date()
    _ = try await writer.createItem(type: "note", properties: .object([]))
    #expect((await woke).contains(.written))
    #expect(Date().timeIntervalSince(start) < 60)
    // And the reader's change stream carries it.
    let reader = try await WorkingCopy.openReader(store: t.url)
    defer { reader.close() }
    var changes = reader.changes().makeAsyncIterator()
    _ = try await writer.createItem(type: "note", properties: .object([]))
    let change = await changes.next()
    #expect(change?.touchesQueue == true)
  }
}

@Suite struct PagingTests {
  @Test func everyPageReadsTheSameWritesForwardsAndFromTheEnd() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    var ids: [String] = []
    for i in 0..<23 {
      ids.append(try await copy.createItem(type: "note", properties: .object([("n", .int(i))])).id)
    }
    // Some leave the pane, so its indexes are not the seqs.
    for i in [2, 5, 11, 17] { try await copy.forceVerdict(ids[i], .accepted) }
    let waiting = ids.enumerated().filter { ![2, 5, 11, 17].contains($0.offset) }.map(\.element)
    for limit in [1, 4, 7, 19, 40] {
      for offset in 0..<(waiting.count + 2) {
        let page = try await copy.queue.page(.waiting, offset: offset, limit: limit)
        let start = min(offset, waiting.count - 1)
        #expect(page.offset == start)
        #expect(page.total == waiting.count)
        #expect(
          page.writes.map(\.id) == Array(waiting[start..<min(waiting.count, start + limit)]),
          "offset \(offset) limit \(limit)")
      }
    }
    let filtered = try await copy.queue.page(.waiting, offset: 15, limit: 3, filter: "create")
    #expect(filtered.writes.map(\.id) == Array(waiting[15..<18]))
  }

  @Test func summariesGoThroughAPaneBySendOrderWithoutBodiesOrAnswers() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    for i in 0..<9 {
      _ = try await copy.createItem(type: "note", properties: .object([("n", .int(i))]))
    }
    let all = try await copy.queue.page(.waiting, offset: 0, limit: 100).writes
    try await copy.forceVerdict(all[4].id, .accepted)
    let expected = all.filter { $0.id != all[4].id }
    var seen: [QueuedWrite] = []
    var cursor = 0
    while true {
      let batch = try await copy.queue.summaries(.waiting, cursor: cursor, limit: 3)
      seen += batch.writes
      if batch.writes.count < 3 { break }
      cursor = batch.next
    }
    #expect(seen.map(\.id) == expected.map(\.id))
    for (s, w) in zip(seen, expected) {
      #expect(s.body == .object([]))
      #expect(s.answer == nil)
      var same = w
      same.body = .object([])
      #expect(s == same)
    }
    #expect(try await copy.queue.summaries(.answered, cursor: 0, limit: 3).writes.map(\.id) == [all[4].id])
  }
}
