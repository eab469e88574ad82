import MarfaQueue
import Testing

@testable import VerdictsUI

/// A copy that expired, or whose fill was interrupted, drains nothing: `d` offers to fill it
/// again first (asking, saying what it does), and a refused drain says that `d` is the way out.
@Suite struct FillAgainTests {
  static func expired(width: Int = 80, height: Int = 24, fill: FillState = .expired) -> UIState {
    var s = Fixtures.state(width: width, height: height)
    var st = Fixtures.status
    st.fill = fill
    st.expiredReason = fill == .expired ? "instance_changed" : nil
    st.origin = "http://127.0.0.1:8421"
    _ = s.handle(.status(st))
    return s
  }

  @Test func dOnAnExpiredCopyAsksToFillItAgainAndYFills() {
    var s = Self.expired()
    #expect(s.handle(.key(.char("d"))) == [])
    #expect(s.dialog == .confirm(.fill(from: "http://127.0.0.1:8421")))
    let text = Renderer.render(s).text
    #expect(text.contains("The copy expired: fill it again from http://127.0.0.1:8421?"), "\(text)")
    #expect(text.contains("the queue is kept, and d drains after."), "\(text)")
    #expect(s.handle(.key(.char("y"))) == [.fill])
    #expect(s.dialog == nil && s.message?.text == "filling the copy again…")
  }

  @Test func anyOtherKeyLeavesTheCopyAsItIs() {
    var s = Self.expired(fill: .underway)
    _ = s.handle(.key(.char("d")))
    #expect(Renderer.render(s).text.contains("The copy's fill did not end: fill it again"))
    #expect(s.handle(.key(.char("n"))) == [])
    #expect(s.dialog == nil)
  }

  @Test func dOnAFilledCopyDrainsAtOnce() {
    var s = Fixtures.state()
    #expect(s.handle(.key(.char("d"))) == [.drain])
  }

  @Test(arguments: [(40, 10), (160, 48)])
  func theFillQuestionFitsEachSize(size: (Int, Int)) {
    var s = Self.expired(width: size.0, height: size.1)
    _ = s.handle(.key(.char("d")))
    let text = Renderer.render(s).text
    #expect(text.contains("y fill"), "\(text)")
  }

  @Test func aDrainRefusedForAnExpiredCopySaysDFillsIt() {
    #expect(
      EffectText.wayForward(.drain, QueueError.copyExpired(reason: "instance_changed"))
        == " · d fills it again (asks first)")
    #expect(EffectText.wayForward(.drain, QueueError.readingHandle(reason: "opened to read")) == "")
    #expect(EffectText.wayForward(.take, QueueError.copyExpired(reason: "x")) == "")
  }

  @Test func onTheScreenDThenYFillsTheCopyAgainAndTheNextDDrains() async {
    let q = FakeQueue(writes: AppCoreTests.allWrites())
    q.fillState = .expired
    let d = CoreDriver(q)
    await d.settle()
    await d.keys(.char("d"))
    #expect(!q.callLog.contains("drain"), "an expired copy is not drained unasked")
    await d.keys(.char("y"))
    #expect(q.callLog.contains("fill"))
    #expect(d.core.state.message?.text == "filled the copy again (the queue kept): d drains")
    await d.keys(.char("d"))
    #expect(q.callLog.contains("drain"))
  }
}
