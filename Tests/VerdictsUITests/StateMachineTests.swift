import MarfaQueue
import Testing

@testable import VerdictsUI

@Suite struct StateMachineTests {
  typealias S = UIState

  func press(_ s: inout S, _ keys: Key...) -> [UIEffect] {
    var out: [UIEffect] = []
    for k in keys { out += s.handle(.key(k)) }
    return out
  }

  func selectBlocked(_ reason: BlockedReason) -> S {
    let index = BlockedReason.allCases.firstIndex(of: reason)!
    return Fixtures.state(focus: .blocked, select: index)
  }

  // MARK: panes and movement

  @Test func tabShiftTabAndDigitsChooseThePane() {
    var s = Fixtures.state()
    _ = press(&s, .tab)
    #expect(s.focus == .answered)
    _ = press(&s, .tab, .tab, .tab)
    #expect(s.focus == .waiting)
    _ = press(&s, .backTab)
    #expect(s.focus == .dead)
    _ = press(&s, .char("2"))
    #expect(s.focus == .answered)
    _ = press(&s, .char("3"))
    #expect(s.focus == .blocked)
    _ = press(&s, .char("4"))
    #expect(s.focus == .dead)
    _ = press(&s, .char("1"))
    #expect(s.focus == .waiting)
    _ = press(&s, .right)
    #expect(s.focus == .answered)
    _ = press(&s, .left)
    #expect(s.focus == .waiting)
  }

  @Test func movementClampsToThePane() {
    var s = Fixtures.state(focus: .answered)
    _ = press(&s, .char("j"), .down)
    #expect(s[.answered].selected == 2)
    _ = press(&s, .char("k"))
    #expect(s[.answered].selected == 1)
    _ = press(&s, .up, .up, .up)
    #expect(s[.answered].selected == 0)
    _ = press(&s, .char("G"))
    #expect(s[.answered].selected == 4)
    _ = press(&s, .char("j"))
    #expect(s[.answered].selected == 4)
    _ = press(&s, .char("g"))
    #expect(s[.answered].selected == 0)
    _ = press(&s, .end)
    #expect(s.selectedWrite?.id == "w-trashed")
    _ = press(&s, .home)
    #expect(s.selectedWrite?.id == "w-accept")
  }

  static func bigPage(offset: Int, count: Int, total: Int) -> QueuePage {
    QueuePage(
      pane: .waiting, offset: offset,
      writes: (offset..<(offset + count)).map { Fixtures.write("big-\($0)", .createItem) }, total: total)
  }

  @Test func movingPastTheLoadedPageAsksForTheNextPageOnly() {
    var s = UIState(width: 80, height: 24)
    let rows = s.layout.rows(.waiting)
    #expect(s.handle(.loaded(Self.bigPage(offset: 0, count: s.pageLimit(.waiting), total: 1_000_000))) == [])
    var effects: [UIEffect] = []
    for _ in 0..<(2 * rows - 1) { effects += press(&s, .down) }
    #expect(effects.isEmpty)
    effects = press(&s, .down)
    #expect(s[.waiting].selected == 2 * rows)
    #expect(effects == [.reload(.waiting, offset: s[.waiting].top, limit: s.pageLimit(.waiting))])
    effects = press(&s, .end)
    #expect(s[.waiting].selected == 999_999)
    #expect(effects == [.reload(.waiting, offset: 1_000_000 - rows, limit: 2 * rows)])
    _ = s.handle(.loaded(Self.bigPage(offset: 1_000_000 - rows, count: rows, total: 1_000_000)))
    #expect(s.selectedWrite?.id == "big-999999")
    effects = press(&s, .pageUp)
    #expect(s[.waiting].selected == 999_999 - rows)
    #expect(effects.count == 1)
  }

  @Test func pageKeysMoveByTheVisibleRows() {
    var s = UIState(width: 120, height: 40)
    let rows = s.layout.rows(.waiting)
    _ = s.handle(.loaded(Self.bigPage(offset: 0, count: 200, total: 200)))
    _ = press(&s, .pageDown)
    #expect(s[.waiting].selected == rows)
    _ = press(&s, .pageDown, .pageUp)
    #expect(s[.waiting].selected == rows)
  }

  @Test func enterFocusesTheDetailWhereMovementScrolls() {
    var s = Fixtures.state(focus: .blocked, select: 4)
    _ = press(&s, .enter)
    #expect(s.detailFocused)
    _ = press(&s, .char("j"), .char("j"), .pageDown)
    #expect(s.detailScroll == 2 + s.layout.detailRows)
    #expect(s[.blocked].selected == 4)
    _ = press(&s, .char("k"))
    #expect(s.detailScroll == 1 + s.layout.detailRows)
    _ = press(&s, .char("g"))
    #expect(s.detailScroll == 0)
    _ = press(&s, .escape)
    #expect(!s.detailFocused)
    _ = press(&s, .enter, .enter)
    #expect(!s.detailFocused)
    _ = press(&s, .enter, .tab)
    #expect(!s.detailFocused && s.focus == .dead)
  }

  // MARK: marks

  @Test func spaceMarksAndVMarksTheWholePane() {
    var s = Fixtures.state(focus: .blocked)
    _ = press(&s, .char(" "))
    #expect(s.marks == ["b-cred"])
    _ = press(&s, .char(" "))
    #expect(s.marks.isEmpty)
    _ = press(&s, .char("V"))
    #expect(s.marks.count == 7)
    _ = press(&s, .char("V"))
    #expect(s.marks.isEmpty)
    _ = press(&s, .char("V"), .escape)
    #expect(s.marks.isEmpty)
  }

  @Test func vOnAPaneLargerThanThePageAsksTheStore() {
    var s = UIState(width: 80, height: 24)
    _ = s.handle(.loaded(Self.bigPage(offset: 0, count: 10, total: 5_000)))
    s.filter = "big"
    #expect(press(&s, .char("V")) == [.markAll(.waiting, filter: "big")])
    _ = s.handle(.marked(["a", "b", "c"]))
    #expect(s.marks == ["a", "b", "c"])
    #expect(s.message?.text == "marked 3")
  }

  @Test func escClearsMarksFilterAndMessage() {
    var s = Fixtures.state()
    s.filter = "alone"
    _ = press(&s, .char(" "))
    let effects = press(&s, .escape)
    #expect(s.marks.isEmpty && s.filter == nil && s.message == nil)
    #expect(effects.count == 5 && effects.last == .loadStatus)
  }

  // MARK: release

  @Test func releaseTheSelectedBlockedOrDeadWrite() {
    var s = selectBlocked(.failingAlone)
    #expect(press(&s, .char("r")) == [.release(["b-alone"])])
    #expect(s.message?.text == "releasing 1…")
    var d = Fixtures.state(focus: .dead)
    #expect(press(&d, .char("r")) == [.release(["d-1"])])
  }

  @Test func releaseRefusesAnAnsweredOrWaitingWrite() {
    var s = Fixtures.state(focus: .answered)
    #expect(press(&s, .char("r")) == [])
    #expect(
      s.message
        == StatusMessage(
          "release: w-accept is accepted; only a blocked or dead write, or one the drain refused unsent, goes again",
          isError: true))
    var w = Fixtures.state(focus: .waiting, select: 1)
    #expect(press(&w, .char("r")) == [])
    #expect(w.message?.isError == true)
  }

  @Test func releaseTheMarkedWritesInBulk() {
    var s = Fixtures.state(focus: .blocked)
    _ = press(&s, .char(" "), .down, .down, .char(" "), .char("4"), .char(" "))
    // More than one write: asked first, saying how many.
    #expect(press(&s, .char("r")) == [])
    #expect(s.dialog == .confirm(.release(["b-ancestor", "b-cred", "d-1"])))
    #expect(press(&s, .char("y")) == [.release(["b-ancestor", "b-cred", "d-1"])])
    #expect(s.marks.isEmpty)
  }

  @Test func markedWritesTheRuleRefusesAreSkippedAndCountedWithTheOutcome() {
    var s = Fixtures.state(focus: .blocked)
    s.marks = ["b-cred", "w-accept", "d-1"]
    // Two writes go: asked first, for the two the rule lets go.
    #expect(press(&s, .char("r")) == [])
    #expect(s.dialog == .confirm(.release(["b-cred", "d-1"])))
    #expect(press(&s, .char("y")) == [.release(["b-cred", "d-1"])])
    #expect(s.marks.isEmpty)
    _ = s.handle(.outcome("released 2", isError: false))
    #expect(
      s.message
        == StatusMessage(
          "released 2; skipped 1 of 3 marked (w-accept is accepted; only a blocked or dead write, or one the drain refused unsent, goes again)"
        ))
    // A marked write the screen has not loaded goes to the engine, which asks the same rule.
    s.marks = ["not-loaded", "w-accept"]
    #expect(press(&s, .char("r")) == [.release(["not-loaded"])])
  }

  @Test func whenTheRuleRefusesEveryMarkedWriteNothingIsAskedAndTheMarksStay() {
    var s = Fixtures.state(focus: .answered)
    s.marks = ["w-accept", "w-merged"]
    #expect(press(&s, .char("r")) == [])
    #expect(s.marks == ["w-accept", "w-merged"])
    #expect(s.message?.isError == true)
    #expect(s.message?.text.hasPrefix("release: none of the 2 marked can be taken (w-accept is accepted") == true)
    s.confirmDiscard = false
    s.marks = ["w-accept", "w-refused"]
    #expect(press(&s, .char("x")) == [.discard(["w-refused"])])
  }

  @Test func releaseByReasonMenu() {
    var s = selectBlocked(.conflictUnresolved)
    #expect(press(&s, .char("R")) == [.countReasons])
    #expect(s.dialog == .releaseReason(selected: 3))
    _ = press(&s, .char("j"), .down, .down)
    #expect(s.dialog == .releaseReason(selected: 5))
    _ = press(&s, .char("k"))
    // Before the counts come, a reason chosen asks first: it may hold many writes.
    #expect(press(&s, .enter) == [.examples(.releaseReason(.failingAlone, count: nil))])
    #expect(s.dialog == .confirm(.releaseReason(.failingAlone, count: nil)))
    #expect(press(&s, .char("y")) == [.releaseReason(.failingAlone)])
    #expect(s.dialog == nil)
    // Counted: one write goes at once, more than one asks.
    _ = press(&s, .char("R"))
    _ = s.handle(.reasonCounts([.credentialRefused: 1, .failingAlone: 2]))
    #expect(press(&s, .char("1")) == [.releaseReason(.credentialRefused)])
    _ = press(&s, .char("R"))
    _ = s.handle(.reasonCounts([.credentialRefused: 1, .failingAlone: 2]))
    #expect(press(&s, .char("5")) == [.examples(.releaseReason(.failingAlone, count: 2))])
    #expect(press(&s, .char("n")) == [])
    _ = press(&s, .char("R"))
    #expect(press(&s, .escape) == [])
    #expect(s.dialog == nil && s.message?.text == "release by reason cancelled")
  }

  // MARK: withdraw and discard ask first

  @Test func withdrawAsksAndYConfirms() {
    var s = selectBlocked(.failingAlone)
    #expect(press(&s, .char("w")) == [])
    #expect(s.dialog == .confirm(.withdraw(["b-alone"])))
    #expect(press(&s, .char("y")) == [.withdraw(["b-alone"])])
    #expect(s.dialog == nil)
  }

  @Test func anyOtherKeyCancelsTheConfirmation() {
    var s = selectBlocked(.instanceChanged)
    _ = press(&s, .char("w"))
    #expect(press(&s, .char("n")) == [])
    #expect(s.dialog == nil && s.message?.text == "withdraw cancelled")
    _ = press(&s, .char("w"))
    #expect(press(&s, .char("q")) == [])
    #expect(s.dialog == nil)
  }

  @Test func withdrawRefusesReasonsItCannotTake() {
    for reason in [BlockedReason.credentialRefused, .keySpent] {
      var s = selectBlocked(reason)
      #expect(press(&s, .char("w")) == [])
      #expect(s.dialog == nil)
      #expect(s.message?.isError == true)
    }
    var a = Fixtures.state(focus: .answered)
    #expect(press(&a, .char("w")) == [])
    #expect(a.message?.text.hasPrefix("withdraw: w-accept is accepted") == true)
  }

  @Test func withdrawWithoutConfirmationWhenTurnedOff() {
    var s = selectBlocked(.ancestorUnavailable)
    s.confirmWithdraw = false
    #expect(press(&s, .char("w")) == [.withdraw(["b-ancestor"])])
  }

  @Test func discardAsksForARefusedWriteOnly() {
    var s = Fixtures.state(focus: .answered, select: 3)
    #expect(press(&s, .char("x")) == [])
    #expect(s.dialog == .confirm(.discard(["w-refused"])))
    #expect(press(&s, .char("Y")) == [.discard(["w-refused"])])
    var b = selectBlocked(.keySpent)
    #expect(press(&b, .char("x")) == [])
    #expect(b.dialog == nil && b.message?.isError == true)
    var off = Fixtures.state(focus: .answered, select: 4)
    off.confirmDiscard = false
    #expect(press(&off, .char("x")) == [.discard(["w-trashed"])])
  }

  @Test func bulkWithdrawAsksOnceAndRunsEach() {
    var s = Fixtures.state(focus: .blocked)
    _ = press(&s, .down, .down, .char(" "), .down, .char(" "))
    _ = press(&s, .char("w"))
    #expect(s.dialog == .confirm(.withdraw(["b-ancestor", "b-conflict"])))
    #expect(press(&s, .char("y")) == [.withdraw(["b-ancestor", "b-conflict"])])
    #expect(s.marks.isEmpty)
  }

  // MARK: take, forget, drain, auto-drain, key

  @Test func takeForgetAndDrain() {
    var s = Fixtures.state(focus: .answered, select: 1)
    #expect(press(&s, .char("t")) == [.examples(.take(answered: 5))])
    #expect(s.dialog == .confirm(.take(answered: 5)))
    #expect(press(&s, .char("y")) == [.take])
    #expect(press(&s, .char("f")) == [.forget(["w-merged"])])
    #expect(press(&s, .char("d")) == [.drain])
    #expect(s.message?.text == "draining…")
    var b = Fixtures.state(focus: .blocked)
    #expect(press(&b, .char("f")) == [])
    #expect(b.message?.isError == true)
  }

  @Test func autoDrainToggles() {
    var s = Fixtures.state()
    #expect(press(&s, .char("a")) == [.toggleAutoDrain(on: true)])
    #expect(s.autoDrain)
    #expect(press(&s, .char("a")) == [.toggleAutoDrain(on: false)])
    #expect(!s.autoDrain)
  }

  @Test func anotherKeyIsTypedMaskedAndNeverKept() {
    var s = Fixtures.state()
    _ = press(&s, .char("K"))
    #expect(s.prompt == Prompt(kind: .key))
    _ = press(&s, .char("s"), .char("k"), .char("-"), .char("x"), .backspace, .char("1"))
    #expect(s.prompt?.text == "sk-1")
    #expect(s.prompt?.shown == "••••")
    let screen = Renderer.render(s).text
    #expect(!screen.contains("sk-1"))
    #expect(screen.contains("new key (hidden): ••••"))
    #expect(press(&s, .enter) == [.useKey("sk-1")])
    #expect(s.prompt == nil)
    #expect(!"\(s)".contains("sk-1"))
    _ = press(&s, .char("K"), .char("z"))
    #expect(press(&s, .escape) == [])
    #expect(s.prompt == nil && s.message?.text == "key unchanged")
    _ = press(&s, .char("K"))
    #expect(press(&s, .enter) == [])
    #expect(s.message?.isError == true)
  }

  // MARK: filter, pause, follow

  @Test func filterNarrowsAsItIsTypedFromTheTopAndEscClearsIt() {
    var s = Fixtures.state(focus: .blocked, select: 3)
    _ = press(&s, .char("/"), .char("a"), .char("l"), .char("o"), .char("n"))
    #expect(s.filter == "alon")
    let effects = press(&s, .char("e"))
    #expect(s.prompt?.text == "alone")
    #expect(s.filter == "alone")
    #expect(s[.blocked].selected == 0)
    #expect(effects.contains(.reload(.blocked, offset: 0, limit: s.pageLimit(.blocked))))
    #expect(effects.count == 5)
    #expect(press(&s, .enter).isEmpty)
    #expect(s.filter == "alone" && s.prompt == nil && s.message?.text == "filter: alone")
    _ = press(&s, .char("/"))
    #expect(s.prompt?.text == "alone")
    _ = press(&s, .ctrl("u"))
    _ = press(&s, .enter)
    #expect(s.filter == nil && s.message?.text == "filter cleared")
    _ = press(&s, .char("/"), .char("x"))
    #expect(s.filter == "x")
    _ = press(&s, .escape)
    #expect(s.filter == nil && s.message?.text == "filter cleared")
  }

  @Test func pauseHoldsThePanesStillUntilResumed() {
    var s = Fixtures.state()
    _ = press(&s, .char("Z"))
    #expect(s.paused)
    #expect(s.handle(.changed) == [])
    #expect(s.handle(.changed) == [])
    #expect(s.pendingChanges == 2)
    let effects = press(&s, .char("Z"))
    #expect(!s.paused && s.pendingChanges == 0)
    #expect(effects.count == 5)
    #expect(s.message?.text == "resumed; 2 change(s) while paused")
    _ = press(&s, .char("Z"), .char("Z"))
    #expect(s.message?.text == "resumed")
  }

  @Test func changesReloadEveryPaneAndTheStatus() {
    var s = Fixtures.state()
    let effects = s.handle(.changed)
    #expect(effects == QueuePane.allCases.map { .reload($0, offset: 0, limit: s.pageLimit($0)) } + [.loadStatus])
  }

  @Test func followTracksTheWriteIntoAnotherPane() {
    var s = Fixtures.state(focus: .waiting)
    _ = press(&s, .char("F"))
    let id = Fixtures.waiting[0].id
    #expect(s.following == id)
    // The write was answered: it is gone from Waiting.
    let effects = s.handle(
      .loaded(QueuePage(pane: .waiting, offset: 0, writes: Array(Fixtures.waiting.dropFirst()), total: 3)))
    #expect(effects == [.locate(id)])
    let moved = s.handle(.located(id: id, pane: .answered, index: 5))
    #expect(s.focus == .answered && s[.answered].selected == 5)
    #expect(moved == [.reload(.answered, offset: s[.answered].top, limit: s.pageLimit(.answered))])
    var accepted = Fixtures.waiting[0]
    accepted.verdict = .accepted
    _ = s.handle(.loaded(QueuePage(pane: .answered, offset: 0, writes: Fixtures.answered + [accepted], total: 6)))
    #expect(s.selectedWrite?.id == id)
    _ = s.handle(.located(id: id, pane: nil, index: nil))
    #expect(s.following == nil && s.message?.text.contains("left the queue") == true)
  }

  @Test func followFindsTheWriteWhenItMovesWithinThePane() {
    var s = Fixtures.state(focus: .blocked, select: 2)
    _ = press(&s, .char("F"))
    var writes = Fixtures.blockedWrites
    writes.remove(at: 0)
    _ = s.handle(.loaded(QueuePage(pane: .blocked, offset: 0, writes: writes, total: writes.count)))
    #expect(s.selectedWrite?.id == "b-ancestor" && s[.blocked].selected == 1)
    _ = press(&s, .char("F"))
    #expect(s.following == nil)
  }

  @Test func withoutFollowTheSelectionKeepsItsPlace() {
    var s = Fixtures.state(focus: .blocked, select: 2)
    var writes = Fixtures.blockedWrites
    writes.remove(at: 0)
    _ = s.handle(.loaded(QueuePage(pane: .blocked, offset: 0, writes: writes, total: writes.count)))
    #expect(s[.blocked].selected == 2 && s.selectedWrite?.id == "b-conflict")
  }

  @Test func aShrinkingPaneClampsTheSelection() {
    var s = Fixtures.state(focus: .answered, select: 4)
    _ = s.handle(.loaded(QueuePage(pane: .answered, offset: 0, writes: Array(Fixtures.answered.prefix(2)), total: 2)))
    #expect(s[.answered].selected == 1)
    _ = s.handle(.loaded(QueuePage(pane: .answered, offset: 0, writes: [], total: 0)))
    #expect(s[.answered].selected == 0 && s.selectedWrite == nil)
    #expect(press(&s, .char("f")) == [])
    #expect(s.message?.text == "forget: nothing selected")
  }

  // MARK: help, repaint, quit, unknown keys

  @Test func helpRepaintAndQuit() {
    var s = Fixtures.state()
    _ = press(&s, .char("?"))
    #expect(s.showingHelp)
    _ = press(&s, .char("j"), .char("j"), .char("k"))
    #expect(s.showingHelp && s.helpScroll == 1)
    #expect(press(&s, .char("q")) == [])
    #expect(!s.showingHelp)
    _ = press(&s, .function(1))
    #expect(s.showingHelp)
    _ = press(&s, .escape)
    #expect(!s.showingHelp)
    #expect(press(&s, .ctrl("l")) == [.repaint])
    #expect(press(&s, .char("q")) == [.quit])
  }

  @Test func anUnboundKeySaysSo() {
    var s = Fixtures.state()
    #expect(press(&s, .char("%")) == [])
    #expect(s.message?.text == "%: no action here (? for help)")
  }

  @Test func remappedKeysDriveTheSameActions() {
    var s = selectBlocked(.failingAlone)
    s.keyMap = KeyMap.read("release = e\ndrain = D\n").map
    #expect(press(&s, .char("e")) == [.release(["b-alone"])])
    #expect(press(&s, .char("D")) == [.drain])
    #expect(press(&s, .char("d")) == [])
  }

  // MARK: read-only

  @Test func readOnlyRefusesEveryWriteActionAndSaysWhy() {
    for action in Action.allCases where action.writes {
      var s = selectBlocked(.failingAlone)
      s.readOnlyReason = "another process holds the writer role"
      let key = s.keyMap.keys[action]!.first!
      #expect(s.handle(.key(key)) == [], "\(action)")
      #expect(s.message?.isError == true)
      #expect(s.message?.text == "read-only: \(action.summary) is not allowed (another process holds the writer role)")
      #expect(s.dialog == nil && s.prompt == nil && !s.autoDrain)
    }
  }

  @Test func readOnlyStillMovesFiltersPausesAndFollows() {
    var s = Fixtures.state(focus: .blocked)
    s.readOnlyReason = "opened to watch"
    _ = press(&s, .down, .char("3"), .char("Z"), .char("F"), .char(" "))
    #expect(s.paused && s.following != nil && s.marks.count == 1)
    #expect(press(&s, .char("q")) == [.quit])
  }

  // MARK: data events

  @Test func resultsLandOnTheStatusLine() {
    var s = Fixtures.state()
    _ = s.handle(.outcome("released 3", isError: false))
    #expect(s.message == StatusMessage("released 3"))
    _ = s.handle(.outcome("withdraw refused: the instance could not be read", isError: true))
    #expect(s.message?.isError == true)
    _ = s.handle(.reachable(false))
    #expect(s.reachable == false)
    _ = s.handle(.drained(DrainReport(answered: 9)))
    #expect(s.lastDrain?.answered == 9)
  }

  @Test func resizeChangesTheLayoutAndReadsWhatIsNowVisible() {
    var s = UIState(width: 40, height: 10)
    _ = s.handle(.loaded(Self.bigPage(offset: 0, count: s.pageLimit(.waiting), total: 500)))
    let effects = s.handle(.resize(width: 120, height: 40))
    #expect(s.layout.mode == .grid)
    #expect(effects.isEmpty || effects == [.reload(.waiting, offset: 0, limit: s.pageLimit(.waiting))])
    let tiny = s.handle(.resize(width: 30, height: 8))
    #expect(s.layout.mode == .tooSmall && tiny.isEmpty)
  }
}

extension StateMachineTests {
  @Test func theSelectionStaysOnTheRowsALongMessageLeavesThePanes() {
    var s = UIState(width: 80, height: 24)
    _ = s.handle(.loaded(Self.bigPage(offset: 0, count: 200, total: 200)))
    let rowsAlone = s.layout.rows(.waiting)
    // A message too long for the bottom line takes rows of its own; the panes give them up.
    s.message = StatusMessage(String(repeating: "a long outcome that needs its own rows ", count: 4))
    let rows = s.layout.rows(.waiting)
    #expect(rows < rowsAlone)
    for _ in 0..<rows { _ = press(&s, .down) }
    // The selected write is drawn, on the rows the screen really has.
    #expect(s[.waiting].selected == rows)
    #expect(s[.waiting].top <= rows && rows < s[.waiting].top + rows)
    let screen = Renderer.render(s).text
    #expect(screen.contains("big-\(rows) "), "the selected write is on screen")
    // A message that comes while the selection is on the last row brings it back on screen.
    var t = UIState(width: 80, height: 24)
    _ = t.handle(.loaded(Self.bigPage(offset: 0, count: 200, total: 200)))
    for _ in 0..<(rowsAlone - 1) { _ = press(&t, .down) }
    _ = t.handle(.outcome(String(repeating: "a long outcome that needs its own rows ", count: 4), isError: false))
    let selected = t[.waiting].selected
    #expect(t[.waiting].top <= selected && selected < t[.waiting].top + t.layout.rows(.waiting))
  }

  @Test func theSelectionStaysOnScreenWhenTheDetailTakesTheRows() {
    var s = Fixtures.state(width: 80, height: 24, focus: .blocked, select: 4)
    _ = press(&s, .enter)
    let rows = s.layout.rows(.blocked)
    #expect(rows == 1)
    #expect(s[.blocked].top <= 4 && 4 < s[.blocked].top + rows)
    _ = press(&s, .escape)
    #expect(s[.blocked].top <= 4 && 4 < s[.blocked].top + s.layout.rows(.blocked))
  }
}

extension StateMachineTests {
  @Test func writesThatChangeAreHighlightedUntilTheNextChange() {
    var s = Fixtures.state(width: 120, height: 40)
    #expect(s.fresh.isEmpty)
    // A change: b-alone is released into Waiting; the Answered pane reads first.
    _ = s.handle(.changed)
    var released = Fixtures.blockedWrites[4]
    released.verdict = nil
    _ = s.handle(.loaded(QueuePage(pane: .answered, offset: 0, writes: Fixtures.answered, total: 5)))
    _ = s.handle(.loaded(QueuePage(pane: .waiting, offset: 0, writes: Fixtures.waiting + [released], total: 5)))
    var blocked = Fixtures.blockedWrites + [Fixtures.escapeLaden]
    blocked.remove(at: 4)
    _ = s.handle(.loaded(QueuePage(pane: .blocked, offset: 0, writes: blocked, total: 6)))
    _ = s.handle(.loaded(QueuePage(pane: .dead, offset: 0, writes: Fixtures.dead, total: 2)))
    #expect(s.fresh == ["b-alone"])
    let grid = Renderer.render(s)
    let row = (0..<grid.height).first { grid.line($0).contains("b-alone ") }!
    #expect(grid[1, row].attributes.contains(.reverse))
    // Scrolling reads mark nothing; the next change clears the highlight.
    _ = s.handle(.loaded(QueuePage(pane: .waiting, offset: 0, writes: Fixtures.waiting + [released], total: 5)))
    #expect(s.fresh == ["b-alone"])
    _ = s.handle(.changed)
    for page in Fixtures.pages() { _ = s.handle(.loaded(page)) }
    #expect(s.fresh == ["b-alone"])  // it went back to Blocked: changed again
    _ = s.handle(.changed)
    for page in Fixtures.pages() { _ = s.handle(.loaded(page)) }
    #expect(s.fresh.isEmpty)
  }

  @Test func theFirstReadHighlightsNothing() {
    var s = UIState(width: 80, height: 24)
    _ = s.handle(.changed)
    for page in Fixtures.pages() { _ = s.handle(.loaded(page)) }
    #expect(s.fresh.isEmpty)
  }
}
