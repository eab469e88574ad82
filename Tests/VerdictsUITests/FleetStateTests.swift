import Foundation
import MarfaQueue
import Testing

@testable import VerdictsUI

/// The fleet screen's state and frame (docs/fleet.md): trouble first, `/` by host or state
/// word, the selection on its device as rows move, the table at 80 and 160 columns, and a
/// device's text made safe.
@Suite struct FleetStateTests {
  static let now = Date(timeIntervalSince1970: 1_800_000_000)

  static func status(waiting: Int = 0, blocked: Int = 0, dead: Int = 0, writer: WriterRecord? = nil) -> Status {
    Status(
      store: "/s", handle: .reader(reason: "watch"), fill: .complete,
      counts: QueueCounts(waiting: waiting, answered: 1, blocked: blocked, dead: dead), writer: writer)
  }

  static func writer(stalled: Bool = false, gone: Bool = false, instanceDown: Bool = false) -> WriterRecord {
    var w = WriterRecord(
      program: "verdicts", mode: "tui", pid: 42, host: "h", startedAt: now.addingTimeInterval(-600),
      updatedAt: now.addingTimeInterval(-1), autoDrain: true)
    if stalled {
      w.drain = .init(startedAt: now.addingTimeInterval(-120), total: 10, sent: 3, movedAt: now.addingTimeInterval(-90))
    }
    if gone { w.state = .gone }
    if instanceDown { w.instance = .init(reachable: false, since: now.addingTimeInterval(-300), met: "refused") }
    return w
  }

  static func row(_ host: String, _ status: Status?, down: Bool = false) -> FleetRow {
    var r = FleetRow(host: host)
    r.status = status
    r.link = down ? .down(since: now.addingTimeInterval(-20), why: "ssh could not reach \(host)") : .up
    return r
  }

  /// A fleet with one device of each trouble, named so that host order is no help.
  static func fleet() -> FleetState {
    let rows = [
      row("a-fine", status()),
      row("b-waiting", status(waiting: 3)),
      row("c-blocked", status(blocked: 2)),
      row("d-dead", status(dead: 1)),
      row("e-instance", status(writer: writer(instanceDown: true))),
      row("f-gone", status(waiting: 1, writer: writer(gone: true))),
      row("g-stalled", status(waiting: 7, writer: writer(stalled: true))),
      row("h-down", status(waiting: 1), down: true),
    ]
    var s = FleetState(hosts: rows.map(\.host), now: now)
    _ = s.handle(.resize(width: 80, height: 24))
    for (i, r) in rows.enumerated() { _ = s.handle(.row(i, r)) }
    _ = s.handle(.tick(now))
    return s
  }

  @Test func devicesAreSortedWorstTroubleFirst() {
    let s = Self.fleet()
    #expect(
      s.visible.map { s.rows[$0].host } == [
        "h-down", "g-stalled", "f-gone", "e-instance", "d-dead", "c-blocked", "b-waiting", "a-fine",
      ])
  }

  @Test func aGoneWriterWithNothingWaitingIsNoTrouble() {
    let r = Self.row("x", Self.status(writer: Self.writer(gone: true)))
    #expect(r.trouble(now: Self.now) == .fine)
  }

  @Test func theFilterMatchesAHostPartOrAStateWordAndEscapeClearsIt() {
    var s = Self.fleet()
    for c in "/dead" { _ = s.handle(.key(.char(c))) }
    _ = s.handle(.key(.enter))
    #expect(s.visible.map { s.rows[$0].host } == ["d-dead"])
    _ = s.handle(.key(.escape))
    #expect(s.visible.count == 8)
    for c in "/unreachable" { _ = s.handle(.key(.char(c))) }
    #expect(s.visible.map { s.rows[$0].host } == ["h-down"])
    _ = s.handle(.key(.escape))
    for c in "/-g" { _ = s.handle(.key(.char(c))) }
    _ = s.handle(.key(.backspace))
    _ = s.handle(.key(.char("s")))
    #expect(s.visible.map { s.rows[$0].host } == ["g-stalled"])
  }

  @Test func theSelectionStaysOnItsDeviceWhenTheSortMovesIt() {
    var s = Self.fleet()
    _ = s.handle(.key(.end))
    #expect(s.rows[s.selected!].host == "a-fine")
    // a-fine's link goes down: it moves to the top, and stays selected.
    _ = s.handle(.row(0, Self.row("a-fine", Self.status(), down: true)))
    #expect(s.visible.first == 0)
    #expect(s.selected == 0)
    _ = s.handle(.key(.char("j")))
    #expect(s.rows[s.selected!].host == "h-down")
    #expect(s.handle(.key(.enter)) == [.open(7)])
    #expect(s.handle(.key(.char("q"))) == [.quit])
  }

  @Test func theTableFitsEightyColumnsAndShowsMoreAtOneHundredSixty() {
    var s = Self.fleet()
    let narrow = FleetRenderer.render(s)
    #expect(narrow.line(0).hasPrefix("verdicts fleet · 8 devices · 1 unreachable · 5 need attention"))
    #expect(narrow.line(1).contains("HOST") && narrow.line(1).contains("STATE") && narrow.line(1).contains("LAST"))
    #expect(narrow.line(2).contains("h-down") && narrow.line(2).contains("unreachable"))
    #expect(narrow.line(3).contains("g-stalled") && narrow.line(3).contains("stalled"))
    #expect(narrow.line(23).contains("ssh could not reach h-down"), "the selected device's trouble, in words")
    _ = s.handle(.resize(width: 160, height: 48))
    let wide = FleetRenderer.render(s)
    for title in [
      "HOST", "STATE", "LINK", "STORE", "WRITER", "INSTANCE", "WAIT", "ANS", "BLOCKED", "DEAD", "LAST DRAIN",
    ] {
      #expect(wide.line(1).contains(title), "\(title)")
    }
    let stalledLine = wide.line(3)
    #expect(stalledLine.contains("stalled 2 min"), "\(stalledLine)")
    let instanceLine = (0..<wide.height).map(wide.line).first { $0.contains("e-instance") } ?? ""
    #expect(instanceLine.contains("down since"), "\(instanceLine)")
  }

  @Test func aDevicesTextIsSanitizedBeforeTheTerminal() {
    var w = Self.writer()
    w.program = "evil\u{1B}]52;c;AAAA\u{07}"
    var s = FleetState(hosts: ["x"], now: Self.now)
    _ = s.handle(.resize(width: 160, height: 10))
    _ = s.handle(.row(0, Self.row("x", Self.status(writer: w))))
    let grid = FleetRenderer.render(s)
    #expect(!grid.cells.contains { $0.text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 } })
    #expect(!s.rows[0].plainLine(now: Self.now).unicodeScalars.contains { $0.value == 0x1B })
  }
}
