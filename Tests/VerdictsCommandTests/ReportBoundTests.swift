import Foundation
import MarfaQueue
import Testing

/// `verdicts report` stays at most 1 MB, as JSON and as text, whatever the store holds, and says
/// what it left out.
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

  @Test func theReportStaysUnderOneMegabyteOnABigStoreAndSaysWhatItLeftOut() throws {
    let t = TempFolder()
    // Made by a writer first (the schema, the archive), then filled in bulk.
    _ = try Binary.run(["items", "create", "--type", "note", "--properties", "{}"], store: t.store, home: t.path)
    // 200,000 by default (under a minute on a loaded machine); VERDICTS_REPORT_WRITES=1000000 for
    // the issue's million.
    let n = ProcessInfo.processInfo.environment["VERDICTS_REPORT_WRITES"].flatMap { Int($0) } ?? 200_000
    try Self.generate(t.store, writes: n)
    _ = try Binary.run(["forget"], store: t.store, home: t.path, timeout: 600)
    for args in [["--json", "report"], ["report"], ["--json", "report", "--with-bodies"]] {
      let r = try Binary.run(args, store: t.store, home: t.path, timeout: 600)
      #expect(r.code == 0, "\(args): \(r.stderr)")
      #expect(r.stdout.utf8.count <= 1_000_000, "\(args): \(r.stdout.utf8.count) bytes")
      print("report \(args.joined(separator: " ")) on \(n) writes: \(r.stdout.utf8.count) bytes")
      #expect(r.stdout.utf8.count > 500_000, "\(args): \(r.stdout.utf8.count) bytes")
      #expect(r.stdout.contains(" blocked writes (the list stops at"), "\(args)")
      #expect(r.stdout.contains("departed writes, the oldest"), "\(args)")
      if args.first == "--json" { #expect(r.json?["left_out"]?.arrayValue?.isEmpty == false) }
    }
  }
}
