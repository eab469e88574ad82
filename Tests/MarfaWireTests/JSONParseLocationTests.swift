import Testing

@testable import MarfaWire

/// A refusal of bad JSON points at the place, as a person reads the text: line, column and a caret.
@Suite struct JSONParseLocationTests {
  func refusal(_ text: String) -> JSONParseError? {
    do {
      _ = try JSONValue(parsing: text)
      return nil
    } catch { return error }
  }

  @Test func theLocationCountsLinesAndCharactersFromOne() throws {
    let text = "{\"a\": 1,\n  \"é\": tru}"
    let error = try #require(refusal(text))
    let (line, column) = error.location(in: text)
    #expect(line == 2)
    #expect(column == 8)  // After `  "é": `, counted in characters, not bytes.
  }

  @Test func theCaretSitsUnderTheCharacterWhereReadingStopped() throws {
    let text = "{\"title\": \"x\",\n \"n\": 1 2}"
    let error = try #require(refusal(text))
    let lines = error.pointer(in: text)
    #expect(lines == ["   \"n\": 1 2}", "          ^"])
  }

  @Test func aCaretPastTheEndPointsJustAfterTheText() throws {
    let error = try #require(refusal("{\"a\":"))
    #expect(error.pointer(in: "{\"a\":") == ["  {\"a\":", "       ^"])
  }

  @Test func controlCharactersOnTheLineAreShownEscapedAndTheCaretFollowsThem() throws {
    let text = "{\"a\":\t\u{1B}x}"
    let error = try #require(refusal(text))
    let lines = error.pointer(in: text, ascii: true)
    let caret = try #require(lines[1].firstIndex(of: "^"))
    let shownBefore = lines[0][..<caret]
    #expect(!lines[0].contains("\u{1B}"))
    #expect(lines[0][caret...].hasPrefix("x") || lines[0][caret...].hasPrefix("\\"))
    #expect(shownBefore.hasPrefix("  {\"a\":"))
  }

  @Test func aLongLineIsCutAroundThePlaceKeepingTheCaretUnderIt() throws {
    let text = "{\"a\": \"" + String(repeating: "x", count: 200) + "\" oops " + String(repeating: "y", count: 200) + "}"
    let error = try #require(refusal(text))
    let lines = error.pointer(in: text, width: 60)
    #expect(lines[0].count <= 2 + 60 + 2)
    let caret = try #require(lines[1].firstIndex(of: "^"))
    let offset = lines[1].distance(from: lines[1].startIndex, to: caret)
    let under = lines[0][lines[0].index(lines[0].startIndex, offsetBy: offset)]
    #expect(under == "o")
    #expect(lines[0].contains("…"))
  }
}
