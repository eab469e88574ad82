import Foundation
import MarfaQueue
import Testing

@testable import VerdictsUI

/// Every action that takes more than one write asks, saying how many and
/// listing the first few, `R` included; `and N more` only ever follows the writes listed (the
/// `t` dialog read `Take up to 600 answered writes?` with `and 597 more` and no write above it).
@Suite struct ConfirmListScreenTests {
  func press(_ s: inout UIState, _ keys: Key...) -> [UIEffect] {
    keys.flatMap { s.handle(.key($0)) }
  }

  static func lines(_ s: UIState) -> [String] {
    Renderer.render(s).text.split(separator: "\n").map(String.init)
  }

  /// Whether every `and N more` on the screen comes right after a listed write.
  static func moreFollowsAWrite(_ lines: [String], ids: [String]) -> Bool {
    for (i, line) in lines.enumerated() where line.contains(" more") && line.contains("and ") {
      guard i > 0, ids.contains(where: { lines[i - 1].contains($0) }) else { return false }
    }
    return true
  }

  @Test(arguments: [(40, 10), (80, 24), (160, 48)])
  func takeListsTheFirstWritesItWouldTakeBeforeAndUpToNMore(size: (Int, Int)) {
    var s = Fixtures.state(width: size.0, height: size.1, focus: .answered)
    var status = Fixtures.status
    status.counts.answered = 600
    _ = s.handle(.status(status))
    let asked = press(&s, .char("t"))
    #expect(asked == [.examples(.take(answered: 600))])
    // Until the store says which, no count of "more" is shown.
    let reading = Self.lines(s).joined(separator: "\n")
    #expect(reading.contains("Take up to 600 answered writes?"), "\(reading)")
    #expect(!reading.contains(" more"), "\(reading)")
    _ = s.handle(.examples(["w-accept", "w-merged", "w-confl"], for: .take(answered: 600)))
    let lines = Self.lines(s)
    let text = lines.joined(separator: "\n")
    #expect(text.contains("w-accept"), "\(text)")
    #expect(text.contains("more"), "\(text)")
    #expect(Self.moreFollowsAWrite(lines, ids: ["w-accept", "w-merged", "w-confl"]), "\(text)")
    #expect(text.contains("y take"), "\(text)")
    Golden.check("confirm-take-\(size.0)x\(size.1)", ScreenTests.screen(s))
  }

  @Test(arguments: [(40, 10), (80, 24), (160, 48)])
  func releaseByReasonAsksSayingHowManyAndListingTheFirst(size: (Int, Int)) {
    var s = Fixtures.state(width: size.0, height: size.1, focus: .blocked)
    _ = press(&s, .char("R"))
    _ = s.handle(.reasonCounts([.keySpent: 12, .failingAlone: 1]))
    // key_spent is the first row: 12 writes, so it asks.
    #expect(press(&s, .enter) == [.examples(.releaseReason(.keySpent, count: 12))])
    _ = s.handle(.examples(["b-spent", "b-spent-2", "b-spent-3"], for: .releaseReason(.keySpent, count: 12)))
    let lines = Self.lines(s)
    let text = lines.joined(separator: "\n")
    #expect(text.contains("Release 12 writes blocked key_spent?") || size.0 < 60, "\(text)")
    #expect(text.contains("b-spent"), "\(text)")
    #expect(Self.moreFollowsAWrite(lines, ids: ["b-spent"]), "\(text)")
    #expect(text.contains("y release"), "\(text)")
    Golden.check("confirm-release-reason-\(size.0)x\(size.1)", ScreenTests.screen(s))
    #expect(press(&s, .char("y")) == [.releaseReason(.keySpent)])
  }

  @Test func aReasonHoldingOneWriteGoesAtOnceAndConfirmBulkOffNeverAsks() {
    var s = Fixtures.state(focus: .blocked)
    _ = press(&s, .char("R"))
    _ = s.handle(.reasonCounts([.keySpent: 12, .failingAlone: 1]))
    #expect(press(&s, .char("5")) == [.releaseReason(.failingAlone)])
    s.confirmBulk = false
    _ = press(&s, .char("R"))
    _ = s.handle(.reasonCounts([.keySpent: 12, .failingAlone: 1]))
    #expect(press(&s, .char("2")) == [.releaseReason(.keySpent)])
  }

  @Test func aCancelledDialogsWordsAreNotLeftUnderTheNextDialog() {
    var s = Fixtures.state(focus: .blocked, select: 2)
    _ = press(&s, .char("w"), .char("n"))
    #expect(s.message?.text == "withdraw cancelled")
    _ = press(&s, .char("w"))
    #expect(s.message == nil)
    #expect(!Self.lines(s).joined().contains("cancelled"))
  }

  @Test func theExamplesOfADialogAlreadyGoneAreNotShownInTheNext() {
    var s = Fixtures.state(focus: .answered)
    _ = press(&s, .char("t"), .char("n"), .char("t"))
    _ = s.handle(.examples(["w-accept"], for: .releaseReason(.keySpent, count: 3)))
    #expect(s.dialogExamples == nil)
  }

  @Test func theAppReadsTheFirstWritesATakeWouldTakeFromItsSource() async throws {
    let q = FakeQueue(writes: AppCoreTests.allWrites())
    let examples = try await q.examples(for: .take(answered: 5))
    // Accepted, merged and conflicted go; a refused write with content stays (the engine's rule).
    #expect(examples == ["w-accept", "w-merged", "w-confl"])
    let blocked = try await q.examples(for: .releaseReason(.failingAlone, count: 2))
    #expect(blocked == ["b-alone", "b-escapes"])
  }
}
