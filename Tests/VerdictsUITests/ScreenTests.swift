import MarfaQueue
import Testing

@testable import VerdictsUI

/// Golden screens of the grid renderer: panes, detail for each verdict and reason, sizes, overlays.
@Suite struct ScreenTests {
  static func screen(_ s: UIState) -> String {
    let grid = Renderer.render(s)
    return "# \(s.width)x\(s.height)\n" + grid.text
  }

  @Test(arguments: [(40, 10), (80, 24), (120, 40)])
  func eachPaneAtEachSize(size: (Int, Int)) {
    for pane in QueuePane.allCases {
      let s = Fixtures.state(width: size.0, height: size.1, focus: pane)
      Golden.check("pane-\(pane.title.lowercased())-\(size.0)x\(size.1)", Self.screen(s))
    }
  }

  @Test(
    "a focused detail at 60×16 takes all but the title rules and the selected row, so a blocked write's remedy shows")
  func aFocusedDetailAtSixtyBySixteenShowsHowABlockedWriteClears() {
    var s = Fixtures.state(width: 60, height: 16, focus: .blocked)
    #expect(!Self.screen(s).contains("clears by"))
    _ = s.handle(.key(.enter))
    #expect(s.detailFocused)
    let layout = s.layout
    #expect(layout.detail?.height == 9)
    #expect(QueuePane.allCases.map { layout.rows($0) } == [0, 0, 1, 0])
    #expect(Self.screen(s).contains("clears by"), "\(Self.screen(s))")
    // Every pane keeps its title rule with its count.
    for pane in QueuePane.allCases { #expect(Self.screen(s).contains("─ \(pane.title) ")) }
  }
}

extension ScreenTests {
  /// The detail pane for a write, at 120×40 with the write selected in its pane.
  static func detail(_ w: QueuedWrite, width: Int = 120, height: Int = 40, scroll: Int = 0) -> String {
    var s = Fixtures.state(width: width, height: height, focus: w.pane)
    _ = s.handle(.loaded(QueuePage(pane: w.pane, offset: 0, writes: [w], total: 1)))
    if scroll > 0 {
      _ = s.handle(.key(.enter))
      for _ in 0..<scroll { _ = s.handle(.key(.down)) }
    }
    return screen(s)
  }

  @Test func detailForEachVerdict() {
    let cases: [(String, QueuedWrite)] = [
      ("queued", Fixtures.waiting[0]), ("held", Fixtures.waiting[1]), ("undelivered", Fixtures.waiting[2]),
      ("accepted", Fixtures.answered[0]), ("merged", Fixtures.answered[1]), ("conflicted", Fixtures.answered[2]),
      ("refused", Fixtures.answered[3]), ("refused-trashed", Fixtures.answered[4]), ("dead", Fixtures.dead[0]),
    ]
    for (name, w) in cases { Golden.check("detail-\(name)", Self.detail(w)) }
  }

  @Test func detailForEachBlockedReason() {
    for w in Fixtures.blockedWrites {
      Golden.check("detail-blocked-\(w.verdict!.blockedReason!.wireName)", Self.detail(w))
    }
  }

  @Test func detailWithAnEscapeLadenFailureAndAnswer() {
    let text = Self.detail(Fixtures.escapeLaden)
    #expect(
      !text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E || $0.value == 0x07 || $0.value == 0x9B })
    Golden.check("detail-blocked-escapes", text)
    Golden.check("detail-blocked-escapes-scrolled", Self.detail(Fixtures.escapeLaden, scroll: 8))
  }

  @Test func detailAtSmallSizes() {
    for (w, h) in [(80, 24), (40, 10)] {
      var s = Fixtures.state(width: w, height: h, focus: .blocked, select: 4)
      _ = s.handle(.key(.enter))
      Golden.check("detail-failing-alone-\(w)x\(h)", Self.screen(s))
    }
  }

  @Test func tooSmall() {
    Golden.check("too-small", Self.screen(Fixtures.state(width: 39, height: 9)))
    var ascii = Fixtures.state(width: 30, height: 5)
    ascii.ascii = true
    Golden.check("too-small-ascii", Self.screen(ascii))
  }

  @Test func asciiBordersAndGlyphs() {
    var s = Fixtures.state(width: 120, height: 40, focus: .answered)
    s.ascii = true
    let text = Self.screen(s)
    #expect(text.unicodeScalars.allSatisfy { $0.isASCII || $0 == "\n" })
    Golden.check("ascii-120x40", text)
  }

  @Test func overlays() {
    var help = Fixtures.state(width: 120, height: 40)
    _ = help.handle(.key(.char("?")))
    Golden.check("help-120x40", Self.screen(help))
    var narrowHelp = Fixtures.state(width: 80, height: 24)
    _ = narrowHelp.handle(.key(.char("?")))
    Golden.check("help-80x24", Self.screen(narrowHelp))
    var small = Fixtures.state(width: 40, height: 10)
    _ = small.handle(.key(.char("?")))
    Golden.check("help-40x10", Self.screen(small))
    for _ in 0..<12 { _ = small.handle(.key(.char("j"))) }
    Golden.check("help-40x10-scrolled", Self.screen(small))
    var confirm = Fixtures.state(width: 80, height: 24, focus: .blocked, select: 4)
    _ = confirm.handle(.key(.char("w")))
    Golden.check("confirm-withdraw-80x24", Self.screen(confirm))
    var discard = Fixtures.state(width: 80, height: 24, focus: .answered, select: 3)
    _ = discard.handle(.key(.char("x")))
    Golden.check("confirm-discard-80x24", Self.screen(discard))
    var menu = Fixtures.state(width: 80, height: 24, focus: .blocked, select: 4)
    _ = menu.handle(.key(.char("R")))
    Golden.check("release-reason-menu-80x24", Self.screen(menu))
    var filter = Fixtures.state(width: 80, height: 24)
    _ = filter.handle(.key(.char("/")))
    for c in "alone" { _ = filter.handle(.key(.char(c))) }
    Golden.check("prompt-filter-80x24", Self.screen(filter))
  }

  @Test func readOnlyGreysActionsAndSaysWhy() {
    var s = Fixtures.state(width: 120, height: 40, focus: .blocked, select: 4)
    s.readOnlyReason = "another process holds the writer role"
    _ = s.handle(.key(.char("r")))
    Golden.check("read-only-120x40", Self.screen(s))
    _ = s.handle(.key(.char("?")))
    Golden.check("read-only-help-120x40", Self.screen(s))
  }

  @Test func statusLineStates() {
    var s = Fixtures.state(width: 120, height: 40, focus: .blocked)
    s.autoDrain = true
    s.paused = true
    s.pendingChanges = 3
    s.following = "b-cred"
    s.filter = "b-"
    s.marks = ["b-cred", "b-spent"]
    _ = s.handle(.reachable(false))
    _ = s.handle(
      .drained(
        DrainReport(
          answered: 0, undelivered: 12, unavailable: "connection refused", stopped: "the key was refused",
          retryAfterSeconds: 60)))
    var st = Fixtures.status
    st.fill = .expired
    st.expiredReason = "catchup_too_old"
    _ = s.handle(.status(st))
    s.lastDrain = DrainReport(
      answered: 0, undelivered: 12, unavailable: "connection refused", stopped: "the key was refused",
      retryAfterSeconds: 60)
    Golden.check("status-line-states-120x40", Self.screen(s))
  }

  @Test func emptyAndUnreadPanes() {
    var s = UIState(width: 80, height: 24)
    Golden.check("unread-80x24", Self.screen(s))
    for pane in QueuePane.allCases { _ = s.handle(.loaded(QueuePage(pane: pane, offset: 0, writes: [], total: 0))) }
    Golden.check("empty-80x24", Self.screen(s))
  }

  @Test func aMillionWritesShowTheirRange() {
    var s = UIState(width: 120, height: 40)
    let writes = (0..<20).map {
      Fixtures.write(String(format: "0190a1b2-c3d4-7e5f-8a9b-%012d", 999_000 + $0), .createItem)
    }
    _ = s.handle(.loaded(QueuePage(pane: .waiting, offset: 999_000, writes: writes, total: 1_000_000)))
    s[.waiting].selected = 999_005
    s[.waiting].top = 999_000
    Golden.check("million-120x40", Self.screen(s))
  }
}
