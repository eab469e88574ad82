import Testing

@testable import MarfaWire

/// `--json` output is valid JSON that a terminal cannot be steered by.
@Suite struct JSONEscapingTests {
  static let hostile = "a\u{1B}[2J b\u{85}c\u{9B}31m d\u{9D}e \u{202E}txt \u{AD}\u{61C}\u{180E}\u{206A}\u{E0041} é 版"

  @Test func visibleEscapingWritesEveryTerminalSteeringCharacterAsAnEscape() throws {
    let text = JSONValue.string(Self.hostile).text(escaping: .visible)
    for scalar in text.unicodeScalars {
      #expect(Sanitizer.replacement(scalar) == nil || scalar == "\\", "\(scalar.value)")
    }
    #expect(text.contains(#"\u0085"#) && text.contains(#"\u009b"#) && text.contains(#"\u202e"#))
    #expect(text.contains(#"\udb40\udc41"#))  // a tag character, as a surrogate pair
    #expect(text.contains("é 版"))
    #expect(try JSONValue(parsing: text) == .string(Self.hostile))
  }

  @Test func asciiEscapingWritesOnlyASCII() throws {
    let text = JSONValue.object([("k", .string(Self.hostile))]).text(escaping: .ascii)
    #expect(text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F })
    #expect(try JSONValue(parsing: text) == .object([("k", .string(Self.hostile))]))
  }

  @Test func wireEscapingChangesOnlyWhatJSONRequires() {
    #expect(JSONValue.string("\u{202E}é\u{85}").text == "\"\u{202E}é\u{85}\"")
  }
}
