import MarfaQueue
import Testing

@testable import VerdictsUI

/// A filtered screen: each pane's title says how many of how many.
@Suite struct LiveFilterScreenTests {
  @Test(arguments: [(80, 24), (160, 48)])
  func aFilteredScreenCountsEachPaneOfItsWhole(size: (Int, Int)) {
    var s = Fixtures.state(width: size.0, height: size.1, focus: .blocked)
    for c in "/alone" { _ = s.handle(.key(.char(c))) }
    #expect(s.filter == "alone")
    // What the store would answer: the two failing_alone writes of the seven blocked.
    let alone = Fixtures.blockedWrites.filter { $0.verdict?.blockedReason == .failingAlone } + [Fixtures.escapeLaden]
    _ = s.handle(.loaded(QueuePage(pane: .blocked, offset: 0, writes: alone, total: alone.count)))
    for pane in [QueuePane.waiting, .answered, .dead] {
      _ = s.handle(.loaded(QueuePage(pane: pane, offset: 0, writes: [], total: 0)))
    }
    let text = Renderer.render(s).text
    #expect(text.contains("Blocked (2 of 7)"), "\(text)")
    #expect(text.contains("Waiting (0 of 4)"), "\(text)")
    Golden.check("filtered-\(size.0)x\(size.1)", ScreenTests.screen(s))
  }
}
