import MarfaQueue
import Testing

@testable import VerdictsUI

/// The `R` menu lists only the reasons that hold writes, each with its count under its own digit,
/// and fits the screen.
@Suite struct ReasonMenuTests {
  static let counts: [BlockedReason: Int] = [.keySpent: 2, .failingAlone: 12, .instanceChanged: 1]

  func menu(width: Int, height: Int) -> UIState {
    var s = Fixtures.state(width: width, height: height, focus: .blocked, select: 4)
    #expect(s.handle(.key(.char("R"))) == [.countReasons])
    _ = s.handle(.reasonCounts(Self.counts))
    return s
  }

  @Test func onceCountedTheMenuListsOnlyReasonsHoldingWritesAndKeepsTheSelectedOnesRow() {
    var s = menu(width: 80, height: 24)
    #expect(s.reasonMenu == [.keySpent, .failingAlone, .instanceChanged])
    // b-alone (failing_alone) was selected: its reason stays highlighted.
    #expect(s.dialog == .releaseReason(selected: 1))
    #expect(s.handle(.key(.char("6"))) == [.releaseReason(.instanceChanged)])
  }

  @Test func eachReasonKeepsItsDigitAsOthersEmptyAndAnEmptyOnesDigitReleasesNothing() {
    var s = menu(width: 80, height: 24)
    // key_spent emptied while the menu is up: the others keep their digits.
    _ = s.handle(.reasonCounts([.failingAlone: 12, .instanceChanged: 1]))
    #expect(s.reasonMenu == [.failingAlone, .instanceChanged])
    #expect(s.handle(.key(.char("2"))) == [])
    #expect(s.message?.text == "no write is blocked key_spent now: nothing released")
    #expect(s.dialog != nil, "the menu stays up")
    let text = Renderer.render(s).text
    #expect(text.contains("5 failing_alone") && text.contains("6 instance_changed"), "\(text)")
    #expect(s.handle(.key(.char("6"))) == [.releaseReason(.instanceChanged)])
  }

  @Test func enterReleasesTheHighlightedReasonOfTheShortList() {
    var s = menu(width: 80, height: 24)
    _ = s.handle(.key(.char("j")))
    #expect(s.handle(.key(.enter)) == [.releaseReason(.instanceChanged)])
  }

  @Test func noBlockedWriteClosesTheMenuAndSaysSo() {
    var s = Fixtures.state(focus: .blocked)
    _ = s.handle(.key(.char("R")))
    _ = s.handle(.reasonCounts([:]))
    #expect(s.dialog == nil)
    #expect(s.message?.text == "release by reason: no write is blocked")
  }

  @Test(arguments: [(40, 10), (80, 24), (160, 48)])
  func theMenuWithCountsFitsEachSize(size: (Int, Int)) {
    let s = menu(width: size.0, height: size.1)
    let text = Renderer.render(s).text
    #expect(text.contains("Release blocked by reason"), "\(text)")
    #expect(text.contains("5 failing_alone     12"), "\(text)")
    #expect(text.contains("2 key_spent          2"), "\(text)")
    #expect(!text.contains("credential_refused  "), "\(text)")
    Golden.check("reason-menu-\(size.0)x\(size.1)", ScreenTests.screen(s))
  }

  @Test func theFakeQueueCountsThroughTheEngineDefault() async throws {
    let q = FakeQueue(writes: AppCoreTests.allWrites())
    let counts = try await q.blockedCounts()
    #expect(counts[.failingAlone] == 2)
    #expect(counts.values.reduce(0, +) == 7)
  }
}
