import Foundation
import MarfaQueue
import Testing

@testable import VerdictsUI

/// The writer's published record on the status line, in every form the issue names, writer and
/// read-only alike (golden screens at 80×24 and 120×40), and the words themselves.
@Suite struct WriterStatusTests {
  static let t0 = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15T08:00:00Z

  static func live(drain: WriterRecord.DrainProgress? = nil, autoDrain: Bool = true, keyRefused: Bool = false)
    -> WriterRecord
  {
    WriterRecord(
      program: "verdicts", mode: "tui", pid: 4211, host: "device", startedAt: t0, autoDrain: autoDrain,
      keyRefused: keyRefused, drain: drain)
  }

  /// 154 of 300 sent in 0.726 s: 212 a second, about 1 s left.
  static let draining = WriterRecord.DrainProgress(
    startedAt: t0.addingTimeInterval(100), total: 300, sent: 154, answered: 154,
    verdicts: ["accepted": 150, "refused": 4])
  static let drainingNow = t0.addingTimeInterval(100.726)

  static func closed() -> WriterRecord {
    var r = live()
    r.closedAt = t0.addingTimeInterval(200)
    r.state = .closed
    return r
  }

  static func gone() -> WriterRecord {
    var r = live(drain: draining)
    r.updatedAt = t0.addingTimeInterval(300)
    r.state = .gone
    return r
  }

  static func joined(_ r: WriterRecord?, now: Date, lastAlive: Date? = nil) -> String {
    WriterText.parts(r, now: now, lastAlive: lastAlive).map(\.text).joined(separator: " · ")
  }

  @Test func aDrainingWriterSaysWhoItIsHowFarHowFastAndHowLongLeft() {
    #expect(
      Self.joined(Self.live(drain: Self.draining), now: Self.drainingNow)
        == "writer: verdicts tui (pid 4211) · auto-drain on · draining 154 of 300 · 212/s · about 1 s left")
  }

  @Test func aWriterThatClosedSaysNoneSinceItsCloseWithHowLongAgo() {
    #expect(
      Self.joined(Self.closed(), now: Self.t0.addingTimeInterval(380)) == "writer: none since 08:03:20 (3 min ago)")
  }

  @Test func aWriterThatDiedIdleSaysGoneWithItsPidAndWhenItWasLastSeen() {
    // The watcher saw it live 12 s ago, later than its record's last write.
    var idle = Self.gone()
    idle.drain = nil
    #expect(
      Self.joined(idle, now: Self.t0.addingTimeInterval(400), lastAlive: Self.t0.addingTimeInterval(388))
        == "writer: gone — pid 4211 ended without closing (last seen 12 s ago)")
  }

  @Test func aWriterThatDiedDuringADrainSaysHowFarItGot() {
    #expect(
      Self.joined(Self.gone(), now: Self.t0.addingTimeInterval(400), lastAlive: Self.t0.addingTimeInterval(388))
        == "writer: gone — pid 4211 died during a drain (154 of 300 sent, begun 08:01:40) · last seen 12 s ago")
  }

  @Test func aLiveWriterWhoseDrainHasNotMovedFor30SecondsIsStalledWithItsLastProgress() {
    var d = Self.draining
    d.movedAt = Self.t0.addingTimeInterval(110)
    let r = Self.live(drain: d)
    #expect(!r.stalled(now: Self.t0.addingTimeInterval(139)))
    #expect(
      Self.joined(r, now: Self.t0.addingTimeInterval(155))
        == "writer: verdicts tui (pid 4211) · auto-drain on · stalled: no progress for 45 s (154 of 300 sent, last at 08:01:50)"
    )
  }

  @Test func aLiveWriterThatMissedItsHeartbeatsIsSilent() {
    var r = Self.live()
    r.heartbeatSeconds = 60
    r.updatedAt = Self.t0
    #expect(!r.silent(now: Self.t0.addingTimeInterval(149)))
    #expect(
      Self.joined(r, now: Self.t0.addingTimeInterval(180))
        == "writer: verdicts tui (pid 4211) · auto-drain on · silent: no heartbeat since 08:00:00 (3 min ago)")
  }

  @Test func theWritersInstanceIsSaidInItsWords() {
    var r = Self.live()
    r.instance = WriterRecord.InstanceContact(
      reachable: false, since: Self.t0, met: "the instance could not be reached: Connection refused\u{1b}[2J",
      nextTry: Self.t0.addingTimeInterval(16))
    #expect(
      Self.joined(r, now: Self.t0.addingTimeInterval(2))
        == "writer: verdicts tui (pid 4211) · auto-drain on · instance unreachable since 08:00:00: the instance could not be reached: Connection refused␛[2J · next try 08:00:16"
    )
  }

  @Test func aRefusedKeyIsSaidAndAnIdleWriterShowsNoProgress() {
    #expect(
      Self.joined(Self.live(autoDrain: false, keyRefused: true), now: Self.t0)
        == "writer: verdicts tui (pid 4211) · auto-drain off · key refused")
  }

  static func screen(
    _ record: WriterRecord?, now: Date, readOnly: Bool, width: Int, height: Int, lastAlive: Date? = nil
  ) -> String {
    var s = Fixtures.state(width: width, height: height)
    if readOnly { s.readOnlyReason = "opened to read" }
    _ = s.handle(.writer(record, at: now))
    if let lastAlive { s.writerLastAlive = lastAlive }
    return ScreenTests.screen(s)
  }

  @Test(arguments: [(80, 24), (120, 40)])
  func everyFormOnTheStatusLineForWriterAndWatcher(size: (Int, Int)) {
    let forms: [(String, WriterRecord?, Date, Date?)] = [
      ("draining", Self.live(drain: Self.draining), Self.drainingNow, nil),
      ("closed", Self.closed(), Self.t0.addingTimeInterval(380), nil),
      ("gone", Self.gone(), Self.t0.addingTimeInterval(400), Self.t0.addingTimeInterval(388)),
    ]
    for (name, record, now, alive) in forms {
      for readOnly in [false, true] {
        let text = Self.screen(record, now: now, readOnly: readOnly, width: size.0, height: size.1, lastAlive: alive)
        Golden.check("writer-\(name)-\(readOnly ? "watcher" : "writer")-\(size.0)x\(size.1)", text)
      }
    }
  }

  @Test func aWatcherShowsTheWritersAutoDrainNotItsOwn() {
    let text = Self.screen(
      Self.live(drain: Self.draining), now: Self.drainingNow, readOnly: true, width: 160, height: 48)
    #expect(text.contains("auto-drain on"))
    #expect(!text.contains("auto-drain off"))
    #expect(text.contains("read-only"))
  }

  @Test func whileTheWriterDrainsTheLastDrainsSummaryGivesWayToItsProgress() {
    var s = Fixtures.state(width: 160, height: 48)
    _ = s.handle(.drained(DrainReport(answered: 200)))
    #expect(ScreenTests.screen(s).contains("200 answered"))
    _ = s.handle(.writer(Self.live(drain: Self.draining), at: Self.drainingNow))
    let text = ScreenTests.screen(s)
    #expect(!text.contains("200 answered"))
    #expect(text.contains("draining 154 of 300"))
  }
}

extension WriterStatusTests {
  @Test func aWatcherFollowingADrainShowsTheLastMinutesRateAsASparkline() {
    var s = Fixtures.state(width: 160, height: 48)
    s.readOnlyReason = "opened to read"
    let start = Self.t0.addingTimeInterval(100)
    // The writer's progress as a watcher reads it, about twice a second, speeding up.
    for i in 0...40 {
      let at = start.addingTimeInterval(Double(i) / 2)
      let sent = i * i / 2
      _ = s.handle(.writer(Self.live(drain: .init(startedAt: start, total: 5000, sent: sent)), at: at))
    }
    let text = ScreenTests.screen(s)
    let line = text.split(separator: "\n").first { $0.contains("draining 800 of 5000") } ?? ""
    #expect(line.contains(#/[0-9]+/s [ ▁▂▃▄▅▆▇█]*[▁▂▃▄▅▆▇█]/#), "\(text)")
    #expect(line.contains("█"))
  }

  @Test func inAsciiTheSparklineUsesAsciiMarks() {
    var s = Fixtures.state(width: 160, height: 48)
    s.ascii = true
    let start = Self.t0.addingTimeInterval(100)
    for i in 0...20 {
      _ = s.handle(.writer(Self.live(drain: .init(startedAt: start, total: 500, sent: i * 10)), at: start + Double(i)))
    }
    let text = ScreenTests.screen(s)
    #expect(text.contains(#/10/s [ .:;=ox#@]*@/#), "\(text)")
    #expect(text.unicodeScalars.allSatisfy { $0.isASCII })
  }
}
