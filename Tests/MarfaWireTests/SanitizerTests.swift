import Testing

@testable import MarfaWire

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
}

/// Outside a UTF-8 terminal, text is made visible in ASCII only.
@Suite struct SanitizerASCIITests {
  @Test func asciiFormEscapesControlsAndEveryNonASCIICharacter() {
    let shown = Sanitizer.clean("bad\u{1B}[2J \u{9B}31m Л é\u{7F}", ascii: true)
    #expect(shown == "bad\\u{001b}[2J \\u{009b}31m \\u{041b} \\u{00e9}\\u{007f}")
    #expect(shown.utf8.allSatisfy { $0 < 0x80 })
    #expect(Sanitizer.clean("plain text", ascii: true) == "plain text")
  }

  @Test func theLocaleIsUTF8OnlyWhenItsFirstSetVariableSaysSo() {
    #expect(Sanitizer.localeIsUTF8(["LANG": "C.UTF-8"]))
    #expect(Sanitizer.localeIsUTF8(["LANG": "en_US.utf8"]))
    #expect(!Sanitizer.localeIsUTF8(["LANG": "C"]))
    #expect(!Sanitizer.localeIsUTF8([:]))
    #expect(!Sanitizer.localeIsUTF8(["LC_ALL": "C", "LANG": "C.UTF-8"]))
    #expect(Sanitizer.localeIsUTF8(["LC_ALL": "", "LC_CTYPE": "C.UTF-8", "LANG": "C"]))
  }

  @Test func formatCharactersTheOldCommandLineSanitizerMissedAreEscaped() {
    for v: UInt32 in [0xAD, 0x61C, 0x180E, 0x206A, 0x206F, 0xE0001, 0xE007F] {
      let s = String(Character(Unicode.Scalar(v)!))
      #expect(Sanitizer.clean("a\(s)b") != "a\(s)b", "\(v)")
    }
  }
}
