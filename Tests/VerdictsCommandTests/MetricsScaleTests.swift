import Foundation
import MarfaQueue
import TestSupport
import Testing

/// `verdicts metrics` on a big store counts in SQL and walks indexes, never loading the writes: its
/// figures are right and its time and memory do not follow the queue (docs/monitoring.md, "What it
/// costs").
@Suite(.serialized) struct MetricsScaleTests {
  /// A store of `n` writes, in send order: a fifth waiting (their streaks growing to 4), a fifth
  /// answered, a fifth dead, two fifths blocked across the six reasons; each queued 1 s after the
  /// one before from 2026-01-01, answered an hour after its queueing.
  static func generate(_ path: String, writes n: Int) throws {
    let bulk = try StoreBulkInsert(path: path)
    let start = Date(timeIntervalSince1970: 1_767_225_600)
    let reasons = BlockedReason.allCases
    for i in 0..<n {
      let queued = start.addingTimeInterval(Double(i))
      var w = BulkWrite(
        id: String(format: "%08x-0000-7000-8000-%012x", i, i), kind: .updateItem, idempotencyKey: "key-\(i)",
        payload: #"{"version":1,"properties":{"title":"body \#(i)"}}"#, queuedAt: Timestamp.text(queued))
      w.itemId = "item-\(i)"
      let answered = Timestamp.text(queued.addingTimeInterval(3_600))
      switch i % 5 {
      case 0:
        w.environmentalStreak = (i / 5) % 5
      case 1:
        w.sent = true
        w.verdict = "accepted"
        w.answeredAt = answered
      case 2:
        w.sent = true
        w.verdict = "dead"
        w.refusals = 5
        w.answeredAt = answered
      default:
        w.sent = true
        w.verdict = "blocked"
        w.reason = reasons[(i / 5) % reasons.count].wireName
        w.answeredAt = answered
      }
      try bulk.insert(w)
    }
    try bulk.finish()
  }

  @Test func metricsOnABigStoreAreRightAndCountedWithoutLoadingItsWrites() async throws {
    let t = TempFolder()
    // 200,000 by default (seconds on a loaded machine); VERDICTS_METRICS_WRITES=1000000 for a million.
    let n = ProcessInfo.processInfo.environment["VERDICTS_METRICS_WRITES"].flatMap { Int($0) } ?? 200_000
    let (store, home) = (t.store, t.path)
    let (r, seconds, peakKB) = try await offThePool { () throws -> (CommandResult, Double, Int) in
      // Made by a writer first (the schema, the indexes, the history), emptied, then filled in bulk.
      _ = try Binary.run(["items", "create", "--type", "note", "--properties", "{}"], store: store, home: home)
      try SQLiteScript.run("DELETE FROM queue;", on: store)
      try Self.generate(store, writes: n)
      // The first read pages the store in; the second is what a timer's run costs each minute.
      _ = try Binary.run(["metrics"], store: store, home: home, timeout: 600)
      let started = Date()
      let r = try Binary.run(
        ["metrics"], store: store, home: home, timeout: 600, through: ["/usr/bin/time", "-f", "peak-kb %M"])
      let seconds = Date().timeIntervalSince(started)
      let peak = r.stderr.split(separator: "\n").first { $0.hasPrefix("peak-kb ") }.flatMap { Int($0.dropFirst(8)) }
      return (r, seconds, peak ?? 0)
    }
    #expect(r.code == 0, "\(r)")
    let s = MetricsBinaryTests.samples(r.stdout)
    let fifth = Double(n) / 5
    #expect(s["verdicts_writes{pane=\"waiting\"}"] == fifth.rounded(.up))
    #expect(s["verdicts_writes{pane=\"dead\"}"] == Double((0..<n).filter { $0 % 5 == 2 }.count))
    var blocked: [String: Double] = [:]
    for i in 0..<n where i % 5 >= 3 {
      blocked[BlockedReason.allCases[(i / 5) % BlockedReason.allCases.count].wireName, default: 0] += 1
    }
    for reason in BlockedReason.allCases {
      #expect(s["verdicts_blocked_writes{reason=\"\(reason.wireName)\"}"] == blocked[reason.wireName], "\(reason)")
    }
    // The oldest waiting write is the first queued; the oldest blocked, the first blocked's answer.
    #expect(s["verdicts_oldest_write_timestamp_seconds{pane=\"waiting\"}"] == 1_767_225_600)
    #expect(s["verdicts_oldest_write_timestamp_seconds{pane=\"blocked\"}"] == Double(1_767_225_600 + 3 + 3_600))
    #expect(s["verdicts_largest_streak"] == 4)
    #expect(try MetricsBinaryTests.checkMetrics(r.stdout).shellStatus == 0)
    // The bounds catch a read of every row, not speed: a debug build took 0.04 s on 200,000 writes
    // and 0.07 s on a million, 23 MB at both (docs/monitoring.md, "What it costs").
    print("metrics on \(n) writes: \(String(format: "%.3f", seconds)) s, peak RSS \(peakKB) KB")
    #expect(seconds < 10 * Double(SanitizerRun.boundScale), "\(seconds) s")
    #expect(peakKB < 100_000, "peak RSS \(peakKB) KB")
  }
}
