import Foundation
import MarfaQueue
import Testing

@testable import VerdictsUI

/// `u` right after a discard, forget or take puts back what it took out, the action named on the
/// status line; with nothing to undo, or after another action, it says so.
@Suite struct UndoKeyTests {
  @Test func uRightAfterADiscardPutsTheWriteBackInItsPlaceAndNamesTheAction() async {
    let q = FakeQueue(writes: AppCoreTests.allWrites())
    let before = q.all.map(\.id)
    let d = CoreDriver(q)
    let core = d.core
    await d.settle()
    await d.keys(.char("2"), .down, .down, .down, .char("x"), .char("y"))
    #expect(core.state.message == StatusMessage("discarded w-refused · u undoes the discard"))
    #expect(!q.all.map(\.id).contains("w-refused"))
    await d.keys(.char("u"))
    #expect(core.state.message == StatusMessage("undid the discard: put back w-refused in its place"))
    #expect(q.all.map(\.id) == before)
    #expect(q.calls.contains("undo w-refused"))
    // Once used, the offer is gone.
    await d.keys(.char("u"))
    #expect(core.state.message?.isError == true)
    #expect(core.state.message?.text.hasPrefix("nothing to undo") == true)
  }

  @Test func discardingSeveralMarkedWritesSaysHowManyAndUPutsEveryOneBack() async {
    let q = FakeQueue(writes: AppCoreTests.allWrites())
    let before = q.all.map(\.id)
    let d = CoreDriver(q)
    await d.settle()
    await d.keys(.char("2"), .down, .down, .down, .char(" "), .down, .char(" "), .char("x"), .char("y"))
    #expect(d.core.state.message == StatusMessage("discarded 2 · u undoes the discard"))
    #expect(!q.all.map(\.id).contains("w-refused") && !q.all.map(\.id).contains("w-trashed"))
    await d.keys(.char("u"))
    #expect(d.core.state.message == StatusMessage("undid the discard: put back 2 of 2 in its place"))
    // Each back (the test's queue puts them back one after another; a store, by send order).
    #expect(Set(q.all.map(\.id)) == Set(before))
  }

  @Test func withdrawingSeveralMarkedWritesSaysHowManyNotTheLastOne() async {
    let q = FakeQueue(writes: AppCoreTests.allWrites())
    let d = CoreDriver(q)
    await d.settle()
    await d.keys(.char("3"), .down, .down, .char(" "), .down, .char(" "), .char("w"), .char("y"))
    #expect(d.core.state.message?.text == "withdrew 2", "\(String(describing: d.core.state.message))")
    #expect(!q.all.map(\.id).contains("b-ancestor") && !q.all.map(\.id).contains("b-conflict"))
  }

  @Test func uAfterATakePutsBackEveryWriteItTook() async {
    let q = FakeQueue(writes: AppCoreTests.allWrites())
    let before = q.all.map(\.id)
    let d = CoreDriver(q)
    await d.settle()
    await d.keys(.char("t"), .char("y"))
    #expect(d.core.state.message == StatusMessage("took 4 answered · u undoes the take"))
    await d.keys(.char("u"))
    #expect(d.core.state.message == StatusMessage("undid the take: put back 4 of 4 in its place"))
    #expect(q.all.map(\.id) == before)
  }

  @Test func anotherActionEndsTheOfferAndANewStartHasNone() async {
    let q = FakeQueue(writes: AppCoreTests.allWrites())
    let d = CoreDriver(q)
    await d.settle()
    await d.keys(.char("u"))
    #expect(
      d.core.state.message
        == StatusMessage(
          "nothing to undo: u puts back the last discard, forget, take or release, right after it", isError: true)
    )
    await d.keys(.char("2"), .char("g"), .char("f"))
    #expect(d.core.state.undoOffer != nil)
    // A release asked (whatever it does) is another action on the queue.
    await d.keys(.char("3"), .char("r"))
    #expect(d.core.state.undoOffer == nil)
    await d.keys(.char("u"))
    #expect(d.core.state.message?.text.hasPrefix("nothing to undo") == true)
  }

  @Test func uIsRefusedReadOnly() {
    var s = UIState(width: 80, height: 24)
    s.readOnlyReason = "another process holds the writer role"
    s.undoOffer = UndoOffer(action: "discard", ids: ["w"])
    #expect(s.perform(.undo).isEmpty)
    #expect(s.message?.isError == true)
    #expect(s.message?.text.hasPrefix("read-only: undo the last discard") == true)
  }

  @Test func uRightAfterAReleaseByReasonLaysItsWritesBackAsTheyWere() async {
    let q = FakeQueue(writes: AppCoreTests.allWrites())
    let d = CoreDriver(q)
    await d.settle()
    let blockedBefore = q.all.filter { $0.verdict?.blockedReason == .failingAlone }
    #expect(blockedBefore.count == 2)
    await d.keys(.char("R"))
    await d.keys(.char("5"), .char("y"))
    let stillBlocked = q.all.filter { $0.verdict?.blockedReason == .failingAlone }
    #expect(stillBlocked.isEmpty)
    #expect(d.core.state.undoOffer?.action == "release")
    await d.keys(.char("u"))
    #expect(d.core.state.message == StatusMessage("undid the release: 2 back as they were"))
    let blockedAfter = q.all.filter { $0.verdict?.blockedReason == .failingAlone }
    #expect(blockedAfter == blockedBefore)
    #expect(d.core.state.undoOffer == nil)
  }
}
