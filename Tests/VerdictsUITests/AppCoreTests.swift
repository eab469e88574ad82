import Foundation
import MarfaQueue
import Testing

@testable import VerdictsUI

/// The app engine over an in-memory queue and a grid terminal: effects run off the UI thread,
/// outcomes reach the status line, and changes re-read the panes without a timer.
///
/// Driven by ``CoreDriver`` on a ``TestClock``: the tests wait for what they expect, never for a
/// fixed time, and time passes only on the test clock.
@Suite struct AppCoreTests {
  static func allWrites() -> [QueuedWrite] {
    Fixtures.waiting + Fixtures.answered + Fixtures.blockedWrites + [Fixtures.escapeLaden] + Fixtures.dead
  }

  @Test func startReadsEveryPaneAndTheStatus() async {
    let q = FakeQueue(writes: Self.allWrites())
    let d = CoreDriver(q)
    let core = d.core
    await d.settle()
    #expect(core.state[.blocked].total == 7)
    #expect(core.state[.answered].writes.count == 5)
    #expect(core.state.status?.counts.dead == 2)
    #expect(q.reads == 4)
    // Pages only: never more than the visible rows and as many again.
    for (pane, _, limit) in q.pageReads { #expect(limit == core.state.pageLimit(pane)) }
  }

  @Test func releaseRunsOffThreadAndSaysWhatItDid() async {
    let q = FakeQueue(writes: Self.allWrites())
    let d = CoreDriver(q)
    let core = d.core
    await d.settle()
    await d.keys(.char("3"), .down, .down, .down, .down, .char("r"))
    #expect(q.callLog == ["release b-alone"])
    await d.run(until: "the panes are read again after the release") { $0.state[.blocked].total == 6 }
    await d.settle()
    #expect(core.state.message == StatusMessage("released 1"))
    #expect(core.state[.blocked].total == 6)
    #expect(core.state[.waiting].total == 5)
  }

  @Test func bulkReleaseCountsWhatWent() async {
    let q = FakeQueue(writes: Self.allWrites())
    let d = CoreDriver(q)
    let core = d.core
    await d.settle()
    await d.keys(.char("3"), .char(" "), .char("2"), .char(" "), .char("r"))
    // The marked answered write is skipped by the rule before anything is asked of the queue.
    #expect(q.callLog == ["release b-cred"])
    #expect(
      core.state.message
        == StatusMessage(
          "released 1; skipped 1 of 2 marked (w-accept is accepted; only a blocked or dead write, or one the drain refused unsent, goes again)"
        ))
  }

  @Test func releaseOfMarkedWritesIsOneBatchCallAndCountsEachWrite() async {
    let q = FakeQueue(writes: Self.allWrites())
    let d = CoreDriver(q)
    let core = d.core
    await d.settle()
    // Two blocked writes marked (and the release confirmed): one call for both, not one per write.
    await d.keys(.char("3"), .char(" "), .down, .char(" "), .char("r"), .char("y"))
    let calls = q.callLog.filter { $0.hasPrefix("release") }
    #expect(calls.count == 1, "\(calls)")
    #expect(calls.first?.split(separator: " ").count == 3, "\(calls)")
    await d.run(until: "the panes are read again after the release") { $0.state[.blocked].total == 5 }
    await d.settle()
    #expect(core.state.message?.text.hasPrefix("released 2") == true, "\(String(describing: core.state.message))")
  }

  @Test func withdrawConfirmedThenRefusedByTheInstance() async {
    let q = FakeQueue(writes: Self.allWrites())
    q.withdrawError = .network(message: "connection refused")
    let d = CoreDriver(q)
    let core = d.core
    await d.settle()
    await d.keys(.char("3"), .down, .down, .char("w"))
    #expect(q.callLog.isEmpty)
    await d.keys(.char("y"))
    #expect(q.callLog == ["withdraw b-ancestor"])
    #expect(
      core.state.message
        == StatusMessage("withdraw refused: the instance could not be reached: connection refused", isError: true))
  }

  @Test func discardTakeForgetDrainAndKey() async {
    let q = FakeQueue(writes: Self.allWrites())
    let d = CoreDriver(q)
    let core = d.core
    await d.settle()
    await d.keys(.char("2"), .down, .down, .down, .char("x"), .char("y"))
    // Each says how to take it back (`u`).
    #expect(core.state.message == StatusMessage("discarded w-refused · u undoes the discard"))
    await d.keys(.char("g"), .char("f"))
    #expect(core.state.message == StatusMessage("forgot 1 · u undoes the forget"))
    await d.keys(.char("t"), .char("y"))
    // w-trashed, a refused delete (no content), is taken too, as the engine takes it.
    #expect(core.state.message == StatusMessage("took 3 answered · u undoes the take"))
    await d.keys(.char("d"))
    #expect(core.state.message?.text == "drained: answered 2, held 0, undelivered 0, unsent 0, unmade 0")
    #expect(core.state.lastDrain?.answered == 2)
    await d.keys(.char("K"), .char("b"), .char("a"), .char("d"), .enter)
    #expect(core.state.message == StatusMessage("key refused: the key is empty", isError: true))
    await d.keys(.char("K"), .char("o"), .char("k"), .enter)
    #expect(core.state.message?.text.hasPrefix("using the new key") == true)
    #expect(!q.callLog.joined().contains("ok"))
  }

  @Test func autoDrainHoldsUpdates() async {
    let q = FakeQueue(writes: Self.allWrites())
    let d = CoreDriver(q)
    let core = d.core
    await d.settle()
    await d.keys(.char("a"))
    await d.run(until: "the auto-drain's report is shown") {
      $0.state.message?.text.hasPrefix("auto-drain: answered 2") == true
    }
    await d.settle()
    #expect(q.callLog == ["updates"])
    #expect(core.state.reachable == true)
    #expect(core.state.lastDrain?.answered == 2)
    #expect(core.state.message?.text == "auto-drain: answered 2, held 0, undelivered 0, unsent 0, unmade 0")
  }

  @Test func readOnlyNeverCallsTheQueue() async {
    let q = FakeQueue(writes: Self.allWrites(), handle: .reader(reason: "another process holds the writer role"))
    let d = CoreDriver(q, readOnly: "another process holds the writer role")
    let core = d.core
    await d.settle()
    await d.keys(
      .char("3"), .char("r"), .char("w"), .char("x"), .char("t"), .char("f"), .char("d"), .char("a"), .char("K"),
      .char("R"))
    #expect(q.callLog.isEmpty)
    #expect(core.state.message?.text.hasPrefix("read-only:") == true)
  }

  @Test func aBurstOfChangesIsCoalescedIntoFewReads() async {
    let q = FakeQueue(writes: Self.allWrites())
    let d = CoreDriver(q)
    let core = d.core
    await d.settle()
    let before = q.reads
    // The first change is read at once; the 199 after it, within the same interval, once more.
    q.send(.answered(DrainVerdict(id: "x", kind: .createItem)))
    await d.run(until: "the first change is read") { _ in q.reads > before }
    // The rest as the listener notes them, all within the interval after that read.
    for _ in 0..<199 { core.inbox.noteChange() }
    await d.run(until: "one read is scheduled for the rest") { _ in d.clock.sleeping == 1 }
    #expect(d.clock.now == .zero)
    await d.settle()
    #expect(d.clock.now == AppInbox.changeInterval)
    let reads = q.reads - before
    #expect(reads >= 4 && reads <= 8, "\(reads) page reads for 200 changes")
  }

  @Test func aChangeIsNotReadAgainBeforeItsFrameCouldGo() async {
    let q = FakeQueue(writes: Self.allWrites())
    let d = CoreDriver(q)
    let core = d.core
    await d.settle()
    let before = q.reads
    // The UI loop says the byte budget holds the next frame back 400 ms.
    core.inbox.holdChanges(for: .milliseconds(400))
    q.send(.answered(DrainVerdict(id: "x", kind: .createItem)))
    await d.run(until: "the change's read waits on a timer") { _ in d.clock.sleeping == 1 }
    #expect(q.reads == before, "nothing read while the frame could not go")
    await d.settle()
    #expect(d.clock.now == .milliseconds(400))
    #expect(q.reads > before)
    // With no hold, the next change after the interval is read at once.
    core.inbox.holdChanges(for: .zero)
    d.clock.advance(by: .seconds(1))
    let again = q.reads
    q.send(.answered(DrainVerdict(id: "y", kind: .createItem)))
    await d.run(until: "the next change is read at once") { _ in q.reads > again }
    #expect(d.clock.now == .milliseconds(1_400))
  }

  @Test func aPageReadUnderAnOlderOrderIsNeverShown() async {
    let q = FakeQueue(writes: Self.allWrites())
    let d = CoreDriver(q)
    let core = d.core
    await d.settle()
    await d.keys(.char("3"))
    let newest = PaneOrder.newestFirst.sorted(q.all.filter { $0.pane == .blocked }).map(\.id)
    #expect(newest.count > 1)
    // From here every page read waits at a turnstile and comes back when the test says, one at a
    // time: a change's re-read of Blocked (in send order) is out when `s` moves Blocked to newest
    // first; it comes back after the sort has found the selection again, and before the page
    // read in the new order is even asked for.
    let turnstile = ReadTurnstile(arrived: d.waker)
    defer { turnstile.open() }
    q.pageTurnstile = turnstile
    var shownInAnotherOrder = false
    func look(_ core: AppCore) {
      let p = core.state[.blocked]
      if p.order == .newestFirst, p.rowsInOrder, !p.writes.isEmpty,
        p.writes.map(\.id) != Array(newest[p.offset..<min(newest.count, p.offset + p.writes.count)])
      {
        shownInAnotherOrder = true
      }
    }
    let stale = { (read: ReadTurnstile.Read) in read.pane == .blocked && read.order == .sendOrder }
    q.send(.answered(DrainVerdict(id: "x", kind: .createItem)))
    await d.run(until: "the change's re-read of Blocked waits") { _ in turnstile.waiting.contains(where: stale) }
    core.apply(.key(.char("s")))
    #expect(core.state[.blocked].order == .newestFirst)
    await d.run(until: "the sort's look for the selection waits") { _ in
      turnstile.waiting.contains { $0.pane == .blocked && $0.order == .newestFirst }
    }
    // The other panes' re-reads come back (their order does not matter here).
    for pane in [QueuePane.waiting, .answered, .dead] {
      #expect(turnstile.admit { $0.pane == pane })
    }
    // The sort's look: the selection is found in the new order, the old rows are dropped and the
    // page in the new order waits behind the change's re-read.
    #expect(turnstile.admit { $0.pane == .blocked && $0.order == .newestFirst })
    await d.run(until: "the sort drops the rows in the old order") { core in
      look(core)
      return core.state[.blocked].writes.isEmpty
    }
    // The stale page first: it must not be shown.
    #expect(turnstile.admit(first: stale))
    await d.run(until: "the page in the new order is asked for") { core in
      look(core)
      return turnstile.waiting.contains { $0.pane == .blocked && $0.order == .newestFirst }
    }
    // Then the new order's page.
    #expect(turnstile.admit { $0.pane == .blocked && $0.order == .newestFirst })
    turnstile.open()
    await d.run(until: "the core settles") { core in
      look(core)
      return core.idle
    }
    #expect(!shownInAnotherOrder, "Blocked showed rows of a page read in send order under 'by newest'")
    #expect(core.state[.blocked].writes.map(\.id) == newest)
  }

  @Test func idleMeansNoReads() async {
    let q = FakeQueue(writes: Self.allWrites())
    let d = CoreDriver(q)
    await d.settle()
    let before = q.reads
    #expect(d.clock.sleeping == 0, "nothing waits on a timer")
    d.clock.advance(by: .seconds(60))
    await d.settle()
    #expect(q.reads == before)
  }

  @Test func pausedCoreReadsNothingUntilResumed() async {
    let q = FakeQueue(writes: Self.allWrites())
    let d = CoreDriver(q)
    let core = d.core
    await d.settle()
    await d.keys(.char("Z"))
    let before = q.reads
    q.mutate { $0.removeFirst() }
    await d.run(until: "the change is noted while paused") { $0.state.pendingChanges > 0 }
    await d.settle()
    #expect(q.reads == before)
    #expect(core.state[.waiting].total == 4)
    await d.keys(.char("Z"))
    #expect(core.state[.waiting].total == 3)
  }

  @Test func followCrossesPanesThroughTheStore() async {
    let q = FakeQueue(writes: Self.allWrites())
    let d = CoreDriver(q)
    let core = d.core
    await d.settle()
    await d.keys(.char("3"), .down, .down, .down, .down, .char("F"))
    #expect(core.state.following == "b-alone")
    _ = try? await q.release("b-alone")
    await d.run(until: "the followed write is found in its new pane") { $0.state.focus == .waiting }
    await d.settle()
    #expect(core.state.focus == .waiting)
    #expect(core.state.selectedWrite?.id == "b-alone")
  }

  @Test func markAllOnALargePaneAsksTheStore() async {
    let many = (0..<300).map { Fixtures.write("m-\($0)", verdict: .dead, refusals: 5) }
    let q = FakeQueue(writes: many)
    let d = CoreDriver(q, width: 80, height: 24)
    let core = d.core
    await d.settle()
    await d.keys(.char("4"), .char("V"))
    #expect(core.state.marks.count == 300)
  }

  @Test func framesOnAGridTerminalSendOnlyWhatChanged() async {
    let q = FakeQueue(writes: Self.allWrites())
    let d = CoreDriver(q)
    let core = d.core
    await d.settle()
    let terminal = GridTerminal(width: 120, height: 40)
    terminal.present(Renderer.render(core.state))
    #expect(terminal.changedCells == 120 * 40)
    terminal.present(Renderer.render(core.state))
    #expect(terminal.changedCells == 0)
    let answered = core.state[.answered].total
    q.mutate { ws in
      if let i = ws.firstIndex(where: { $0.id == "w-undeliv" }) { ws[i].verdict = .accepted }
    }
    await d.run(until: "the answer is read") { $0.state[.answered].total == answered + 1 }
    await d.settle()
    terminal.present(Renderer.render(core.state))
    #expect(terminal.changedCells > 0 && terminal.changedCells < 600, "\(terminal.changedCells) cells")
  }

  @Test func renderOnceReadsPagesAndDraws() async throws {
    let q = FakeQueue(writes: Self.allWrites())
    let text = try await VerdictsApp.renderOnce(copy: q, size: (width: 80, height: 24))
    #expect(text.contains("Blocked 7"))
    #expect(text.contains("Waiting 4"))
    #expect(q.reads == 4)
    let ro = FakeQueue(writes: [], handle: .reader(reason: "opened to watch"))
    let roText = try await VerdictsApp.renderOnce(copy: ro, size: (width: 80, height: 24))
    #expect(roText.contains("read-only (opened to watch)"))
  }

  @Test func plainLines() {
    let t = "2026-11-29T10:00:06.000Z"
    #expect(
      PlainFormatter.line(Fixtures.blockedWrites[4], time: t)
        == "\(t) b-alone update_item item-1 blocked failing_alone 3 502 \"502 Bad Gateway — 版本冲突, réessayez plus tard 🙂\""
    )
    #expect(
      PlainFormatter.line(Fixtures.escapeLaden, time: t)
        == "\(t) b-escapes update_item item-1 blocked failing_alone 4 500 \"upstream ␛[31mRED␛[0m \\u{202e}txet desrever\\u{202c} bell␇ del␡ c1\\u{009b}2J\""
    )
    #expect(
      PlainFormatter.line(Fixtures.waiting[1], time: t)
        == "\(t) w-held add_tag note-1 waiting awaiting:0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b 0 - -")
    #expect(
      PlainFormatter.line(Fixtures.answered[3], time: t)
        == "\(t) w-refused update_item item-1 refused validation_failed 0 - "
        + "\"properties.title is too long (properties.title: at most 200 characters; properties.due)\"")
    #expect(PlainFormatter.line(Fixtures.dead[0], time: t) == "\(t) d-1 merge_metadata note-5 dead - 0 - -")
    #expect(PlainFormatter.gone("w-1", time: t) == "\(t) w-1 - - gone - - - -")
  }

  @Test func watchPlainPrintsEveryWriteThenWhatChanges() async {
    let q = FakeQueue(writes: Array(Self.allWrites().prefix(3)))
    let lines = LineSink()
    let watcher = Task { await VerdictsApp.watchPlain(source: q, emit: { lines.add($0) }, clock: { "T" }) }
    await lines.wait(forCount: 3)
    #expect(lines.all.count == 3)
    q.mutate { ws in ws[0].verdict = .accepted }
    await lines.wait(forCount: 4)
    q.mutate { ws in ws.remove(at: 1) }
    await lines.wait(forCount: 5)
    q.finish()
    await watcher.value
    let all = lines.all
    #expect(all.count == 5, "\(all)")
    #expect(all[3] == "T 0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b create_item note-1 accepted - 0 - -")
    #expect(all[4] == "T w-held - - gone - - - -")
  }
}
