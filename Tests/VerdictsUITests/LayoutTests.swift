import MarfaQueue
import Testing

@testable import VerdictsUI

@Suite struct LayoutTests {
  @Test func modesByBoundary() {
    let cases: [(Int, Int, Layout.Mode)] = [
      (39, 24, .tooSmall), (80, 9, .tooSmall), (40, 10, .single), (59, 40, .single), (80, 15, .single),
      (60, 16, .stack), (99, 60, .stack), (200, 29, .stack), (100, 30, .grid), (300, 100, .grid),
    ]
    for (w, h, mode) in cases {
      #expect(Layout(width: w, height: h, focus: .waiting, detailFocused: false).mode == mode, "\(w)x\(h)")
    }
  }

  @Test func everyFrameFitsOnTheScreenAndNothingOverlaps() {
    for (w, h) in [(40, 10), (59, 15), (60, 16), (80, 24), (99, 29), (100, 30), (120, 40), (250, 80)] {
      for focus in QueuePane.allCases {
        for detail in [false, true] {
          let l = Layout(width: w, height: h, focus: focus, detailFocused: detail)
          var rects = l.panes.values.map(\.outer) + [l.status, l.hints]
          if let d = l.detail { rects.append(d) }
          if let t = l.tabs { rects.append(t) }
          var used = Set<Int>()
          for r in rects {
            #expect(r.x >= 0 && r.y >= 0 && r.x + r.width <= w && r.y + r.height <= h, "\(w)x\(h) \(r)")
            for y in r.y..<(r.y + r.height) {
              for x in r.x..<(r.x + r.width) {
                #expect(used.insert(y * w + x).inserted, "\(w)x\(h) overlap at \(x),\(y)")
              }
            }
          }
          if l.mode != .single || !detail { #expect(l.rows(focus) >= 1, "\(w)x\(h)") }
        }
      }
    }
  }
}
