import Testing

@testable import VerdictsUI

@Suite struct SanitizerTests {
  @Test func escapeAndC0BecomeControlPictures() {
    #expect(Sanitizer.clean("a\u{1B}[31mb") == "a␛[31mb")
    #expect(Sanitizer.clean("\u{0}\u{7}\u{8}\t\n\r") == "␀␇␈␉␊␍")
    #expect(Sanitizer.clean("x\u{7F}") == "x␡")
  }

  @Test func c1AndBidiAndInvisiblesBecomeEscapes() {
    #expect(Sanitizer.clean("\u{9B}2J") == "\\u{009b}2J")
    #expect(Sanitizer.clean("abc\u{202E}fed\u{202C}") == "abc\\u{202e}fed\\u{202c}")
    #expect(Sanitizer.clean("\u{2066}x\u{2069}") == "\\u{2066}x\\u{2069}")
    #expect(Sanitizer.clean("a\u{200B}b\u{200D}c\u{FEFF}") == "a\\u{200b}b\\u{200d}c\\u{feff}")
    #expect(Sanitizer.clean("soft\u{AD}hyphen") == "soft\\u{00ad}hyphen")
    #expect(Sanitizer.clean("line\u{2028}para\u{2029}") == "line\\u{2028}para\\u{2029}")
    #expect(Sanitizer.clean("\u{FFFE}") == "\\u{fffe}")
  }

  @Test func multiByteAndCombiningTextIsKept() {
    let text = "版本冲突 — réessayez, e\u{301}, 한국어, 🙂, 👍🏽"
    #expect(Sanitizer.clean(text) == text)
    #expect(Sanitizer.isSafe(text))
  }

  @Test func segmentsTellMadeVisibleRunsApart() {
    let s = Sanitizer.segments("ok\u{1B}[0m\u{202E}!")
    #expect(s.map(\.text) == ["ok", "␛", "[0m", "\\u{202e}", "!"])
    #expect(s.map(\.escaped) == [false, true, false, true, false])
  }

  @Test func linesSplitOnNewlinesAndCleanEach() {
    #expect(Sanitizer.lines("a\r\nb\u{1B}\nc") == ["a", "b␛", "c"])
  }

  @Test func nothingRawReachesTheGrid() {
    var grid = Grid(width: 60, height: 1)
    grid.put(Fixtures.escapeFailure, x: 0, y: 0)
    for cell in grid.cells {
      for scalar in cell.text.unicodeScalars {
        #expect(scalar.value >= 0x20 && !(0x7F...0x9F).contains(scalar.value))
        #expect(!(0x202A...0x202E).contains(scalar.value) && !(0x2066...0x2069).contains(scalar.value))
      }
    }
    #expect(grid.line(0).hasPrefix("upstream ␛[31mRED␛[0m \\u{202e}txet"))
    #expect(grid[9, 0].role == .escaped)
  }
}
