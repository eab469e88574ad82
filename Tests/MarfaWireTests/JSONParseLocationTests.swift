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

  @Test func aLineOfAMegabyteIsPointedAtInTimeOfWhatIsShownAndCutBothSides() throws {
    // Found by fuzzing the argument parser: the head was cut a character at a time, joining and
    // counting it whole each time, so a long pasted line took its length squared.
    let long = String(repeating: "é", count: 500_000)
    let text = "{\"a\": \"" + long + "\" oops " + long + "}"
    let error = try #require(refusal(text))
    let start = ContinuousClock.now
    let lines = error.pointer(in: text, width: 60)
    #expect(ContinuousClock.now - start < .seconds(1))
    #expect(lines[0].count <= 2 + 60 + 2)
    #expect(lines[0].hasPrefix("  …") && lines[0].hasSuffix("…"))
    let caret = try #require(lines[1].firstIndex(of: "^"))
    let offset = lines[1].distance(from: lines[1].startIndex, to: caret)
    #expect(lines[0][lines[0].index(lines[0].startIndex, offsetBy: offset)] == "o")
  }

  @Test func cuttingAWalkBackKeepsWhatTheWholeJoinKept() throws {
    // The head is cut walking back from the place; the old rule removed characters from the
    // front until the rest fit. Both keep the longest end that fits, here for every length.
    for n in 0..<130 {
      let text = "[\"" + String(repeating: "a", count: n) + "\" b]"
      let error = try #require(refusal(text))
      let lines = error.pointer(in: text, width: 60)
      let head = String(lines[0].dropFirst(2).prefix { $0 != " " })
      // Before the place: `["`, n letters, `" `; past 40 characters the last 39 are kept.
      let letters = String(repeating: "a", count: n)
      let expected = n + 4 > 40 ? "…" + String(repeating: "a", count: 37) + "\"" : "[\"" + letters + "\""
      #expect(head == expected, "n = \(n): \(lines[0])")
    }
  }
}
