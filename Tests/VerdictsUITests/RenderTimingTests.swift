import TestSupport
import Testing

@testable import VerdictsUI

/// Rough timing of the renderer (printed, not asserted tightly: the machine is shared).
@Suite struct RenderTimingTests {
  @Test(.disabled(if: SanitizerRun.active, "a wall-clock bound: under a sanitizer the code runs 2–20× slower"))
  func aFullFrameIsCheap() {
    var s = Fixtures.state(width: 120, height: 40, focus: .blocked, select: 4)
    s.marks = ["b-cred"]
    let clock = ContinuousClock()
    let frames = 50
    let elapsed = clock.measure { for _ in 0..<frames { _ = Renderer.render(s) } }
    let perFrame = elapsed / frames
    print("render 120x40: \(perFrame) per frame")
    #expect(perFrame < .milliseconds(50))
  }
}
