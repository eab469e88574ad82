import MarfaQueue
import Testing

@testable import VerdictsUI

/// A guide (the demo's first minutes) shows its steps one at a time over what the person is not
/// looking at: `n` next, `p` back, `esc` closes it, and every other key works as always.
@Suite struct GuideTests {
  static func guided(width: Int = 80, height: Int = 24) -> UIState {
    var s = Fixtures.state(width: width, height: height, focus: .blocked)
    s.guide = ["First: the four panes.", "Second: the detail.", "Third: the keys."]
    s.guideStep = 0
    return s
  }

  @Test func nAndPStepThroughTheGuideAndNOnTheLastClosesIt() {
    var s = Self.guided()
    var text = Renderer.render(s).text
    #expect(text.contains("Guide 1 of 3") && text.contains("First: the four panes.") && text.contains("n next"))
    #expect(s.handle(.key(.char("n"))) == [])
    #expect(Renderer.render(s).text.contains("Second: the detail."))
    _ = s.handle(.key(.char("p")))
    #expect(s.guideStep == 0)
    _ = s.handle(.key(.char("n")))
    _ = s.handle(.key(.char("n")))
    text = Renderer.render(s).text
    #expect(text.contains("Guide 3 of 3") && text.contains("n closes"), "\(text)")
    _ = s.handle(.key(.char("n")))
    #expect(s.guideStep == nil && !Renderer.render(s).text.contains("Guide"))
  }

  @Test func escClosesTheGuideAndSaysWhereTheKeysAre() {
    var s = Self.guided()
    _ = s.handle(.key(.escape))
    #expect(s.guideStep == nil)
    #expect(s.message?.text == "guide closed: ? lists every key")
  }

  @Test func everyOtherKeyDoesWhatItAlwaysDoesAndTheGuideStays() {
    var s = Self.guided()
    let before = s[.blocked].selected
    _ = s.handle(.key(.char("j")))
    #expect(s[.blocked].selected == before + 1)
    #expect(s.guideStep == 0)
  }

  @Test func theGuideLeavesTheFocusedPaneAndItsSelectionInSight() {
    let s = Self.guided()
    let grid = Renderer.render(s)
    let lines = grid.text.split(separator: "\n", omittingEmptySubsequences: false)
    let selected = try? #require(s.selectedWrite)
    #expect(lines.contains { $0.contains("Guide 1 of 3") })
    #expect(lines.contains { line in selected.map { line.contains(ShortID.of($0.id)) } ?? false }, "\(grid.text)")
  }

  @Test(arguments: [(40, 10), (160, 48)])
  func theGuideFitsEachSize(size: (Int, Int)) {
    let s = Self.guided(width: size.0, height: size.1)
    #expect(Renderer.render(s).text.contains("Guide 1 of 3"))
  }
}
