import Foundation
import MarfaQueue
import Testing

@testable import VerdictsCommand

/// `verdicts history` fits a terminal: one short line a drain, why it ended last, each line cut
/// to the terminal's width (whole into a pipe); `--wide` keeps every column.
@Suite struct HistoryNarrowTests {
  static let t0 = Date(timeIntervalSince1970: 1_796_000_000)
  static let drains = [
    DrainRecord(
      number: 14, startedAt: t0, endedAt: t0.addingTimeInterval(2), program: "verdicts", mode: "tui", pid: 4211,
      host: "dev", answered: 3, held: 2, undelivered: 30, unsent: 1, ending: .unavailable,
      why: "an answer 502 named no contract (a proxy or gateway), so it was taken as the network's",
      retryAfterSeconds: 30),
    DrainRecord(
      number: 9, startedAt: t0.addingTimeInterval(-60), endedAt: t0.addingTimeInterval(-58), answered: 52,
      ending: .interrupted, why: "stopped by SIGINT (Ctrl-C)"),
  ]

  @Test func atEightyColumnsEachDrainIsOneLineThatSaysWhyItEnded() {
    let text = HistoryText.renderNarrow(Self.drains, width: 80, ascii: false)
    let lines = text.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines)")
    #expect(
      lines[0].hasPrefix("#14")
        && lines[0].contains("unavailable  3 answered, 2 held, 30 undelivered"), "\(lines)")
    #expect(lines[0].hasSuffix("…"))
    #expect(lines[1].contains("interrupted  52 answered · stopped by SIGINT"), "\(lines)")
  }

  @Test func intoAPipeEachLineIsWhole() {
    let text = HistoryText.renderNarrow(Self.drains, width: nil, ascii: false)
    #expect(text.contains("so it was taken as the network's · retry after 30 s"), "\(text)")
  }

  @Test func wideKeepsEveryColumn() {
    let text = HistoryText.render(Self.drains, ascii: false)
    #expect(text.contains("UNDELIVERED") && text.contains("verdicts tui pid 4211 on dev"))
  }
}
