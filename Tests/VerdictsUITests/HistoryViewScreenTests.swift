import Foundation
import MarfaQueue
import Testing

@testable import VerdictsUI

/// After the fact on the screen: a write's attempts in the detail pane, and the history view (`H`).
@Suite struct HistoryViewScreenTests {
  static let t0 = Date(timeIntervalSince1970: 1_796_000_000)

  /// A night of a write: a gateway's 502, a dropped connection, a 429, then accepted.
  static var nightWrite: QueuedWrite {
    var w = Fixtures.write("0190f1a2-b3c4-7d5e-8f60-1111aaaa43da", verdict: .accepted)
    w.attempts = WriteAttempts(
      list: [
        WriteAttempt(at: t0.addingTimeInterval(5_400), drain: 15, result: .accepted, status: 200, milliseconds: 12),
        WriteAttempt(
          at: t0.addingTimeInterval(3_600), drain: 14, result: .failed, status: 429, milliseconds: 8,
          text: "{\"error\":{\"code\":\"rate_limited\",\"message\":\"slow down\"}}"),
        WriteAttempt(
          at: t0.addingTimeInterval(1_800), drain: 13, result: .dropped, milliseconds: 4,
          text: "the connection was dropped (Empty reply from server)"),
        WriteAttempt(
          at: t0, drain: 12, result: .failed, status: 502, milliseconds: 31,
          text: "<html><head><title>502 Bad Gateway</title></head>\u{1b}[31m"),
      ], omitted: 2)
    return w
  }

  static var night: [DrainRecord] {
    [
      DrainRecord(
        number: 15, startedAt: t0.addingTimeInterval(5_400), endedAt: t0.addingTimeInterval(5_402), program: "verdicts",
        mode: "drain", pid: 4242, host: "dev", answered: 40, verdicts: ["accepted": 39, "refused": 1], ending: .finished
      ),
      DrainRecord(
        number: 14, startedAt: t0.addingTimeInterval(3_600), endedAt: t0.addingTimeInterval(3_601), program: "verdicts",
        mode: "tui", pid: 4100, host: "dev", answered: 3, held: 2, undelivered: 30, unsent: 1,
        verdicts: ["accepted": 3], ending: .unavailable, why: "the instance answered 429", retryAfterSeconds: 30),
      DrainRecord(
        number: 13, startedAt: t0.addingTimeInterval(1_800), endedAt: t0.addingTimeInterval(1_800.5),
        program: "verdicts", mode: "tui", pid: 4100, host: "dev", undelivered: 36, ending: .unavailable,
        why: "the connection was dropped (Empty reply from server)"),
      DrainRecord(
        number: 12, startedAt: t0, endedAt: t0.addingTimeInterval(0.2), program: "verdicts", mode: "tui", pid: 4100,
        host: "dev", undelivered: 36, unmade: 1, ending: .unavailable,
        why: "an answer 502 named no contract (a proxy or gateway), so it was taken as the network's"),
      DrainRecord(
        number: 11, startedAt: t0.addingTimeInterval(-60), program: "app", mode: "library", pid: 99, answered: 7,
        ending: .cutShort),
    ]
  }

  @Test func theDetailListsTheAttemptsNewestFirstWithTheOlderCounted() {
    let text = ScreenTests.detail(Self.nightWrite)
    Golden.check("detail-attempts-120x40", text)
    let lines = text.split(separator: "\n").map(String.init)
    let accepted = lines.firstIndex { $0.contains("#15 accepted") }
    let gateway = lines.firstIndex { $0.contains("#12 failed HTTP 502") }
    #expect(accepted != nil && gateway != nil && accepted! < gateway!, "newest first")
    // The older ones are counted at the section's end, which the detail's scrolling reaches.
    #expect(ScreenTests.detail(Self.nightWrite, scroll: 10).contains("2 earlier attempt(s) counted"))
    // The instance's text reaches the screen only as visible text.
    #expect(!text.contains("\u{1b}"))
  }

  @Test func aReleasedWriteWithEarlierAttemptsIsNotSaidNeverSent() {
    var w = Self.nightWrite
    w.verdict = nil
    w.sent = false
    let text = ScreenTests.detail(w)
    #expect(text.contains("not under its present key (its attempts below came before)"), "\(text)")
    #expect(!text.contains("not yet"))
    w.attempts = nil
    #expect(ScreenTests.detail(w).contains("not yet"))
  }

  @Test func theDetailsScrollingReachesTheAttemptsAt80x24() {
    var s = Fixtures.state(width: 80, height: 24, focus: .answered)
    _ = s.handle(.loaded(QueuePage(pane: .answered, offset: 0, writes: [Self.nightWrite], total: 1)))
    #expect(!ScreenTests.screen(s).contains("#12 failed"))
    _ = s.handle(.key(.enter))
    for _ in 0..<40 { _ = s.handle(.key(.down)) }
    let scrolled = ScreenTests.screen(s)
    #expect(scrolled.contains("attempts") || scrolled.contains("#13 dropped"), "\(scrolled)")
  }

  /// The screen with the history view up over it, its rows read.
  static func history(width: Int, height: Int, drains: [DrainRecord] = night, ascii: Bool = false) -> (
    UIState, [UIEffect]
  ) {
    var s = Fixtures.state(width: width, height: height)
    s.ascii = ascii
    let effects = s.handle(.key(.char("H")))
    _ = s.handle(.history(drains))
    return (s, effects)
  }

  @Test func hOpensTheHistoryViewWhichReadsTheDrainsOnce() {
    let (s, effects) = Self.history(width: 80, height: 24)
    #expect(effects == [.loadHistory])
    #expect(s.history?.count == 5)
    Golden.check("history-80x24", ScreenTests.screen(s))
  }

  @Test func theHistoryViewAt160x48ShowsEachDrainsBarCountsAndEnd() {
    let (s, _) = Self.history(width: 160, height: 48)
    let text = ScreenTests.screen(s)
    Golden.check("history-160x48", text)
    #expect(text.contains("#14") && text.contains("unavailable") && text.contains("retry after 30 s"))
    #expect(text.contains("40 answered") && text.contains("finished"))
    #expect(text.contains("cut short · 7 answered"), "a drain whose process ended first")
    #expect(text.contains("writes/s, oldest to newest"))
  }

  @Test func theHistoryViewInASCIIDrawsItsBarsWithoutBlocks() {
    let (s, _) = Self.history(width: 120, height: 40, ascii: true)
    let text = ScreenTests.screen(s)
    #expect(!text.contains("█") && text.contains("####"))
  }

  @Test func anyOtherKeyClosesTheHistoryViewAndJScrollsIt() {
    var many: [DrainRecord] = []
    for n in (1...60).reversed() {
      many.append(DrainRecord(number: n, startedAt: Self.t0.addingTimeInterval(Double(n) * 60), answered: n))
    }
    var (s, _) = Self.history(width: 80, height: 24, drains: many)
    #expect(ScreenTests.screen(s).contains("#60"))
    _ = s.handle(.key(.char("j")))
    _ = s.handle(.key(.pageDown))
    #expect(!ScreenTests.screen(s).contains("#60 "))
    #expect(s.history != nil)
    _ = s.handle(.key(.char("x")))
    #expect(s.history == nil)
    #expect(s.dialog == nil, "the key that closed it did nothing else")
  }

  @Test func anEmptyHistorySaysNoDrainIsKept() {
    let (s, _) = Self.history(width: 80, height: 24, drains: [])
    #expect(ScreenTests.screen(s).contains("no drain kept yet"))
  }
}
