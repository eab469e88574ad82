import Foundation
import MarfaQueue
import Testing

@testable import VerdictsUI

/// At every width from 40 columns the bottom line keeps `? help` and
/// `q quit`, offers only the keys that can act in this mode and on this selection (a watcher
/// none that changes the queue), and shortens words before it drops a key; the status line keeps
/// a watcher's essentials (writer, draining N of M, rate, time left, reachable) and cuts the
/// rest. Golden screens at 60×16, 80×24, 120×40, 160×48, writer and watcher, during and after
/// a drain.
@Suite struct KeysAtEveryWidthTests {
  static let widths = [40, 50, 60, 70, 80, 100, 120, 160]

  static func bottom(_ s: UIState) -> String {
    let lines = Renderer.render(s).text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    return (lines.last { !$0.isEmpty } ?? "").trimmingCharacters(in: .whitespaces)
  }

  static func state(width: Int, focus: QueuePane, select: Int = 0, watcher: Bool) -> UIState {
    var s = Fixtures.state(width: width, height: width < 60 ? 12 : 24, focus: focus, select: select)
    if watcher { s.readOnlyReason = "opened to read" }
    return s
  }

  @Test(arguments: widths)
  func helpAndQuitStayOnTheBottomLineInEveryPaneForWriterAndWatcher(width: Int) {
    for watcher in [false, true] {
      for pane in QueuePane.allCases {
        let s = Self.state(width: width, focus: pane, watcher: watcher)
        let bottom = Self.bottom(s)
        #expect(bottom.hasSuffix("? help q quit"), "\(width) \(pane) watcher \(watcher): \(bottom)")
        #expect(CharWidth.of(bottom) <= width)
      }
    }
  }

  @Test(arguments: widths)
  func aWatcherIsOfferedNoKeyThatChangesTheQueue(width: Int) {
    for pane in QueuePane.allCases {
      for select in 0..<2 {
        let s = Self.state(width: width, focus: pane, select: select, watcher: true)
        let bottom = " " + Self.bottom(s)
        for action in Action.allCases where action.writes {
          guard let key = s.keyMap.hint(action) else { continue }
          #expect(!bottom.contains(" \(key) "), "\(width) \(pane): \(key) (\(action)) offered: \(bottom)")
        }
        // Pressed anyway, it says why.
        var pressed = s
        _ = pressed.handle(.key(.char("d")))
        #expect(pressed.message?.text.hasPrefix("read-only: drain now is not allowed") == true)
      }
    }
  }

  @Test func theWritersKeysAreShortenedBeforeAnyIsDroppedAndFullWhereThereIsRoom() {
    // b-alone: release, withdraw, by reason, detail, and the general keys.
    let wide = Self.bottom(Self.state(width: 160, focus: .blocked, select: 4, watcher: false))
    #expect(wide.hasPrefix("r release w withdraw R by reason enter detail d drain a auto / filter"), "\(wide)")
    // At 40 columns the selection's keys stay, their words shortened, with help and quit.
    let narrow = Self.bottom(Self.state(width: 40, focus: .blocked, select: 4, watcher: false))
    #expect(narrow == "r rel w wdraw R reason ? help q quit", "\(narrow)")
    // Between, a general key's word is shortened while every key of the selection keeps its own.
    let eighty = Self.bottom(Self.state(width: 80, focus: .blocked, select: 4, watcher: false))
    #expect(eighty.hasPrefix("r release w withdraw R by reason enter detail"), "\(eighty)")
  }

  @Test func theRefusedKeyIsOfferedOnlyWhereThereAreRefusedWritesToShow() {
    var s = Self.state(width: 160, focus: .answered, watcher: true)
    #expect(!Self.bottom(s).contains("! refused"))
    var status = Fixtures.status
    status.refused = 2
    _ = s.handle(.status(status))
    #expect(Self.bottom(s).contains("! refused"), "\(Self.bottom(s))")
  }

  // MARK: the status line

  static let t0 = WriterStatusTests.t0
  static let draining = WriterStatusTests.draining

  static func drainState(width: Int, height: Int, watcher: Bool, during: Bool) -> UIState {
    var s = Fixtures.state(width: width, height: height)
    if watcher { s.readOnlyReason = "opened to read" }
    if during {
      _ = s.handle(.writer(WriterStatusTests.live(drain: Self.draining), at: WriterStatusTests.drainingNow))
    } else {
      var record = WriterStatusTests.live()
      var ended = Self.draining
      ended.sent = 300
      ended.answered = 296
      ended.endedAt = t0.addingTimeInterval(102)
      record.lastDrain = ended
      _ = s.handle(.drained(DrainReport(answered: 296, unsent: 4)))
      _ = s.handle(.writer(record, at: t0.addingTimeInterval(110)))
    }
    return s
  }

  static func statusText(_ s: UIState) -> String {
    let lines = Renderer.render(s).text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let rows = s.layout.status
    return lines[rows.y..<(rows.y + rows.height)].joined(separator: "\n")
  }

  @Test(arguments: [60, 80, 120, 160])
  func aWatchersStatusLineKeepsTheWriterTheDrainItsRateAndReachability(width: Int) {
    let s = Self.drainState(width: width, height: width >= 120 ? 40 : 24, watcher: true, during: true)
    let status = Self.statusText(s)
    #expect(status.contains("writer"), "\(status)")
    #expect(status.contains("draining 154 of 300"), "\(status)")
    #expect(status.contains("212/s"), "\(status)")
    if width >= 80 {
      #expect(status.contains("1 s left"), "\(status)")
      #expect(status.contains("reachable"), "\(status)")
    }
    // Nothing essential is cut: a part that did not fit went whole.
    #expect(!status.contains("…"), "\(status)")
  }

  @Test(arguments: [(60, 16), (80, 24), (120, 40), (160, 48)])
  func goldenScreensDuringAndAfterADrainForWriterAndWatcher(size: (Int, Int)) {
    for during in [true, false] {
      for watcher in [false, true] {
        let s = Self.drainState(width: size.0, height: size.1, watcher: watcher, during: during)
        let bottom = Self.bottom(s)
        #expect(bottom.hasSuffix("? help q quit"), "\(bottom)")
        Golden.check(
          "drain-\(during ? "during" : "after")-\(watcher ? "watcher" : "writer")-\(size.0)x\(size.1)",
          ScreenTests.screen(s))
      }
    }
  }
}
