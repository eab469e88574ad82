import Foundation
import MarfaQueue
import TestSupport
import Testing

@testable import VerdictsCommand
@testable import VerdictsUI

@Suite struct DemoTourTests {
  @Test(.disabled(if: SanitizerRun.active, "a wall-clock bound: under a sanitizer the code runs 2–20× slower"))
  func theTourBringsEveryPaneAndEveryBlockedReasonOnScreen() async throws {
    let demo = try await DemoDriver.start(storePath: nil)
    defer { demo.stop() }
    let started = Date()
    await demo.walkTour(pause: 0.05) { _ in }
    // The walk's own pauses come to about 2 s; alone it takes under 1 s. The bound catches a hang or
    // a step that waits out a timeout, not speed (the demo's speed is for the bench): 10 s failed
    // on two cores shared with the other suites' process-spawning tests (12–18 s seen), and 30 s
    // once the hostile-input suites (a drain stopped 12 s, forty-second lock probes) ran beside it (69 s
    // seen, 4.5 s alone): 120 s still catches a hang.
    #expect(Date().timeIntervalSince(started) < 120)
    let all = try await demo.copy.queue.all()
    let counts = try await demo.copy.queue.counts()
    #expect(counts.waiting > 0 && counts.answered > 0 && counts.blocked > 0 && counts.dead > 0, "\(counts)")
    let reasons = Set(all.compactMap { $0.verdict?.blockedReason })
    #expect(reasons == Set(BlockedReason.allCases), "\(reasons)")
    let verdicts = Set(all.compactMap { $0.verdict?.wireName })
    #expect(verdicts == ["accepted", "merged", "conflicted", "refused", "blocked", "dead"])
    #expect(all.contains { $0.waiting })
    // The resolutions the tour offers: the second key, a release that lands, a withdraw, a discard.
    try await demo.copy.useKey(DemoDriver.secondKey)
    _ = try await demo.copy.queue.drain()
    let keyed = try #require(try await demo.copy.queue.all().first { $0.itemId == "tour-keyed" })
    #expect(keyed.verdict == .accepted)
    let moved = try #require(all.first { $0.itemId == "tour-moved" })
    #expect(try await demo.copy.queue.release(moved.id))
    let failing = try #require(all.first { $0.itemId == "tour-failing" && $0.kind == .createItem })
    #expect(try await demo.copy.queue.release(failing.id))
    _ = try await demo.copy.queue.drain()
    #expect(try await demo.copy.queue.write(moved.id).verdict == .accepted)
    // It was queued against the instance before the switch: released, it is blocked
    // instance_changed first; a second release re-stamps it and it lands.
    #expect(try await demo.copy.queue.write(failing.id).verdict?.blockedReason == .instanceChanged)
    #expect(try await demo.copy.queue.release(failing.id))
    _ = try await demo.copy.queue.drain()
    #expect(try await demo.copy.queue.write(failing.id).verdict == .accepted)
    let overtaken = try #require(all.first { $0.itemId == "tour-overtaken" })
    #expect(try await demo.copy.queue.withdraw(overtaken.id))
    let invalid = try #require(all.first { $0.itemId == "tour-invalid" })
    #expect(try await demo.copy.queue.discard(invalid.id))
  }
}

/// The demo's guide: short steps (two lines of its box at 80 columns) that name the tour's keys.
@Suite struct DemoGuideTests {
  @Test func eachStepOfTheDemosGuideFitsTwoLinesAndTheyNameTheSecondKey() {
    #expect(DemoDriver.guide.count >= 5)
    // The guide's box at 80 columns: 76 wide, its text 72.
    for step in DemoDriver.guide { #expect(Renderer.wordWrap(step, width: 72).count <= 2, "\(step)") }
    #expect(DemoDriver.guide.contains { $0.contains(DemoDriver.secondKey) })
    #expect(DemoDriver.guide.contains { $0.contains("instance_changed") && $0.contains("403") })
  }
}
