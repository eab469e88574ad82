import Foundation
import MarfaQueue
import TestSupport
import Testing

/// `verdicts report` stays at most 100 KB, as JSON and as text, whatever the store holds (writes,
/// their attempts, the drains kept): the problem writes grouped, each group's count and a few
/// examples, and it says what it left out.
@Suite(.serialized) struct ReportBoundTests {
  /// A store of `n` writes: a third blocked failing alone with a 200-character last failure, a
  /// sixth refused with content, a sixth dead, the rest accepted.
  static func generate(_ path: String, writes n: Int) throws {
    let bulk = try StoreBulkInsert(path: path)
    let failure = String(repeating: "502 Bad Gateway from the proxy in front of the instance; ", count: 4).prefix(200)
    for i in 0..<n {
      var w = BulkWrite(
        id: String(format: "%08x-0000-7000-8000-%012x", i, i), kind: .updateItem, idempotencyKey: "key-\(i)",
        payload: #"{"version":1,"properties":{"title":"body \#(i) \#(String(repeating: "x", count: 200))"}}"#,
        queuedAt: "2026-01-01T00:00:00.000Z")
      w.itemId = "item-\(i)"
      w.sent = true
      switch i % 6 {
      case 0, 1:
        w.verdict = "blocked"
        w.reason = "failing_alone"
        w.lastFailureStatus = 502
        w.lastFailureText = String(failure)
        w.environmentalStreak = 3
      case 2:
        w.verdict = "refused"
        w.reason = "validation_failed"
        w.refusal = #"{"reason":"validation_failed","code":"validation_failed","message":"title is required"}"#
      case 3:
        w.verdict = "dead"
        w.refusals = 5
      default:
        w.verdict = "accepted"
        w.answer = #"{"item":{"id":"item-\#(i)","version":2}}"#
      }
      try bulk.insert(w)
    }
    try bulk.finish()
  }

  /// The first 3,000 blocked writes each with the 20 attempts a store keeps (a 200-character
  /// gateway page each), and 520 drains kept (the store keeps the last 500), each with a
  /// 2,000-character reason it ended.
  static func addHistory(_ path: String) throws {
    let page = String(repeating: "<html>502 Bad Gateway</html> ", count: 7).prefix(200)
    try SQLiteScript.run(
      """
      WITH RECURSIVE k(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM k WHERE x < 20)
      INSERT INTO attempts (write_id, k, at_ms, drain, result, status, code, replayed, ms, text)
      SELECT q.id, k.x, 1767225600000 + k.x * 60000, k.x, 'failed', 502, NULL, 0, 31, '\(page)'
      FROM (SELECT id FROM queue WHERE verdict = 'blocked' ORDER BY seq LIMIT 3000) q, k;
      WITH RECURSIVE d(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM d WHERE x < 520)
      INSERT INTO drains (started_ms, ended_ms, program, mode, pid, host, answered, verdicts, ending, why)
      SELECT 1767225600000 + x * 60000, 1767225600000 + x * 60000 + 5000, 'verdicts', 'drain', 4242, 'dev', x,
        '{"accepted":1}', 'unavailable', replace(hex(zeroblob(1000)), '00', 'ab')
      FROM d;
      """, on: path)
  }

  @Test("the report stays under 100 KB on a big store grouping its problem writes and says what it left out")
  func theReportStaysUnder100KBOnABigStoreGroupingItsProblemWritesAndSaysWhatItLeftOut() async throws {
    let t = TempFolder()
    // 200,000 by default (under a minute on a loaded machine); VERDICTS_REPORT_WRITES=1000000 for
    // the issue's million.
    let n = ProcessInfo.processInfo.environment["VERDICTS_REPORT_WRITES"].flatMap { Int($0) } ?? 200_000
    let (store, home) = (t.store, t.path)
    let commands = [["--json", "report"], ["report"], ["--json", "report", "--with-bodies"]]
    // A minute of work that never suspends (the store filled, the binaries waited for): on a
    // thread of its own, not one of the two the other tests' tasks take turns on.
    let results = try await offThePool { () throws -> [CommandResult] in
      // Made by a writer first (the schema, the archive), then filled in bulk.
      _ = try Binary.run(["items", "create", "--type", "note", "--properties", "{}"], store: store, home: home)
      try Self.generate(store, writes: n)
      try Self.addHistory(store)
      _ = try Binary.run(["forget"], store: store, home: home, timeout: 600)
      return try commands.map { try Binary.run($0, store: store, home: home, timeout: 600) }
    }
    for (args, r) in zip(commands, results) {
      #expect(r.code == 0, "\(args): \(r.stderr)")
      #expect(r.stdout.utf8.count <= 100_000, "\(args): \(r.stdout.utf8.count) bytes")
      print("report \(args.joined(separator: " ")) on \(n) writes: \(r.stdout.utf8.count) bytes")
      #expect(r.stdout.utf8.count > 20_000, "\(args): \(r.stdout.utf8.count) bytes")
      #expect(r.stdout.contains("problem writes past the first 3 of each group"), "\(args)")
      #expect(r.stdout.contains("departed writes, the oldest"), "\(args)")
      #expect(r.stdout.contains("attempts of the problem writes, past the newest 5 of each"), "\(args)")
      #expect(r.stdout.contains("oldest of the last 20 drains (the list stops at 14000 bytes"), "\(args)")
      guard args.first == "--json" else {
        #expect(r.stdout.contains("== drain history =="))
        #expect(r.stdout.contains("#20 failed HTTP 502 "), "\(args)")
        continue
      }
      let report = try #require(r.json)
      #expect(report["left_out"]?.arrayValue?.isEmpty == false)
      // Each listed blocked write carries its newest 5 attempts and counts the 15 others.
      // One group a blocked reason, then the dead and the refused, each with its count.
      let groups = try #require(report["problem_groups"]?.arrayValue)
      #expect(groups.map { $0["group"]?.stringValue ?? "" } == ["blocked", "dead", "refused"], "\(groups)")
      #expect(groups.first?["reason"] == .string("failing_alone"))
      #expect(groups.first?["count"] == report["counts"]?["blocked"], "\(groups)")
      #expect(groups.allSatisfy { ($0["examples"]?.intValue ?? 0) <= 3 }, "\(groups)")
      #expect((report["problem_writes"]?.arrayValue?.count ?? 0) <= 9)
      let first = try #require(report["problem_writes"]?.arrayValue?.first)
      let attempts = try #require(first["attempts"]?.arrayValue)
      #expect(attempts.map { $0["drain"] } == [20, 19, 18, 17, 16].map { JSONValue.int($0) })
      #expect(first["attempts_omitted"] == .int(15))
      let drains = try #require(report["drain_history"]?.arrayValue)
      #expect(!drains.isEmpty && drains.count < 20, "\(drains.count) drains")
      #expect(drains.first?["number"] == .int(520))
    }
  }
}
