import MarfaQueue
import Testing

@testable import VerdictsUI

/// Answered's tail mode: while on, the newest verdict is selected and on screen as pages arrive;
/// `T` toggles it; moving the selection by hand stops it.
@Suite struct TailTests {
  static func answered(_ n: Int, from: Int = 0) -> [QueuedWrite] {
    (from..<(from + n)).map { Fixtures.write("a-\($0)", verdict: .accepted) }
  }

  static func tailingState() -> UIState {
    var s = UIState(width: 120, height: 40)
    s.tailing = true
    s.focus = .answered
    return s
  }

  @Test func aPageOfAnsweredSelectsItsNewestWriteWhileTailing() {
    var s = Self.tailingState()
    _ = s.handle(.loaded(QueuePage(pane: .answered, offset: 0, writes: Self.answered(5), total: 5)))
    #expect(s[.answered].selected == 4)
    #expect(s.selectedWrite?.id == "a-4")
  }

  @Test func whenVerdictsLandBeyondTheLoadedPageTheTailAsksForThePageThatHoldsTheNewest() {
    var s = Self.tailingState()
    _ = s.handle(.loaded(QueuePage(pane: .answered, offset: 0, writes: Self.answered(5), total: 5)))
    let effects = s.handle(.loaded(QueuePage(pane: .answered, offset: 0, writes: Self.answered(5), total: 300)))
    #expect(s[.answered].selected == 299)
    #expect(s[.answered].top > 250)
    guard case .reload(.answered, let offset, _)? = effects.first else {
      Issue.record("no reload of Answered: \(effects)")
      return
    }
    #expect(offset > 250)
  }

  @Test func withoutTheTailTheSelectionStaysWhereItWas() {
    var s = Self.tailingState()
    s.tailing = false
    _ = s.handle(.loaded(QueuePage(pane: .answered, offset: 0, writes: Self.answered(5), total: 5)))
    #expect(s[.answered].selected == 0)
  }

  @Test func movingTheSelectionByHandStopsTheTailAndTTailsAgain() {
    var s = Self.tailingState()
    _ = s.handle(.loaded(QueuePage(pane: .answered, offset: 0, writes: Self.answered(5), total: 5)))
    _ = s.handle(.key(.char("k")))
    #expect(!s.tailing)
    #expect(s[.answered].selected == 3)
    _ = s.handle(.loaded(QueuePage(pane: .answered, offset: 0, writes: Self.answered(6), total: 6)))
    #expect(s[.answered].selected == 3, "a stopped tail leaves the selection alone")
    _ = s.handle(.key(.char("T")))
    #expect(s.tailing)
    #expect(s[.answered].selected == 5)
    _ = s.handle(.key(.char("T")))
    #expect(!s.tailing)
  }

  @Test func aWatcherTailsByDefaultAndTheWriterDoesNot() {
    let reader = FakeQueue(writes: [], handle: .reader(reason: "watching"))
    #expect(VerdictsApp.prepare(source: reader, options: AppOptions()).state.tailing)
    let writer = FakeQueue(writes: [])
    #expect(!VerdictsApp.prepare(source: writer, options: AppOptions()).state.tailing)
  }
}
