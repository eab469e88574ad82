import Foundation
import MarfaQueue
import Testing

@testable import VerdictsUI

/// A refused write among hundreds of accepted ones is seen: Answered's title
/// counts them (`Answered 601 · 1 refused`) and `!` shows only them (again, every write).
@Suite struct RefusedCountScreenTests {
  static func withRefused(_ n: Int, answered: Int = 5, width: Int = 120, height: Int = 40) -> UIState {
    var s = Fixtures.state(width: width, height: height)
    var status = Fixtures.status
    status.refused = n
    status.counts.answered = answered
    _ = s.handle(.status(status))
    return s
  }

  @Test func answeredsTitleCountsTheRefused() {
    let text = Renderer.render(Self.withRefused(2)).text
    #expect(text.contains("Answered 5 · 2 refused"), "\(text)")
    #expect(!Renderer.render(Self.withRefused(0)).text.contains("refused ─"))
  }

  @Test func bangShowsOnlyTheRefusedInAnsweredAndAgainShowsEveryWrite() {
    var s = Self.withRefused(2)
    let effects = s.handle(.key(.char("!")))
    #expect(s.filter == "verdict:refused")
    #expect(s.focus == .answered)
    #expect(effects.contains { if case .reload(.answered, _, _) = $0 { true } else { false } })
    #expect(s.message?.text.hasPrefix("refused writes only") == true)
    _ = s.handle(.key(.char("!")))
    #expect(s.filter == nil)
    #expect(s.message?.text.hasPrefix("every write again") == true)
  }

  @Test func aWatcherMayShowTheRefusedToo() {
    var s = Self.withRefused(1)
    s.readOnlyReason = "opened to read"
    _ = s.handle(.key(.char("!")))
    #expect(s.filter == "verdict:refused")
  }

  @Test func refusedCountsAreDrawnAtEachSize() {
    for (w, h) in [(80, 24), (160, 48)] {
      Golden.check("answered-refused-\(w)x\(h)", ScreenTests.screen(Self.withRefused(2, width: w, height: h)))
    }
  }
}
