import Foundation
import MarfaQueue
import Testing

@testable import VerdictsUI

/// The detail holds still while the drain moves the selection (docs/tui.md, "The detail holds
/// still while the drain moves").
@Suite struct DetailHoldTests {
  typealias S = UIState

  /// Waiting's first write was answered: a change, then Waiting's page without it.
  func answerTheFirstWaitingWrite(_ s: inout S) {
    _ = s.handle(.changed)
    let rest = Array(Fixtures.waiting.dropFirst())
    _ = s.handle(.loaded(QueuePage(pane: .waiting, offset: 0, writes: rest, total: rest.count)))
  }

  /// Blocked's first write was released: a change, then Blocked's page without it.
  func releaseTheFirstBlockedWrite(_ s: inout S) {
    _ = s.handle(.changed)
    let rest = Array(Fixtures.blockedWrites.dropFirst())
    _ = s.handle(.loaded(QueuePage(pane: .blocked, offset: 0, writes: rest, total: rest.count)))
  }

  @Test func withSummaryRowsTheDetailSaysItIsReadingThenShowsTheBodyAndKeyReadWhole() {
    var s = Fixtures.state(width: 120, height: 40)
    s.summaryPages = true
    var row = Fixtures.waiting[0]
    let whole = row
    row.body = .null
    row.idempotencyKey = ""
    _ = s.handle(.loaded(QueuePage(pane: .waiting, offset: 0, writes: [row], total: 1)))
    #expect(s.detailWholePending)
    #expect(Renderer.render(s).text.contains("(reading it from the device…)"))
    #expect(!Renderer.render(s).text.contains("idempotency"), "a summary has no key to show")
    _ = s.handle(.detailWhole(whole))
    #expect(!s.detailWholePending)
    #expect(s.detailWrite?.body == whole.body && s.detailWrite?.idempotencyKey == whole.idempotencyKey)
    #expect(!Renderer.render(s).text.contains("(reading it from the device…)"))
    #expect(Renderer.render(s).text.contains("idempotency"))
    // A read of another write's whole does not stand for this one.
    var other = whole
    other.id = "someone-else"
    _ = s.handle(.detailWhole(other))
    #expect(s.detailWholePending)
  }

  @Test("a verdict on the selected write keeps it in the detail and the title names the new selection")
  func aVerdictOnTheSelectedWriteKeepsItInTheDetailAndTheTitleNamesTheNewSelection() {
    var s = Fixtures.state(width: 120, height: 40)
    let first = Fixtures.waiting[0]
    answerTheFirstWaitingWrite(&s)
    #expect(s.selectedWrite?.id == "w-held")
    #expect(s.detailWrite?.id == first.id)
    let screen = Renderer.render(s).text
    #expect(screen.contains("Detail …2e3f4a5b · selection moved to w-held"))
    #expect(screen.contains("create item (create_item)"))
  }

  @Test func theHeldWriteIsShownAsAnyPaneLastReadIt() {
    var s = Fixtures.state()
    answerTheFirstWaitingWrite(&s)
    var accepted = Fixtures.waiting[0]
    accepted.verdict = .accepted
    _ = s.handle(.loaded(QueuePage(pane: .answered, offset: 0, writes: Fixtures.answered + [accepted], total: 6)))
    #expect(s.detailWrite?.verdict == .accepted)
    #expect(s.detailHold != nil)
  }

  @Test func theSelectionRestingShowsItAndAnOlderRestDoesNot() {
    var s = Fixtures.state()
    answerTheFirstWaitingWrite(&s)
    // The drain moves the selection again: the rest counts from this move.
    _ = s.handle(.changed)
    let rest = Array(Fixtures.waiting.dropFirst(2))
    _ = s.handle(.loaded(QueuePage(pane: .waiting, offset: 0, writes: rest, total: rest.count)))
    #expect(s.detailHold?.moves == 1)
    #expect(s.detailWrite?.id == Fixtures.waiting[0].id)
    _ = s.handle(.detailRested(moves: 0))
    #expect(s.detailHold != nil)
    _ = s.handle(.detailRested(moves: 1))
    #expect(s.detailHold == nil)
    #expect(s.detailWrite?.id == "w-undeliv")
    #expect(!Renderer.render(s).text.contains("selection moved"))
  }

  @Test func theSelectionComingBackToTheHeldWriteEndsTheHold() {
    var s = Fixtures.state()
    answerTheFirstWaitingWrite(&s)
    _ = s.handle(.changed)
    _ = s.handle(.loaded(QueuePage(pane: .waiting, offset: 0, writes: Fixtures.waiting, total: 4)))
    #expect(s.detailHold == nil)
    #expect(s.detailWrite?.id == Fixtures.waiting[0].id)
  }

  @Test func aRepaintTheHelpOrPauseLeaveTheHoldToItsRest() {
    var s = Fixtures.state()
    answerTheFirstWaitingWrite(&s)
    for key in [Key.ctrl("l"), .char("?"), .char("j"), .escape, .char("Z")] {
      _ = s.handle(.key(key))
      #expect(s.detailHold != nil, "\(key)")
    }
    _ = s.handle(.detailRested(moves: 0))
    #expect(s.detailHold == nil)
  }

  @Test func aMovementKeyShowsTheSelectionAndMovesFromIt() {
    var s = Fixtures.state()
    answerTheFirstWaitingWrite(&s)
    _ = s.handle(.key(.char("j")))
    #expect(s.detailHold == nil)
    #expect(s.selectedWrite?.id == "w-undeliv" && s.detailWrite?.id == "w-undeliv")
  }

  @Test func anActionKeyWhileHeldShowsTheSelectionAndActsOnlyWhenPressedAgain() {
    var s = Fixtures.state(focus: .blocked)
    releaseTheFirstBlockedWrite(&s)
    let now = Fixtures.blockedWrites[1].id
    #expect(s.detailWrite?.id == Fixtures.blockedWrites[0].id)
    #expect(s.handle(.key(.char("r"))) == [])
    #expect(s.detailHold == nil)
    #expect(
      s.message?.text
        == "the selection moved to \(ShortID.of(now)) while the detail showed \(ShortID.of(Fixtures.blockedWrites[0].id)):"
        + " press r again to release")
    #expect(s.handle(.key(.char("r"))) == [.release([now])])
  }

  @Test func aFocusedDetailHoldsThroughRestAndScrollingUntilItIsLeft() {
    var s = Fixtures.state()
    _ = s.handle(.key(.enter))
    #expect(s.detailFocused)
    answerTheFirstWaitingWrite(&s)
    _ = s.handle(.detailRested(moves: 0))
    #expect(s.detailHold != nil)
    _ = s.handle(.key(.char("j")))
    #expect(s.detailHold != nil && s.detailScroll == 1)
    _ = s.handle(.key(.escape))
    #expect(s.detailHold == nil && !s.detailFocused && s.detailScroll == 0)
    #expect(s.detailWrite?.id == "w-held")
  }

  @Test func enterInAFocusedHeldDetailShowsTheSelectionBeforeItJumps() {
    var s = Fixtures.state(select: 1)
    _ = s.handle(.key(.enter))
    // w-held leaves Waiting: w-undeliv is selected; the detail holds w-held.
    _ = s.handle(.changed)
    let rest = [Fixtures.waiting[0], Fixtures.waiting[2], Fixtures.waiting[3]]
    _ = s.handle(.loaded(QueuePage(pane: .waiting, offset: 0, writes: rest, total: rest.count)))
    #expect(s.detailWrite?.id == "w-held")
    #expect(s.handle(.key(.enter)) == [])
    #expect(s.detailHold == nil && s.detailFocused && s.detailWrite?.id == "w-undeliv")
    #expect(s.message?.text.hasSuffix("press enter again to jump") == true)
  }

  @Test func pagesReadForAKeyOrWhileFollowingNeverHold() {
    // A page that is not read after a change (a scroll, a key) moves nothing under the person.
    var s = Fixtures.state()
    let rest = Array(Fixtures.waiting.dropFirst())
    _ = s.handle(.loaded(QueuePage(pane: .waiting, offset: 0, writes: rest, total: rest.count)))
    #expect(s.detailHold == nil)
    // Following a write, the selection moves with it on purpose.
    var f = Fixtures.state(focus: .blocked, select: 2)
    _ = f.handle(.key(.char("F")))
    releaseTheFirstBlockedWrite(&f)
    #expect(f.detailHold == nil && f.selectedWrite?.id == Fixtures.blockedWrites[2].id)
  }

  @Test func aClickShowsTheSelectionButTheWheelOverTheDetailScrollsTheHeldOne() {
    var s = Fixtures.state()
    answerTheFirstWaitingWrite(&s)
    let detail = s.layout.detail!
    _ = s.handle(.mouse(MouseEvent(.wheelDown, x: detail.x + 2, y: detail.y + 2)))
    #expect(s.detailHold != nil)
    _ = s.handle(.mouse(MouseEvent(.click, x: detail.x + 2, y: detail.y + 2)))
    #expect(s.detailHold == nil)
  }

  @Test func theRestTimerCountsFromTheLastMoveAndRunsOnlyWhileAHoldIsUp() {
    var timer = DetailRestTimer()
    #expect(timer.remaining(nil, detailFocused: false, now: .seconds(1)) == nil)
    var hold = DetailHold(write: Fixtures.waiting[0])
    #expect(timer.remaining(hold, detailFocused: false, now: .seconds(10)) == .seconds(1))
    #expect(timer.remaining(hold, detailFocused: false, now: .milliseconds(10_400)) == .milliseconds(600))
    hold.moves = 1
    #expect(timer.remaining(hold, detailFocused: false, now: .milliseconds(10_500)) == .seconds(1))
    #expect(timer.remaining(hold, detailFocused: false, now: .seconds(12)) == .zero)
    #expect(timer.remaining(hold, detailFocused: true, now: .seconds(12)) == nil)
  }

  @Test func aSteadySlowDrainKeepsTheDetailHeldForTwiceTheGapBetweenItsMoves() {
    var timer = DetailRestTimer()
    var hold = DetailHold(write: Fixtures.waiting[0])
    // The first move: no gap known yet, so the plain second.
    #expect(timer.remaining(hold, detailFocused: false, now: .seconds(10)) == .seconds(1))
    // The hold ended at its rest; the drain's next verdict, 5 s after the first, starts another.
    #expect(timer.remaining(nil, detailFocused: false, now: .seconds(11)) == nil)
    hold = DetailHold(write: Fixtures.waiting[1])
    #expect(timer.remaining(hold, detailFocused: false, now: .seconds(15)) == .seconds(10))
    // The next verdict comes 5 s later, inside the rest: the hold moves, and rests 10 s again.
    hold.moves = 1
    #expect(timer.remaining(hold, detailFocused: false, now: .seconds(20)) == .seconds(10))
    #expect(timer.remaining(hold, detailFocused: false, now: .seconds(29)) == .seconds(1))
    #expect(timer.remaining(hold, detailFocused: false, now: .seconds(30)) == .zero)
  }

  @Test func aDrainThatEndedGivesTheHeldDetailBackAfterTheSecondAtOnce() {
    var timer = DetailRestTimer()
    var hold = DetailHold(write: Fixtures.waiting[0])
    _ = timer.remaining(hold, detailFocused: false, now: .seconds(10))
    hold.moves = 1
    #expect(timer.remaining(hold, detailFocused: false, now: .seconds(14)) == .seconds(8))
    // The writer says its pass ended: 1 s from the last move, not 8.
    #expect(
      timer.remaining(hold, detailFocused: false, drainMoving: false, now: .milliseconds(14_200)) == .milliseconds(800))
  }

  @Test func theLongestRestIsTheStallTimeAndAGapAsLongGetsThePlainSecond() {
    var timer = DetailRestTimer()
    var hold = DetailHold(write: Fixtures.waiting[0])
    _ = timer.remaining(hold, detailFocused: false, now: .seconds(0))
    hold.moves = 1
    #expect(timer.remaining(hold, detailFocused: false, now: .seconds(20)) == DetailRestTimer.longestRest)
    hold.moves = 2
    #expect(timer.remaining(hold, detailFocused: false, now: .seconds(50)) == UIState.detailRest)
    #expect(DetailRestTimer.longestRest == .seconds(Int(WriterRecord.stallSeconds)))
  }

  @Test func theDrainMayMoveUnlessALiveWritersRecordSaysItsPassEnded() {
    var s = Fixtures.state()
    #expect(s.drainMayMove)
    let start = Date(timeIntervalSince1970: 1_000)
    s.writer = WriterRecord(program: "verdicts", mode: "tui", pid: 7, host: "h", startedAt: start)
    #expect(!s.drainMayMove)
    s.writer?.drain = WriterRecord.DrainProgress(startedAt: start, total: 10)
    #expect(s.drainMayMove)
    s.writer?.drain?.endedAt = start
    #expect(!s.drainMayMove)
    s.writer?.drain?.endedAt = nil
    s.writer?.state = .gone
    #expect(!s.drainMayMove)
    s.writer?.state = .live
    s.writer?.unpublished = true
    #expect(s.drainMayMove)
  }
}
