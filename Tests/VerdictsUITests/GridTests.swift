import Testing

@testable import VerdictsUI

@Suite struct GridTests {
  @Test func widths() {
    #expect(CharWidth.of(Character("a")) == 1)
    #expect(CharWidth.of(Character("中")) == 2)
    #expect(CharWidth.of(Character("한")) == 2)
    #expect(CharWidth.of(Character("ｱ")) == 1)  // halfwidth katakana
    #expect(CharWidth.of(Character("Ａ")) == 2)  // fullwidth A
    #expect(CharWidth.of(Character("🙂")) == 2)
    #expect(CharWidth.of(Character("e\u{301}")) == 1)
    #expect(CharWidth.of(Character("\u{2764}\u{FE0F}")) == 2)
    #expect(CharWidth.of(Unicode.Scalar(0x301)!) == 0)
    #expect(CharWidth.of(Unicode.Scalar(0x200B)!) == 0)
    #expect(CharWidth.of(Unicode.Scalar(0x1B)!) == -1)
    #expect(CharWidth.of("版本冲突 ok") == 11)
    #expect(CharWidth.of("┌─┐✓≈⇄✗■†") == 9)
  }

  /// A string of the screen's own glyphs is measured a scalar at a time: each such scalar must
  /// be one column by the grapheme-at-a-time rule, and must not join any neighbour into one grapheme.
  @Test func everyScalarMeasuredAloneIsOneColumnAndJoinsNoNeighbour() {
    let narrow = (0x20...0x2FFF).compactMap { Unicode.Scalar(UInt32($0)) }.filter { CharWidth.isNarrowAlone($0.value) }
    #expect(narrow.count > 1_000)
    let neighbours = stride(from: 0, to: narrow.count, by: narrow.count / 40).map { narrow[$0] } + ["a", "─", "…"]
    for s in narrow {
      #expect(CharWidth.graphemeWidth(String(s)) == 1, "U+\(String(s.value, radix: 16))")
      for n in neighbours {
        var pair = String.UnicodeScalarView()
        pair.append(s)
        pair.append(n)
        #expect(String(pair).count == 2, "U+\(String(s.value, radix: 16)) U+\(String(n.value, radix: 16))")
        #expect(CharWidth.of(String(pair)) == CharWidth.graphemeWidth(String(pair)))
      }
    }
    // A scalar outside the set sends the whole string to the grapheme-at-a-time rule.
    #expect(CharWidth.of("─e\u{301}─") == 3)
    #expect(CharWidth.of("✓\u{FE0F}") == CharWidth.graphemeWidth("✓\u{FE0F}"))
  }

  @Test func wideCharactersTakeTwoCells() {
    var g = Grid(width: 6, height: 1)
    let n = g.put("中a文", x: 0, y: 0)
    #expect(n == 5)
    #expect(g[0, 0].text == "中" && g[0, 0].width == 2)
    #expect(g[1, 0].isContinuation)
    #expect(g[2, 0].text == "a")
    #expect(g.line(0) == "中a文 ")
  }

  @Test func aWideCharacterThatDoesNotFitLeavesABlank() {
    var g = Grid(width: 4, height: 1)
    g.put("ab中", x: 0, y: 0, limit: 3)
    #expect(g.line(0) == "ab  ")
    #expect(!g.cells.contains { $0.isContinuation })
  }

  @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
    var g = Grid(width: 4, height: 1)
    g.put("中中", x: 0, y: 0)
    g.put("x", x: 1, y: 0)
    #expect(g.line(0) == " x中")
    g.put("y", x: 2, y: 0)
    #expect(g.line(0) == " xy ")
  }

  @Test func combiningMarksJoinTheirBase() {
    var g = Grid(width: 5, height: 1)
    let n = g.put("e\u{301}x", x: 0, y: 0)
    #expect(n == 2)
    #expect(g[0, 0].text == "e\u{301}")
    var h = Grid(width: 5, height: 1)
    h.put("\u{301}", x: 0, y: 0)
    #expect(h[0, 0].text == "◌\u{301}")
  }

  @Test func textLinesWrapByColumnsKeepingEscapes() {
    let line = TextLine("版本冲突版本冲突 \u{1B}x", .text)
    let wrapped = line.wrapped(10, indent: 2)
    #expect(wrapped.map(\.plain) == ["版本冲突版", "  本冲突 ␛", "  x"])
    #expect(wrapped[1].spans.last?.role == .escaped)
  }

  @Test func drawCutsWithAnEllipsis() {
    var g = Grid(width: 8, height: 1)
    TextLine("abcdefghij").draw(into: &g, x: 0, y: 0, limit: 6, ellipsis: "…")
    #expect(g.line(0) == "abcde…  ")
  }
}
