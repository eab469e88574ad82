import Foundation
import MarfaWire
import TestSupport
import Testing

@testable import MarfaQueue

/// Pane orders on a big generated store: the pages at the start, the middle and the end of each
/// pane are the pane's writes in that order, and (a diagnostic, printed) what a page read and a
/// queued write cost. `VERDICTS_ORDER_WRITES` sets the store's size (default 10,000; the figures
/// in docs/performance.md are from 1,000,000 in a release build).
@Suite struct PaneOrderScaleTests {
  static var size: Int {
    ProcessInfo.processInfo.environment["VERDICTS_ORDER_WRITES"].flatMap(Int.init) ?? 10_000
  }

  static let kinds: [WriteKind] = [.createItem, .updateItem, .addTag, .mergeMetadata, .deleteItem, .createEdge]
  static let verdicts = ["accepted", "merged", "conflicted", "refused"]

  /// A store of `n` writes: a tenth waiting (some with streaks), 70% answered, 15% blocked (every
  /// reason), 5% dead; answered out of send order.
  static func generate(_ t: TestStore, writes n: Int) async throws {
    let copy = try await t.open()
    copy.close()
    // Seconds of work that never suspends: on a thread of its own, not one of the pool's two.
    let path = t.url.path
    try await offThePool { try insert(atPath: path, writes: n) }
  }

  /// ``generate(_:writes:)``'s rows, written by one bulk insert into the store at `path`.
  static func insert(atPath path: String, writes n: Int) throws {
    let bulk = try StoreBulkInsert(path: path)
    for i in 0..<n {
      let m = (i &* 7_919 &+ 13) % 1_000
      var w = BulkWrite(
        id: String(format: "%08x-0000-7000-8000-%012x", i, (i &* 2_654_435_761) % 281_474_976_710_656),
        kind: kinds[(i &* 31 &+ 7) % kinds.count], idempotencyKey: "key-\(i)",
        payload: #"{"type":"note","properties":{"title":"n \#(i)"}}"#,
        queuedAt: Self.time(Double(i) * 0.05))
      w.itemId = "item-\(i % 5_000)"
      w.sent = m >= 60
      switch m {
      case 0..<100: w.environmentalStreak = m >= 60 && m < 80 ? 1 + i % 3 : 0
      case 100..<800:
        w.verdict = verdicts[i % verdicts.count]
        if w.verdict == "refused" { w.reason = "validation_failed" }
      case 800..<950:
        w.verdict = "blocked"
        w.reason = BlockedReason.allCases[i % BlockedReason.allCases.count].rawValue
        w.environmentalStreak = i % 5
      default:
        w.verdict = "dead"
        w.refusals = 5
      }
      if w.verdict != nil { w.answeredAt = Self.time(Double(i) * 0.05 + Double(i % 97)) }
      try bulk.insert(w)
    }
    try bulk.finish()
  }

  static func time(_ seconds: Double) -> String {
    Timestamp.text(Date(timeIntervalSince1970: 1_795_000_000 + seconds))
  }

  /// Milliseconds `body` takes, the best of `times`.
  static func ms(_ times: Int = 3, _ body: () async throws -> Void) async rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<times {
      let start = ContinuousClock.now
      try await body()
      let d = ContinuousClock.now - start
      best = min(best, Double(d.components.seconds) * 1_000 + Double(d.components.attoseconds) / 1e15)
    }
    return best
  }

  @Test func pagesAtTheStartMiddleAndEndOfABigStoreAreThePaneInEachOrder() async throws {
    let t = TestStore()
    let n = Self.size
    try await Self.generate(t, writes: n)
    let copy = try await t.open()
    defer { copy.close() }
    var lines: [String] = ["pane orders at \(n) writes (ms, best of 3):"]
    for pane in [QueuePane.waiting, .answered, .blocked] {
      let total = try await copy.queue.counts()[pane]
      // The whole pane in send order, without bodies, sorted here: what every page must show.
      var all: [QueuedWrite] = []
      var cursor = 0
      while true {
        let batch = try await copy.queue.summaries(pane, cursor: cursor, limit: 5_000)
        all += batch.writes
        if batch.writes.count < 5_000 { break }
        cursor = batch.next
      }
      #expect(all.count == total)
      for order in PaneOrder.allCases {
        let expected = order.sorted(all).map(\.id)
        var figures: [String] = []
        for (name, offset) in [("start", 0), ("middle", total / 2), ("end", total - 40)] {
          var page = QueuePage(pane: pane, offset: 0, writes: [], total: 0)
          let took = try await Self.ms {
            page = try await copy.queue.page(pane, offset: offset, limit: 40, order: order)
          }
          #expect(page.writes.map(\.id) == Array(expected[offset..<offset + 40]), "\(pane) \(order) \(name)")
          figures.append("\(name) \(String(format: "%.1f", took))")
        }
        let w = try #require(all.randomElement())
        let found = try await copy.queue.position(of: w.id, order: order)
        #expect(found?.index == expected.firstIndex(of: w.id), "\(pane) \(order) position")
        lines.append("  \(pane.name) \(order.title): " + figures.joined(separator: ", "))
      }
    }
    print(lines.joined(separator: "\n"))
  }

  @Test func writesQueueOntoABigStoreWithTheOrderIndexesAsWithout() async throws {
    // Queued writes on a store of the same size, with and without the order indexes.
    let queued = max(200, Self.size / 100)
    var perWrite: [String: Double] = [:]
    for with in [false, true] {
      let t = TestStore()
      try await Self.generate(t, writes: Self.size)
      // Dropped after the writer opened the store (it adds missing ones when it opens).
      let copy = try await t.open()
      defer { copy.close() }
      if !with {
        try await copy.store.run { db in
          try db.execute(
            "DROP INDEX queue_order_age; DROP INDEX queue_order_streak; DROP INDEX queue_order_reason; DROP INDEX queue_order_kind;"
          )
        }
      }
      let took = try await Self.ms(1) {
        for i in 0..<queued { _ = try await copy.createItem(type: "note", properties: .object([("n", .int(i))])) }
      }
      perWrite[with ? "with" : "without"] = took * 1_000 / Double(queued)
      #expect(try await copy.queue.counts().total == Self.size + queued)
    }
    print(
      "queueing \(queued) writes on \(Self.size): "
        + String(format: "%.0f µs/write without the order indexes, %.0f with", perWrite["without"]!, perWrite["with"]!))
  }
}
