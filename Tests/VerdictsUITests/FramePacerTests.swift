import MarfaQueue
import MarfaWire
import Testing

@testable import VerdictsUI

/// The byte budget frames are paced by, on hand-moved times (no sleeps), and the first frame that
/// waits for the first reads and never shows a count it does not know.
@Suite struct FramePacerTests {
  static func ms(_ n: Int) -> Duration { .milliseconds(n) }

  /// A pacer past its first frame, at time zero, with a full bucket.
  static func started() -> FramePacer {
    var p = FramePacer(now: .zero)
    #expect(p.decide(now: .zero, dirty: true, firstReadsDone: true) == .draw)
    p.drew(bytes: 0, now: .zero)
    return p
  }

  @Test func aSingleChangeAfterQuietIsDrawnAtOnce() {
    var p = Self.started()
    #expect(p.decide(now: Self.ms(5_000), dirty: true, firstReadsDone: true) == .draw)
  }

  @Test func nothingChangedMeansNoFrameAndNoTimer() {
    var p = Self.started()
    #expect(p.decide(now: Self.ms(10), dirty: false, firstReadsDone: true) == .idle)
  }

  @Test func aFrameThatSpentTheBucketMakesTheNextWaitUntilItRefills() {
    var p = Self.started()
    p.drew(bytes: 3_072, now: Self.ms(1_000))
    // 1,024 bytes owed at 2,048 B/s: half a second.
    guard case .wait(let wait) = p.decide(now: Self.ms(1_000), dirty: true, firstReadsDone: true) else {
      Issue.record("a frame went while the budget was spent")
      return
    }
    #expect(wait >= Self.ms(490) && wait <= Self.ms(510))
    #expect(p.decide(now: Self.ms(1_260), dirty: true, firstReadsDone: true) != .draw)
    #expect(p.decide(now: Self.ms(1_510), dirty: true, firstReadsDone: true) == .draw)
  }

  @Test func untilNextFrameSaysHowLongTheBudgetHoldsAFrameBack() {
    var p = Self.started()
    #expect(p.untilNextFrame(now: Self.ms(5_000)) == .zero)
    p.drew(bytes: 3_072, now: Self.ms(1_000))
    // 1,024 bytes owed at 2,048 B/s: half a second, as decide says.
    let wait = p.untilNextFrame(now: Self.ms(1_000))
    #expect(wait >= Self.ms(490) && wait <= Self.ms(510))
    #expect(p.untilNextFrame(now: Self.ms(1_600)) == .zero)
    // A small frame leaves the bucket above zero: only the shortest gap holds the next back.
    var q = Self.started()
    q.drew(bytes: 100, now: Self.ms(2_000))
    #expect(q.untilNextFrame(now: Self.ms(2_010)) == FramePacer.minimumGap - Self.ms(10))
  }

  @Test func aBigFrameHoldsTheNextBackAtMostASecond() {
    var p = Self.started()
    // The first frame of a big screen: 8.5 KB, four seconds of budget.
    p.drew(bytes: 8_500, now: Self.ms(1_000))
    #expect(p.decide(now: Self.ms(1_900), dirty: true, firstReadsDone: true) != .draw)
    #expect(p.decide(now: Self.ms(2_001), dirty: true, firstReadsDone: true) == .draw)
  }

  @Test func framesThatWriteNothingCostNothing() {
    var p = Self.started()
    for t in stride(from: 100, through: 3_000, by: 100) {
      #expect(p.decide(now: Self.ms(t), dirty: true, firstReadsDone: true) == .draw)
      p.drew(bytes: 0, now: Self.ms(t))
    }
    #expect(p.tokens == Double(FramePacer.burst))
  }

  @Test func framesComeNoCloserThanTheShortestGap() {
    var p = Self.started()
    p.drew(bytes: 10, now: Self.ms(1_000))
    #expect(p.decide(now: Self.ms(1_010), dirty: true, firstReadsDone: true) == .wait(Self.ms(20)))
    #expect(p.decide(now: Self.ms(1_030), dirty: true, firstReadsDone: true) == .draw)
  }

  @Test func aStreamOfChangesAveragesNoMoreThanTheBudget() {
    // A change every 10 ms for 60 s, each frame writing 700 bytes: drawn whenever the pacer says.
    var p = Self.started()
    var written = 0
    for t in stride(from: 0, through: 60_000, by: 10) {
      if p.decide(now: Self.ms(t), dirty: true, firstReadsDone: true) == .draw {
        p.drew(bytes: 700, now: Self.ms(t))
        written += 700
      }
    }
    // The budget over 60 s plus the one burst, and no frame's worth more.
    #expect(written <= 60 * FramePacer.bytesPerSecond + FramePacer.burst + 700)
    #expect(written >= 60 * FramePacer.bytesPerSecond - 700)
  }

  @Test func aChangesFrameWaitsBrieflyForTheReadsItStarted() {
    var p = Self.started()
    #expect(p.decide(now: Self.ms(1_000), dirty: true, reading: true, firstReadsDone: true) == .wait(Self.ms(25)))
    #expect(p.decide(now: Self.ms(1_010), dirty: true, reading: true, firstReadsDone: true) == .wait(Self.ms(15)))
    // The reads are in: drawn at once.
    #expect(p.decide(now: Self.ms(1_012), dirty: true, reading: false, firstReadsDone: true) == .draw)
    // Reads that take long do not hold the frame past the limit.
    #expect(p.decide(now: Self.ms(2_000), dirty: true, reading: true, firstReadsDone: true) != .draw)
    #expect(p.decide(now: Self.ms(2_025), dirty: true, reading: true, firstReadsDone: true) == .draw)
  }

  @Test func aKeyIsAnsweredAtOnceEvenWithTheBudgetSpent() {
    var p = Self.started()
    p.drew(bytes: 8_000, now: Self.ms(1_000))
    #expect(p.decide(now: Self.ms(1_001), dirty: true, input: true, firstReadsDone: true) == .draw)
    #expect(p.decide(now: Self.ms(1_001), dirty: true, input: false, firstReadsDone: true) != .draw)
  }

  @Test func aKeysFrameWaitsBrieflyForTheReadsItStartedButNotForTheBudget() {
    var p = Self.started()
    p.drew(bytes: 4_096, now: Self.ms(1_000))
    // The budget is spent, a key's reads are out: the frame waits for them only.
    guard
      case .wait(let wait) = p.decide(
        now: Self.ms(1_000), dirty: true, input: true, reading: true, firstReadsDone: true)
    else {
      Issue.record("a key's frame went before its reads")
      return
    }
    #expect(wait == FramePacer.readsLimit)
    #expect(p.decide(now: Self.ms(1_010), dirty: true, input: true, reading: false, firstReadsDone: true) == .draw)
    // Reads that take longer do not hold it past the limit.
    var q = Self.started()
    _ = q.decide(now: Self.ms(2_000), dirty: true, input: true, reading: true, firstReadsDone: true)
    #expect(q.decide(now: Self.ms(2_030), dirty: true, input: true, reading: true, firstReadsDone: true) == .draw)
  }

  @Test func theFirstFrameWaitsForTheFirstReadsButNotForever() {
    var p = FramePacer(now: .zero)
    #expect(p.decide(now: Self.ms(100), dirty: true, firstReadsDone: false) == .wait(Self.ms(400)))
    #expect(p.decide(now: Self.ms(120), dirty: true, firstReadsDone: true) == .draw)
    var late = FramePacer(now: .zero)
    #expect(late.decide(now: FramePacer.firstFrameLimit, dirty: true, firstReadsDone: false) == .draw)
  }

  @Test func aFirstFrameNeverShowsAPlaceholderCount() async {
    // A source slow to answer: no page comes until the test lets it.
    let q = FakeQueue(writes: AppCoreTests.allWrites())
    let open = Gate()
    q.pageGate = {
      while !open.isOpen { try? await Task.sleep(for: .milliseconds(1)) }
    }
    let d = CoreDriver(q, width: 120, height: 40)
    var pacer = FramePacer(now: .zero)
    // The first frame is held while the pages are read.
    #expect(!d.core.firstReadsDone)
    #expect(pacer.decide(now: Self.ms(50), dirty: true, firstReadsDone: d.core.firstReadsDone) != .draw)
    // Were it drawn now (the reads past the limit), the counts are `…`, never `0`.
    let early = Renderer.render(d.core.state).text
    #expect(early.contains("Waiting …"))
    #expect(!early.contains("Waiting 0") && !early.contains("Answered 0"))
    var ascii = d.core.state
    ascii.ascii = true
    #expect(Renderer.render(ascii).text.contains("Waiting ..."))
    open.open()
    await d.run(until: "the first reads are in") { $0.firstReadsDone }
    #expect(pacer.decide(now: Self.ms(60), dirty: true, firstReadsDone: d.core.firstReadsDone) == .draw)
    let first = Renderer.render(d.core.state).text
    #expect(first.contains("Waiting \(d.core.state[.waiting].total)"))
    #expect(first.contains("Blocked 7"))
    for title in ["Waiting …", "Answered …", "Blocked …", "Dead …"] { #expect(!first.contains(title)) }
  }
}

/// A gate a slow source waits at until the test opens it.
final class Gate: Sendable {
  private let state = Mutex(false)
  var isOpen: Bool { state.withLock { $0 } }
  func open() { state.withLock { $0 = true } }
}
