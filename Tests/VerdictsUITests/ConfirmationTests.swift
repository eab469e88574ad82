import MarfaQueue
import Testing

@testable import VerdictsUI

/// `t`, and any release or forget of more than one write, ask first saying how many; a single
/// write goes at once; the config turns each confirmation off.
@Suite struct ConfirmationTests {
  func press(_ s: inout UIState, _ keys: Key...) -> [UIEffect] {
    keys.flatMap { s.handle(.key($0)) }
  }

  @Test func takeAsksSayingHowManyAnsweredAndAnyOtherKeyCancels() {
    var s = Fixtures.state(focus: .answered)
    // The engine chooses what a take takes: the first few are asked of the store to be listed.
    #expect(press(&s, .char("t")) == [.examples(.take(answered: 5))])
    #expect(s.dialog == .confirm(.take(answered: 5)))
    let screen = Renderer.render(s).text
    #expect(screen.contains("Take up to 5 answered writes?"), "\(screen)")
    #expect(press(&s, .char("n")).isEmpty)
    #expect(s.dialog == nil)
    #expect(s.message?.text == "take cancelled")
  }

  @Test func takeGoesAtOnceWhenConfirmTakeIsOff() {
    var s = Fixtures.state(focus: .answered)
    s.confirmTake = false
    #expect(press(&s, .char("t")) == [.take])
  }

  @Test func forgettingTwoMarkedAsksAndYForgetsBoth() {
    var s = Fixtures.state(focus: .answered)
    _ = press(&s, .char(" "), .down, .char(" "))
    #expect(press(&s, .char("f")).isEmpty)
    #expect(s.dialog == .confirm(.forget(["w-accept", "w-merged"])))
    #expect(Renderer.render(s).text.contains("Forget 2 writes?"))
    #expect(press(&s, .char("y")) == [.forget(["w-accept", "w-merged"])])
    #expect(s.marks.isEmpty)
  }

  @Test func oneMarkedWriteGoesWithoutAsking() {
    var s = Fixtures.state(focus: .blocked)
    _ = press(&s, .char(" "))
    #expect(press(&s, .char("r")) == [.release(["b-cred"])])
  }

  @Test func bulkGoesAtOnceWhenConfirmBulkIsOff() {
    var s = Fixtures.state(focus: .blocked)
    s.confirmBulk = false
    _ = press(&s, .char(" "), .down, .char(" "))
    #expect(press(&s, .char("r")) == [.release(["b-cred", "b-spent"])])
  }

  @Test func theConfigNamesBothConfirmations() {
    let (config, problems) = UIConfig.read("confirm-take = no\nconfirm-bulk = no\n")
    #expect(problems.isEmpty)
    #expect(config.confirmTake == false)
    #expect(config.confirmBulk == false)
  }

  @Test(arguments: [(40, 10), (80, 24), (160, 48)])
  func theBulkReleaseQuestionFitsEachSize(size: (Int, Int)) {
    var s = Fixtures.state(width: size.0, height: size.1, focus: .blocked)
    _ = press(&s, .char(" "), .down, .char(" "), .char("r"))
    let text = Renderer.render(s).text
    #expect(text.contains("Release 2 writes?"), "\(text)")
    #expect(text.contains("y release"), "\(text)")
  }
}
