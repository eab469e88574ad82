import MarfaQueue
import Testing

@testable import VerdictsUI

/// `s` cycles the focused pane's order, the title names it, the selection
/// stays on its write, and Blocked by reason labels each group with its count.
@Suite struct SortTests {
  static let blocked = Fixtures.blockedWrites + [Fixtures.escapeLaden]
  static let counts: [BlockedReason: Int] = [
    .ancestorUnavailable: 1, .conflictUnresolved: 1, .credentialRefused: 1, .failingAlone: 2,
    .instanceChanged: 1, .keySpent: 1,
  ]

  /// Presses `s` until the focused pane is in `order`, answering each re-sort as the app would.
  static func sort(_ s: inout UIState, to order: PaneOrder) {
    let pane = s.focus
    while s[pane].order != order {
      let id = s.selectedWrite?.id
      _ = s.handle(.key(.char("s")))
      let sendOrder = Fixtures.pages().first { $0.pane == pane }?.writes ?? []
      let sorted = s[pane].order.sorted(sendOrder)
      let index = id.flatMap { id in sorted.firstIndex { $0.id == id } }
      _ = s.handle(.reordered(id: id ?? "", pane: pane, order: s[pane].order, index: index))
      _ = s.handle(.loaded(QueuePage(pane: pane, offset: 0, writes: sorted, total: sorted.count)))
    }
  }

  /// Blocked by reason, counted, at a size.
  static func grouped(width: Int = 80, height: Int = 24, select: Int = 0) -> UIState {
    var s = Fixtures.state(width: width, height: height, focus: .blocked)
    sort(&s, to: .reason)
    _ = s.handle(.reasonCounts(counts))
    // The re-sort kept b-cred selected; from the first row.
    _ = s.handle(.key(.char("g")))
    for _ in 0..<select { _ = s.handle(.key(.down)) }
    return s
  }

  @Test func sCyclesTheFocusedPanesOrderThroughAllSixAndLeavesTheOtherPanes() {
    var s = Fixtures.state(focus: .blocked)
    var seen: [PaneOrder] = []
    for _ in 0..<6 {
      let effects = s.handle(.key(.char("s")))
      seen.append(s[.blocked].order)
      #expect(effects.contains(.reorder(.blocked, "b-cred")), "\(effects)")
      // Grouped by reason: the groups are counted.
      #expect(effects.contains(.countReasons) == (s[.blocked].order == .reason))
    }
    #expect(seen == [.newestFirst, .age, .streak, .reason, .kind, .sendOrder])
    for pane in [QueuePane.waiting, .answered, .dead] { #expect(s[pane].order == .sendOrder) }
  }

  @Test func theKeyIsSAndHelpAndTheBottomLineListIt() {
    #expect(KeyMap.defaults.action(for: .char("s")) == .sort)
    let s = Fixtures.state(width: 160, height: 48, focus: .blocked)
    #expect(Renderer.render(s).text.contains("s sort"))
    var help = Fixtures.state(width: 160, height: 48, focus: .blocked)
    _ = help.handle(.key(.char("?")))
    #expect(Renderer.render(help).text.contains("sort the pane: sent, newest, age, streak, reason, kind"))
  }

  @Test func thePaneTitleNamesTheOrderBesideItsCountsAndFilterCounts() {
    var s = Fixtures.state(focus: .blocked)
    #expect(!Renderer.render(s).text.contains("by sent"))
    Self.sort(&s, to: .streak)
    #expect(Renderer.render(s).text.contains("Blocked 7 · by streak"))
    s.filter = "item"
    #expect(Renderer.render(s).text.contains("Blocked (7 of 7) · by streak"))
    #expect(s.message?.text == "Blocked by streak (s for the next order)")
  }

  @Test func aReSortKeepsTheSelectionOnTheSameWrite() {
    var s = Fixtures.state(focus: .blocked, select: 4)
    #expect(s.selectedWrite?.id == "b-alone")
    #expect(s.handle(.key(.char("s"))) == [.reorder(.blocked, "b-alone")])
    // Newest first: b-alone is third from the end of seven.
    let effects = s.handle(.reordered(id: "b-alone", pane: .blocked, order: .newestFirst, index: 2))
    #expect(s[.blocked].selected == 2)
    // The rows of the old order are dropped until the new page is read: no key acts on them.
    #expect(s.selectedWrite == nil)
    #expect(effects == [.reload(.blocked, offset: 0, limit: s.pageLimit(.blocked))])
    let newest = PaneOrder.newestFirst.sorted(Self.blocked)
    _ = s.handle(.loaded(QueuePage(pane: .blocked, offset: 0, writes: newest, total: 7)))
    #expect(s.selectedWrite?.id == "b-alone")
  }

  @Test func aWriteThatLeftThePaneDuringTheReSortLeavesTheFirstSelected() {
    var s = Fixtures.state(focus: .blocked, select: 4)
    _ = s.handle(.key(.char("s")))
    _ = s.handle(.reordered(id: "b-alone", pane: .blocked, order: .newestFirst, index: nil))
    #expect(s[.blocked].selected == 0)
    #expect(s[.blocked].top == 0)
  }

  @Test func anAnswerForAnOrderNoLongerShownIsIgnored() {
    var s = Fixtures.state(focus: .blocked, select: 4)
    _ = s.handle(.key(.char("s")))
    _ = s.handle(.key(.char("s")))
    #expect(s[.blocked].order == .age)
    #expect(s.handle(.reordered(id: "b-alone", pane: .blocked, order: .newestFirst, index: 2)) == [])
    #expect(s[.blocked].selected == 4)
  }

  @Test func blockedByReasonLabelsTheFirstRowOfEachGroupWithItsCount() {
    let s = Self.grouped(width: 80, height: 30)
    #expect(s.grouped(.blocked))
    let text = Renderer.render(s).text
    #expect(text.contains("Blocked 7 · by reason"), "\(text)")
    #expect(text.contains("failing_alone (2) streak 3 502 ┐"), "\(text)")
    #expect(text.contains("failing_alone streak 4 500 │"), "\(text)")
    #expect(text.contains("ancestor_unavailable (1) ┐"), "\(text)")
    #expect(s.message?.text == "Blocked by reason, in groups (s for the next order)")
  }

  @Test func groupsAreCountedAgainAfterEveryChange() {
    var s = Self.grouped()
    #expect(s.handle(.changed).contains(.countReasons))
    var plain = Fixtures.state(focus: .blocked)
    #expect(!plain.handle(.changed).contains(.countReasons))
  }

  @Test func movingOverGroupsGoesWriteByWriteAndClicksSelectTheRowClicked() {
    var s = Self.grouped(width: 120, height: 40)
    let order = PaneOrder.reason.sorted(Self.blocked).map(\.id)
    #expect(
      order == ["b-ancestor", "b-conflict", "b-cred", "b-alone", "b-escapes", "b-instance", "b-spent"])
    var visited: [String] = []
    for _ in 0..<7 {
      visited.append(s.selectedWrite?.id ?? "")
      _ = s.handle(.key(.char("j")))
    }
    #expect(visited == order)
    _ = s.handle(.key(.char("g")))
    #expect(s.selectedWrite?.id == "b-ancestor")
    _ = s.handle(.key(.char("G")))
    #expect(s.selectedWrite?.id == "b-spent")
    _ = s.handle(.key(.pageUp))
    #expect(s.selectedWrite?.id == "b-ancestor")
    let frame = s.layout.panes[.blocked]!
    // The fourth row starts the failing_alone group: the click selects its write.
    _ = s.handle(.mouse(MouseEvent(.click, x: frame.list.x + 3, y: frame.list.y + 3)))
    #expect(s.selectedWrite?.id == "b-alone")
  }

  @Test func aGroupedPaneReadsTheRowBeforeItsTopToTellWhereAGroupStarts() {
    var s = Self.grouped(width: 80, height: 18, select: 6)
    let p = s[.blocked]
    #expect(p.top > 0)
    // The page held rows from 0: nothing to read. A page starting at the top is read again
    // from the row before it.
    #expect(s.reloadIfNeeded(.blocked) == nil)
    let sorted = PaneOrder.reason.sorted(Self.blocked)
    _ = s.handle(
      .loaded(QueuePage(pane: .blocked, offset: p.top, writes: Array(sorted[p.top...]), total: 7)))
    #expect(s.reloadIfNeeded(.blocked) == .reload(.blocked, offset: p.top - 1, limit: s.pageLimit(.blocked)))
  }

  @Test(arguments: [(80, 24), (160, 48)])
  func blockedGroupedByReasonAtEachSize(size: (Int, Int)) {
    let s = Self.grouped(width: size.0, height: size.1, select: 3)
    Golden.check("blocked-by-reason-\(size.0)x\(size.1)", ScreenTests.screen(s))
  }

  @Test func theAppKeepsTheSelectedWriteAcrossAReSortThroughItsSource() async throws {
    let q = FakeQueue(writes: AppCoreTests.allWrites())
    let d = CoreDriver(q, width: 120, height: 40)
    await d.settle()
    await d.keys(.char("3"), .char("j"), .char("j"), .char("j"), .char("j"))
    let chosen = try #require(d.core.state.selectedWrite?.id)
    for _ in 0..<6 {
      await d.keys(.char("s"))
      #expect(d.core.state.selectedWrite?.id == chosen, "\(d.core.state[.blocked].order)")
    }
    await d.keys(.char("s"), .char("s"), .char("s"), .char("s"))
    #expect(d.core.state[.blocked].order == .reason)
    let shown = d.core.state[.blocked].writes
    let expected = PaneOrder.reason.sorted(AppCoreTests.allWrites().filter { $0.pane == .blocked })
    #expect(shown.map(\.id) == expected.map(\.id))
    #expect(d.core.state.reasonCounts?[.failingAlone] == 2)
  }
}

extension SortTests {
  @Test func tailingAnsweredNewestFirstKeepsTheFirstRowSelected() {
    var s = Fixtures.state(focus: .answered)
    Self.sort(&s, to: .newestFirst)
    _ = s.handle(.key(.char("T")))
    #expect(s.tailing)
    #expect(s[.answered].selected == 0)
    let newest = PaneOrder.newestFirst.sorted(Fixtures.answered)
    _ = s.handle(.loaded(QueuePage(pane: .answered, offset: 0, writes: newest, total: newest.count)))
    #expect(s.selectedWrite?.id == "w-trashed")
    #expect(s.tailing)
  }
}
