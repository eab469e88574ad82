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
}
