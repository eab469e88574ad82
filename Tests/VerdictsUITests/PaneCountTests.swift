import MarfaQueue
import Testing

@testable import VerdictsUI

/// A pane's title and its range say one count: the page's, read together with its rows, even
/// while the store's status (read apart, at another moment of a drain) says another.
@Suite struct PaneCountTests {
  @Test func theTitleAndTheRangeOfAPaneSayTheSameCountWhileTheStatusSaysAnother() {
    var s = Fixtures.state(width: 80, height: 24)
    var st = Fixtures.status
    st.counts.waiting = 12_029
    _ = s.handle(.status(st))
    let rows = Array(repeating: Fixtures.waiting[0], count: 1).enumerated().map { i, w in
      var w = w
      w.id = "w-\(i)"
      return w
    }
    _ = s.handle(.loaded(QueuePage(pane: .waiting, offset: 0, writes: rows, total: 12_019)))
    let text = Renderer.render(s).text
    #expect(text.contains("Waiting 12,019"), "\(text)")
    #expect(text.contains("of 12,019"), "\(text)")
    #expect(!text.contains("12,029"), "\(text)")
  }
}
