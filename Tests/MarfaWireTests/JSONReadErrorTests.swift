import Testing

@testable import MarfaWire

/// Text that is not JSON is refused saying where and why, so a person can find the mistake.
@Suite struct JSONReadErrorTests {
  @Test func aRefusalNamesTheByteWhereReadingStoppedAndWhy() {
    let cases: [(String, Int, String)] = [
      (#"{"a":1,}"#, 7, "expected a member name"),
      ("[1 2]", 3, "expected ',' or ']'"),
      (#"{"title": tru}"#, 10, "expected true"),
      ("", 0, "unexpected end of text"),
      ("1 x", 2, "unexpected text after the value"),
      (#""a\qb""#, 3, "bad escape"),
    ]
    for (text, offset, reason) in cases {
      do {
        _ = try JSONValue(parsing: text)
        Issue.record("\(text) was read")
      } catch {
        #expect(error.offset == offset, "\(text)")
        #expect(error.reason == reason, "\(text)")
        #expect(error.description == "not valid JSON at byte \(offset): \(reason)")
      }
    }
  }

  @Test func nestingPastTheLimitIsRefusedNotACrash() {
    #expect(throws: JSONParseError.self) { try JSONValue(parsing: String(repeating: "[", count: 100_000)) }
  }
}
