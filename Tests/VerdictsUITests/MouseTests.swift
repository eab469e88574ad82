import MarfaQueue
import Testing

@testable import VerdictsUI

/// A click selects a row and focuses its pane; a click on a title focuses the pane; the wheel
/// scrolls the pane under it.
@Suite struct MouseTests {
  @Test func aClickOnARowSelectsItAndFocusesItsPane() {
    var s = Fixtures.state(width: 120, height: 40, focus: .waiting)
    let frame = s.layout.panes[.blocked]!
    _ = s.handle(.mouse(MouseEvent(.click, x: frame.list.x + 3, y: frame.list.y + 2)))
    #expect(s.focus == .blocked)
    #expect(s.selectedWrite?.id == "b-ancestor")
  }

  @Test func aClickOnAPaneTitleFocusesIt() {
    var s = Fixtures.state(width: 120, height: 40, focus: .waiting)
    let frame = s.layout.panes[.dead]!
    _ = s.handle(.mouse(MouseEvent(.click, x: frame.outer.x + 4, y: frame.outer.y)))
    #expect(s.focus == .dead)
    #expect(s[.dead].selected == 0)
  }

  @Test func theWheelMovesTheSelectionInThePaneUnderIt() {
    var s = Fixtures.state(width: 120, height: 40, focus: .blocked)
    let frame = s.layout.panes[.blocked]!
    _ = s.handle(.mouse(MouseEvent(.wheelDown, x: frame.list.x + 1, y: frame.list.y)))
    #expect(s[.blocked].selected == 3)
    _ = s.handle(.mouse(MouseEvent(.wheelUp, x: frame.list.x + 1, y: frame.list.y)))
    #expect(s[.blocked].selected == 0)
  }

  @Test func aClickBelowTheLastRowSelectsNothingNew() {
    var s = Fixtures.state(width: 120, height: 40, focus: .dead, select: 1)
    let frame = s.layout.panes[.dead]!
    _ = s.handle(.mouse(MouseEvent(.click, x: frame.list.x + 1, y: frame.list.y + frame.list.height - 1)))
    #expect(s[.dead].selected == 1)
  }

  @Test func theTabLineFocusesAPaneAt40x10() {
    var s = Fixtures.state(width: 40, height: 10, focus: .waiting)
    let tabs = s.layout.tabs!
    _ = s.handle(.mouse(MouseEvent(.click, x: tabs.x + tabs.width * 5 / 8, y: tabs.y)))
    #expect(s.focus == .blocked)
  }

  @Test func theConfigTurnsTheMouseOff() {
    let (config, problems) = UIConfig.read("mouse = off\n")
    #expect(problems.isEmpty && config.mouse == false)
  }
}
