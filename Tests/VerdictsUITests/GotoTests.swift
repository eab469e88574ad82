import MarfaQueue
import Testing

@testable import VerdictsUI

/// `:` goes to a typed ID, `J` jumps to the write the selected one waits on, `backspace` returns.
@Suite struct GotoTests {
  static let created = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"

  func press(_ s: inout UIState, _ keys: Key...) -> [UIEffect] {
    keys.flatMap { s.handle(.key($0)) }
  }

  @Test func colonOpensAPromptWhoseEnterAsksToGoToTheTypedID() {
    var s = Fixtures.state()
    _ = press(&s, .char(":"))
    #expect(s.prompt?.kind == .goto)
    let effects = press(
      &s, .char("…"), .char("2"), .char("e"), .char("3"), .char("f"), .char("4"), .char("a"), .char("5"), .char("b"),
      .enter)
    #expect(effects == [.goto("…2e3f4a5b")])
    #expect(s.prompt == nil)
  }

  @Test func anEmptyGoToIsRefusedAndEscCancels() {
    var s = Fixtures.state()
    #expect(press(&s, .char(":"), .enter).isEmpty)
    #expect(s.message?.isError == true)
    _ = press(&s, .char(":"), .char("a"), .escape)
    #expect(s.prompt == nil)
    #expect(s.message?.text == "go to cancelled")
  }

  @Test func jumpGoesToTheWriteItWaitsOnAndBackspaceReturns() {
    var s = Fixtures.state(focus: .waiting, select: 1)
    #expect(s.selectedWrite?.id == "w-held")
    #expect(press(&s, .char("J")) == [.goto(Self.created)])
    _ = s.handle(.wentTo(id: Self.created, pane: .waiting, index: 0))
    #expect(s.selectedWrite?.id == Self.created)
    #expect(s.trail == ["w-held"])
    #expect(s.message?.text == "at …2e3f4a5b in Waiting (backspace returns)")
    #expect(press(&s, .backspace) == [.goto("w-held")])
    _ = s.handle(.wentTo(id: "w-held", pane: .waiting, index: 1))
    #expect(s.selectedWrite?.id == "w-held")
    #expect(s.trail.isEmpty)
  }

  @Test func enterInTheDetailOfAHeldWriteJumpsToTheWriteItWaitsOn() {
    var s = Fixtures.state(focus: .waiting, select: 1)
    _ = press(&s, .enter)
    #expect(s.detailFocused)
    #expect(press(&s, .enter) == [.goto(Self.created)])
    _ = s.handle(.wentTo(id: Self.created, pane: .waiting, index: 0))
    #expect(s.selectedWrite?.id == Self.created)
    #expect(!s.detailFocused)
    #expect(s.trail == ["w-held"])
  }

  @Test func theDetailOfAHeldWriteSaysEnterJumpsAndEscGoesBack() {
    var s = Fixtures.state(focus: .waiting, select: 1)
    _ = press(&s, .enter)
    let hints = Renderer(state: s).hints().plain
    #expect(hints.contains("enter jump"))
    #expect(hints.contains("esc back"))
    #expect(!hints.contains("clear"))
  }

  @Test func enterInTheDetailOfAWriteThatWaitsOnNothingGivesTheFocusBack() {
    var s = Fixtures.state(focus: .answered, select: 0)
    _ = press(&s, .enter)
    #expect(s.detailFocused)
    #expect(press(&s, .enter).allSatisfy { if case .goto = $0 { false } else { true } })
    #expect(!s.detailFocused)
  }

  @Test func aGoToFocusesThePaneTheWriteIsIn() {
    var s = Fixtures.state(focus: .waiting, select: 1)
    _ = press(&s, .char(":"), .char("w"), .enter)
    _ = s.handle(.wentTo(id: "w-refused", pane: .answered, index: 3))
    #expect(s.focus == .answered)
    #expect(s.selectedWrite?.id == "w-refused")
    #expect(s.trail == ["w-held"])
  }

  @Test func jumpOnAWriteThatWaitsOnNothingSaysSo() {
    var s = Fixtures.state(focus: .answered, select: 0)
    #expect(press(&s, .char("J")).isEmpty)
    #expect(s.message == StatusMessage("jump: w-accept waits on no write", isError: true))
  }

  @Test func backWithNothingToReturnToSaysSo() {
    var s = Fixtures.state()
    #expect(press(&s, .backspace).isEmpty)
    #expect(s.message?.isError == true)
  }

  @Test func aWriteTheFilterHidesIsNamedAndTheSelectionStays() {
    var s = Fixtures.state(focus: .waiting, select: 1)
    _ = press(&s, .char("J"))
    _ = s.handle(.wentTo(id: Self.created, pane: nil, index: nil))
    #expect(s.selectedWrite?.id == "w-held")
    #expect(s.trail.isEmpty)
    #expect(s.message?.text.contains("hidden by the filter") == true)
  }
}
