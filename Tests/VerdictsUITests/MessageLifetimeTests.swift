import Foundation
import MarfaQueue
import Testing

@testable import VerdictsUI

/// A message goes when what it reports is no longer true or another action
/// replaces it; a watcher's refusal fades; the paused count names what it counts; a watcher
/// with no writer's record shows no auto-drain of its own as if it were a writer's.
@Suite struct MessageLifetimeTests {
  static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

  @Test func autoDrainsNextTryGoesOnceADrainRuns() {
    var s = Fixtures.state()
    _ = s.handle(.outcome("auto-drain: next try in 1s", isError: false))
    #expect(s.message?.text == "auto-drain: next try in 1s")
    _ = s.handle(.writer(WriterStatusTests.live(), at: Self.t0))
    #expect(s.message != nil)
    _ = s.handle(.writer(WriterStatusTests.live(drain: WriterStatusTests.draining), at: Self.t0))
    #expect(s.message == nil)
  }

  @Test func aWatchersRefusalFadesFiveSecondsAfterAClockFirstSawIt() {
    var s = Fixtures.state()
    s.readOnlyReason = "opened to read"
    // A clock read long before the key does not count: the refusal's time starts when seen.
    _ = s.handle(.tick(Self.t0))
    _ = s.handle(.key(.char("d")))
    #expect(s.message?.text.hasPrefix("read-only: drain now is not allowed") == true)
    _ = s.handle(.tick(Self.t0.addingTimeInterval(60)))
    #expect(s.message != nil)
    _ = s.handle(.tick(Self.t0.addingTimeInterval(64)))
    #expect(s.message != nil)
    _ = s.handle(.writer(WriterStatusTests.live(), at: Self.t0.addingTimeInterval(65)))
    #expect(s.message == nil)
  }

  @Test func anOrdinaryMessageDoesNotFade() {
    var s = Fixtures.state()
    _ = s.handle(.tick(Self.t0))
    _ = s.handle(.outcome("released 3", isError: false))
    _ = s.handle(.tick(Self.t0.addingTimeInterval(600)))
    #expect(s.message?.text == "released 3")
  }

  @Test func whyADrainStoppedIsSaidOnceNotOnTheStatusLineAndInTheMessage() {
    var s = Fixtures.state(width: 160, height: 48)
    let why = "the instance refused the key (401 unauthorized): 1 row(s) parked until a key works"
    _ = s.handle(.drained(DrainReport(held: 2, stopped: why)))
    #expect(Renderer.render(s).text.components(separatedBy: "unauthorized").count == 2)
    _ = s.handle(
      .outcome("drained: answered 0, held 2, undelivered 0, unsent 0, unmade 0; stopped: \(why)", isError: true))
    let text = Renderer.render(s).text.split(separator: "\n").joined(separator: " ")
    #expect(text.components(separatedBy: "unauthorized").count == 2, "\(text)")
  }

  @Test func thePausedCountSaysItCountsChanges() {
    var s = Fixtures.state(width: 120, height: 40)
    _ = s.handle(.key(.char("Z")))
    for _ in 0..<3 { _ = s.handle(.changed) }
    let text = Renderer.render(s).text
    #expect(text.contains("PAUSED (3 changes not shown)"), "\(text)")
    #expect(!text.contains("waiting)"))
  }

  @Test func aWatcherWithNoWritersRecordShowsNoAutoDrainOfItsOwn() {
    var s = Fixtures.state(width: 160, height: 48)
    s.readOnlyReason = "opened to read"
    #expect(!Renderer.render(s).text.contains("auto-drain"))
    var w = Fixtures.state(width: 160, height: 48)
    w.readOnlyReason = nil
    #expect(Renderer.render(w).text.contains("auto-drain off"))
  }
}
