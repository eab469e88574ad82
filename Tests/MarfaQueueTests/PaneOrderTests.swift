import Foundation
import Testing

@testable import MarfaQueue

/// Pages and positions under each ``PaneOrder``, read from a real store.
@Suite struct PaneOrderTests {
  static let kinds: [WriteKind] = [.updateItem, .addTag, .createItem, .deleteItem, .mergeMetadata]
  static let reasons: [BlockedReason] = [.keySpent, .credentialRefused, .instanceChanged, .keySpent, .failingAlone]

  /// 30 writes: 12 waiting (streaks 0–3), 9 answered (three verdicts, answered out of send
  /// order), 9 blocked (four reasons, streaks); kinds mixed in every pane.
  static func filled() async throws -> (TestStore, WorkingCopy, [String]) {
    let t = TestStore()
    let copy = try await t.open()
    var ids: [String] = []
    for i in 0..<30 { ids.append(try await copy.createItem(type: "note", properties: .object([("n", .int(i))])).id) }
    for (i, id) in ids.enumerated() {
      let kind = kinds[(i * 7) % kinds.count].rawValue
      // Answered late for early writes: age differs from send order.
      let minute = String(format: "%02d", 59 - (i * 13) % 60)
      let sql = """
        UPDATE queue SET kind = '\(kind)', environmental_streak = \((i * 5) % 4),
          queued_at = '2026-01-01T00:00:\(String(format: "%02d", i)).000Z' WHERE id = '\(id)';
        """
      try await copy.store.run { db in try db.execute(sql) }
      switch i % 10 {
      case 0, 3, 6:
        let verdicts: [Verdict] = [.accepted, .merged(fields: ["title"]), .refused(Refusal(reason: "not_found"))]
        try await copy.forceVerdict(id, verdicts[i % 3])
      case 1, 4, 7:
        try await copy.forceVerdict(id, .blocked(reason: reasons[i % reasons.count], refusal: nil))
      default: break
      }
      if i % 10 == 0 || i % 10 == 1 || i % 10 == 3 || i % 10 == 4 || i % 10 == 6 || i % 10 == 7 {
        let at = "UPDATE queue SET answered_at = '2026-01-01T01:\(minute):00.000Z' WHERE id = '\(id)'"
        try await copy.store.run { db in try db.execute(at) }
      }
    }
    return (t, copy, ids)
  }

  /// Every write of a pane, in send order, under an optional filter.
  static func sendOrder(_ copy: WorkingCopy, _ pane: QueuePane, filter: String? = nil) async throws -> [QueuedWrite] {
    try await copy.queue.page(pane, offset: 0, limit: 1_000, filter: filter).writes
  }

  @Test func everyOrderPagesAtTheStartTheMiddleAndTheEndAsItsRuleSays() async throws {
    let (t, copy, _) = try await Self.filled()
    defer { copy.close() }
    _ = t
    for pane in [QueuePane.waiting, .answered, .blocked] {
      let all = try await Self.sendOrder(copy, pane)
      #expect(all.count >= 9)
      for order in PaneOrder.allCases {
        let expected = order.sorted(all).map(\.id)
        for limit in [1, 3, 5] {
          // Offsets at the start, the middle, past the middle (read from the end) and the end.
          for offset in 0..<all.count {
            let page = try await copy.queue.page(pane, offset: offset, limit: limit, order: order)
            #expect(page.total == all.count)
            #expect(
              page.writes.map(\.id) == Array(expected[offset..<min(all.count, offset + limit)]),
              "\(pane) \(order) offset \(offset) limit \(limit)")
          }
        }
      }
    }
  }

  @Test func eachOrderFollowsItsOwnKeyThenSendOrder() async throws {
    let (t, copy, _) = try await Self.filled()
    defer { copy.close() }
    _ = t
    func read(_ pane: QueuePane, _ order: PaneOrder) async throws -> [QueuedWrite] {
      try await copy.queue.page(pane, offset: 0, limit: 100, order: order).writes
    }
    let sent = try await read(.blocked, .sendOrder)
    #expect(try await read(.blocked, .newestFirst).map(\.id) == sent.reversed().map(\.id))
    // Reason: grouped by reason name, each group in send order.
    let byReason = try await read(.blocked, .reason)
    let names = byReason.map { $0.verdict?.blockedReason?.rawValue ?? "" }
    #expect(names == names.sorted())
    for name in Set(names) {
      #expect(
        byReason.filter { $0.verdict?.blockedReason?.rawValue == name }.map(\.id)
          == sent.filter { $0.verdict?.blockedReason?.rawValue == name }.map(\.id))
    }
    // Streak: the longest first.
    let streaks = try await read(.waiting, .streak).map(\.environmentalStreak)
    #expect(streaks == streaks.sorted(by: >))
    #expect(streaks.first == 3)
    // Age: the longest answered first; Waiting by when it was queued (its send order).
    let answered = try await read(.answered, .age).map { $0.answeredAt ?? "" }
    #expect(answered == answered.sorted())
    #expect(try await read(.waiting, .age).map(\.id) == (try await read(.waiting, .sendOrder)).map(\.id))
    // Reason in a pane without reasons: by verdict name.
    let verdicts = try await read(.answered, .reason).map { $0.verdict?.name.rawValue ?? "" }
    #expect(verdicts == verdicts.sorted())
    #expect(Set(verdicts) == ["accepted", "merged", "refused"])
    // Kind: by the kind's name.
    let kinds = try await read(.waiting, .kind).map(\.kind.rawValue)
    #expect(kinds == kinds.sorted())
  }

  @Test func aWritesPositionIsItsIndexUnderThePanesOrderAndFilter() async throws {
    let (t, copy, _) = try await Self.filled()
    defer { copy.close() }
    _ = t
    for filter in [nil, "kind:update_item", "-kind:add_tag"] as [String?] {
      for pane in [QueuePane.waiting, .answered, .blocked] {
        let all = try await Self.sendOrder(copy, pane, filter: filter)
        for order in PaneOrder.allCases {
          let expected = order.sorted(all)
          let paged = try await copy.queue.page(pane, offset: 0, limit: 100, filter: filter, order: order)
          #expect(paged.writes.map(\.id) == expected.map(\.id), "\(pane) \(order) \(filter ?? "-")")
          for (i, w) in expected.enumerated() {
            let found = try await copy.queue.position(of: w.id, filter: filter, order: order)
            #expect(found?.pane == pane && found?.index == i, "\(pane) \(order) \(filter ?? "-") #\(i)")
          }
        }
      }
    }
  }

  @Test func aPageInAnyOrderWalksAnIndexAndNeverSortsThePane() async throws {
    let (t, copy, _) = try await Self.filled()
    defer { copy.close() }
    _ = t
    for order in PaneOrder.allCases {
      for backwards in [false, true] {
        let sql =
          "EXPLAIN QUERY PLAN SELECT id FROM queue WHERE pane = ? ORDER BY \(order.orderBy(backwards: backwards)) LIMIT 5 OFFSET 3"
        let plan = try await copy.store.run { db in
          try db.rows(sql, [.int(QueuePane.blocked.rawValue)]) { $0.text(3) ?? "" }
        }.joined(separator: " / ")
        #expect(!plan.contains("TEMP B-TREE"), "\(order) backwards \(backwards): \(plan)")
        #expect(plan.contains("USING INDEX") || plan.contains("USING COVERING INDEX"), "\(order): \(plan)")
      }
    }
  }

  @Test func blockedCountsWalkTheReasonIndexWithoutReadingRowsOrSorting() async throws {
    let (t, copy, _) = try await Self.filled()
    defer { copy.close() }
    _ = t
    let plan = try await copy.store.run { db in
      try db.rows("EXPLAIN QUERY PLAN " + SQLite.blockedCountsSQL, []) { $0.text(3) ?? "" }
    }.joined(separator: " / ")
    #expect(plan.contains("queue_order_reason") && !plan.contains("TEMP B-TREE"), "\(plan)")
    let blocked = try await Self.sendOrder(copy, .blocked)
    var expected: [BlockedReason: Int] = [:]
    for w in blocked { expected[w.verdict!.blockedReason!, default: 0] += 1 }
    #expect(try await copy.queue.blockedCounts() == expected)
  }

  @Test func aStoreMadeBeforeTheOrderIndexesGetsThemFromItsWriter() async throws {
    let t = TestStore()
    do {
      let copy = try await t.open()
      _ = try await copy.createItem(type: "note", properties: .object([]))
      copy.close()
    }
    let names = ["queue_order_age", "queue_order_streak", "queue_order_reason", "queue_order_kind"]
    #expect(t.execute(names.map { "DROP INDEX \($0);" }.joined()))
    let writer = try await t.open()
    defer { writer.close() }
    let indexes = try await writer.store.run { db in
      try db.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'queue'", []) { $0.text(0) ?? "" }
    }
    for name in names { #expect(indexes.contains(name), "\(name)") }
    #expect(try await writer.queue.page(.waiting, offset: 0, limit: 5, order: .kind).writes.count == 1)
  }

  @Test func theOrdersCycleInTheIssuesSequenceAndAreNamedByTheirTitleWord() {
    var order = PaneOrder.sendOrder
    var titles: [String] = []
    for _ in 0..<7 {
      titles.append(order.title)
      order = order.next
    }
    #expect(titles == ["sent", "newest", "age", "streak", "reason", "kind", "sent"])
    #expect(PaneOrder(name: "Streak") == .streak)
    #expect(PaneOrder(name: "newest") == .newestFirst)
    #expect(PaneOrder(name: "oldest") == nil)
  }
}
