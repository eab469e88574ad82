import Foundation
import MarfaQueue
import MarfaWire
import TestSupport
import Testing

@testable import VerdictsCommand
@testable import VerdictsRemote

/// A pane's rows over the link as summaries (docs/remote.md, `page_summaries`), on the writes
/// of a store the demo's drains wrote: every verdict, every blocked reason, failures and streaks.
@Suite struct RemoteSummaryTests {
  static func tourWrites() async throws -> [QueuedWrite] {
    let demo = try await DemoDriver.start(storePath: nil)
    defer { demo.stop() }
    await demo.walkTour(pause: 0) { _ in }
    var writes: [QueuedWrite] = []
    for w in try await demo.copy.queue.all() {
      writes.append(w)
      writes.append(try await demo.copy.queue.shownWrite(w.id))
    }
    return writes
  }

  static func line(_ rows: [SummaryRow]) throws -> String {
    let message = RemoteMessage(id: 1, value: .summaryRows(pane: .waiting, offset: 0, total: rows.count, rows: rows))
    return String(decoding: RemoteWire.line(message), as: UTF8.self)
  }

  @Test func everySummaryReadsBackAsTheWriteItWasMadeFromWithTheSameDigest() async throws {
    let writes = try await Self.tourWrites()
    #expect(Set(writes.compactMap { $0.verdict?.wireName }).count == 6)
    #expect(writes.contains { $0.lastFailure != nil } && writes.contains { $0.environmentalStreak > 0 })
    let summaries = writes.map(SummaryRow.summary)
    let line = try Self.line(summaries.map(SummaryRow.write))
    let read = try #require(RemoteWire.message(Array(line.utf8))?.value)
    guard case .summaryRows(_, _, _, let rows) = read else {
      Issue.record("not rows: \(read)")
      return
    }
    #expect(rows == summaries.map(SummaryRow.write))
    for (row, sent) in zip(rows, summaries) {
      guard case .write(let w) = row else { continue }
      #expect(RemoteWire.digest(w) == RemoteWire.digest(sent), "\(w.id): the screen's digest differs from the device's")
    }
  }

  @Test func aSummaryLeavesOutTheBodyTheAnswerTheKeyAndEveryMemberHoldingItsDefault() async throws {
    let writes = try await Self.tourWrites()
    let w = try #require(writes.first { $0.verdict == .accepted && $0.answer != nil })
    let line = try Self.line([.write(SummaryRow.summary(w)), .same(0)])
    for absent in ["body", "\"answer\":", "idempotencyKey", "\"refusals\":0", "\"sent\":false", "\"dependsOn\":[]"] {
      #expect(!line.contains(absent), "\(absent) crossed: \(line)")
    }
    #expect(
      line.contains("\"\(w.id)\"") && line.contains("\"queuedAt\"") && line.contains("},0],"),
      "a row held unchanged crosses as its place: \(line)")
    // The same write as `page_rows` sends it, for the older screens: every member, and a digest.
    var older = w
    older.body = .null
    older.answer = nil
    let olderLine = RemoteWire.line(
      RemoteMessage(
        id: 1,
        value: .rows(pane: .answered, offset: 0, total: 1, rows: [.write(older, digest: RemoteWire.digest(older))])))
    #expect(line.utf8.count * 4 < olderLine.count * 3, "\(line.utf8.count) B against \(olderLine.count) B")
  }
}
