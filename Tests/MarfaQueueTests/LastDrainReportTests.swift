import Foundation
import Testing

@testable import MarfaQueue

/// The last drain's report as the store keeps it: bounded whatever the drain's size.
@Suite struct LastDrainReportTests {
  static func verdicts(_ n: Int) -> [DrainVerdict] {
    (0..<n).map { i in
      DrainVerdict(
        id: "w-\(String(format: "%026d", i))", kind: .createItem, itemId: "item-\(i)",
        verdict: i % 10 == 0 ? .refused(Refusal(reason: "validation_failed")) : .accepted)
    }
  }

  @Test func aDrainReportOf100000VerdictsLeavesTheStoredReportBounded() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    var drained = DrainReport(answered: 100_000, verdicts: Self.verdicts(100_000))
    (drained.startedAt, drained.endedAt) = ("s", "e")
    let report = drained
    let whole = report.wireJSON.text.utf8.count
    try await copy.store.run { db in try db.transaction(durable: false) { try db.keepLastDrain(report) } }
    let stored = try await copy.store.run { try $0.lastDrainBytes() }
    // 1,000 entries and a summary: a few hundred kilobytes, under 2 % of the whole report.
    #expect(stored < 400_000, "stored \(stored) bytes of a \(whole)-byte report")
    #expect(stored * 50 < whole, "stored \(stored) bytes of a \(whole)-byte report")
    let summary = try await copy.store.run { try $0.meta(.lastDrain) }
    #expect((summary?.utf8.count ?? .max) < 1_024)
    let status = try await copy.status()
    #expect(status.lastDrain?.answered == 100_000)
    #expect(status.lastDrain?.verdictsOmitted == 99_000)
    #expect(status.lastDrain?.verdicts.isEmpty == true)
    #expect(status.lastDrain?.verdictCounts == ["accepted": 90_000, "refused": 10_000])
    #expect(status.lastDrain?.startedAt == "s")
    #expect(status.lastDrain?.endedAt == "e")
    #expect(status.lastDrainAt == "e")
    let kept = try await copy.lastDrainVerdicts()
    #expect(kept.count == DrainReport.keptVerdicts)
    #expect(kept.first?.id == report.verdicts[99_000].id)
    #expect(kept.last?.id == report.verdicts[99_999].id)
    #expect(kept.last?.verdict == .accepted)
  }

  /// A report as an earlier build kept it whole (its members in that build's order).
  static func earlierWholeReport(_ n: Int) -> String {
    JSONValue.object([
      ("answered", .int(n)), ("held", .int(0)), ("undelivered", .int(2)), ("unsent", .int(0)), ("unmade", .int(0)),
      ("unavailable", .string("down")), ("verdicts", .array(verdicts(n).map(\.wireJSON))),
      ("stopped", .string("the key was refused")), ("unclaimed_sources", .array([.string("crm")])),
      ("retry_after_seconds", .int(30)),
    ]).text
  }

  @Test(arguments: [true, false])
  func aWholeReportKeptByAnEarlierVersionIsReadWithoutItsVerdicts(earlierShape: Bool) async throws {
    let t = TestStore()
    let copy = try await t.open()
    var inline = DrainReport(answered: 5_000, undelivered: 2, verdicts: Self.verdicts(5_000), unavailable: "down")
    (inline.stopped, inline.unclaimedSources, inline.retryAfterSeconds) = ("the key was refused", ["crm"], 30)
    // The earlier build's order is read from its two ends; any other whole report through SQLite.
    let text = earlierShape ? Self.earlierWholeReport(5_000) : inline.wireJSON.text
    #expect(text.utf8.count > SQLite.lastDrainSummaryBound)
    try await copy.store.run { db in try db.setMeta(.lastDrain, text) }
    let status = try await copy.status()
    copy.close()
    #expect(status.lastDrain?.answered == 5_000)
    #expect(status.lastDrain?.undelivered == 2)
    #expect(status.lastDrain?.unavailable == "down")
    #expect(status.lastDrain?.stopped == "the key was refused")
    #expect(status.lastDrain?.unclaimedSources == ["crm"])
    #expect(status.lastDrain?.retryAfterSeconds == 30)
    #expect(status.lastDrain?.verdicts.isEmpty == true)
  }

  @Test func aBoundedListKeepsTheLastEntriesAndCountsTheEarlierOnes() {
    var report = DrainReport()
    var longest = 0
    for v in Self.verdicts(2_500) {
      report.list(v, keeping: 1_000)
      longest = max(longest, report.verdicts.count)
    }
    #expect(longest < 2_000)
    report.trim(to: 1_000)
    #expect(report.verdicts.count == 1_000)
    #expect(report.verdictsOmitted == 1_500)
    #expect(report.verdictEntries == 2_500)
    #expect(report.verdicts.first?.id == Self.verdicts(1_501).last?.id)
    #expect(report.verdictCounts == ["accepted": 2_250, "refused": 250])
    let unbounded = Self.verdicts(2_500).reduce(into: DrainReport()) { $0.list($1, keeping: nil) }
    #expect(unbounded.verdicts.count == 2_500)
    #expect(unbounded.verdictsOmitted == 0)
  }

  @Test func aDrainKeepingOneVerdictReturnsTheLastAndCountsEveryOne() async throws {
    let h = try await DrainHarness()
    var ids: [String] = []
    for i in 0..<3 { ids.append(try await h.note("n\(i)").id) }
    let report = try await h.copy.queue.drain(keepingVerdicts: 1)
    #expect(report.answered == 3)
    #expect(report.verdicts.map(\.id) == [ids[2]])
    #expect(report.verdictsOmitted == 2)
    #expect(report.verdictCounts == ["accepted": 3])
    // The store keeps its own bound, whatever the caller kept.
    #expect(try await h.copy.lastDrainVerdicts().map(\.id) == ids)
    let status = try await h.copy.status()
    #expect(status.lastDrain?.verdictsOmitted == 0)
    #expect(status.lastDrain?.startedAt != nil)
    #expect(status.lastDrain?.endedAt == status.lastDrainAt)
  }

  @Test func theWholeDrainStillListsAVerdictPerWrite() async throws {
    let h = try await DrainHarness()
    for i in 0..<3 { _ = try await h.note("n\(i)") }
    let report = try await h.copy.queue.drain()
    #expect(report.verdicts.count == 3)
    #expect(report.verdictsOmitted == 0)
  }
}
