import MarfaQueue
import Testing

@testable import VerdictsUI

/// Past 1000×1000 cells the screen lays out nothing and draws one line
/// on a grid no larger than it draws; curses refusing a terminal whose TERM is known says the
/// size, never "use a TERM such as xterm-256color" to a person using xterm-256color.
@Suite struct TooLargeTerminalTests {
  @Test(arguments: [(1001, 40), (120, 1001), (65535, 65535), (5000, 20)])
  func pastTheLimitTheLayoutIsTooLargeAndTheFrameIsOneLine(width: Int, height: Int) {
    var state = UIState(width: width, height: height)
    state.ascii = true
    #expect(state.layout.mode == .tooLarge)
    #expect(state.pageLimit(.waiting) == 2, "nothing is read for rows that are not drawn")
    let grid = Renderer.render(state)
    #expect(grid.height == 1 && grid.width == min(width, Layout.maximumWidth))
    let line = (0..<grid.width).map { grid[$0, 0].text }.joined()
    #expect(line.hasPrefix("too large: \(width)x\(height) (the screen draws at most 1000x1000)"), "\(line)")
  }

  @Test func theLimitItselfIsDrawnInFull() {
    let state = UIState(width: 1000, height: 1000)
    #expect(state.layout.mode == .grid)
  }

  @Test func cursesRefusingAKnownTermSaysTheSizeNotTheTerm() {
    let message = AppError.cursesRefused(term: "xterm-256color", width: 65535, height: 65535).message
    #expect(AppError.terminfoKnows("xterm-256color") == true || !message.isEmpty)
    if AppError.terminfoKnows("xterm-256color") {
      #expect(message.contains("65535×65535"), "\(message)")
      #expect(!message.contains("a TERM such as xterm-256color"), "\(message)")
      #expect(!message.contains("cannot address the cursor"), "\(message)")
    }
  }

  @Test func cursesRefusingAnUnknownTermStillNamesTheTerm() {
    let message = AppError.cursesRefused(term: "no-such-terminal-x", width: 80, height: 24).message
    #expect(message.contains("TERM=no-such-terminal-x cannot address the cursor"), "\(message)")
  }
}
