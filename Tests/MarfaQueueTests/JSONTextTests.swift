import Testing
@testable import MarfaQueue

/// The JSON text the queue writes: plain text is written whole, everything JSON forbids raw is
/// escaped, and the text reads back as the same value.
@Suite struct JSONTextTests {
  @Test func stringsAreEscapedExactlyWhereJSONRequiresAndReadBackTheSame() throws {
    let cases: [(String, String)] = [
      ("plain text", #""plain text""#),
      ("", #""""#),
      ("版本冲突 réessayez 🙂", #""版本冲突 réessayez 🙂""#),
      ("say \"hi\"", #""say \"hi\"""#),
      ("back\\slash", #""back\\slash""#),
      ("line\nbreak\rtab\t", #""line\nbreak\rtab\t""#),
      ("bell\u{07} esc\u{1B} del\u{7F}", #""bell\u0007 esc\u001b del\u007f""#),
      ("\u{202E}bidi\u{202C}", "\"\u{202E}bidi\u{202C}\""),
    ]
    for (value, expected) in cases {
      let text = JSONValue.string(value).text
      #expect(text == expected, "\(value.debugDescription)")
      #expect(JSONValue.parse(Array(text.utf8)) == .string(value))
    }
    let object = JSONValue.object([("k\"ey", .string("v\u{01}")), ("n", .number(3)), ("a", .array([.bool(true), .null]))])
    #expect(object.text == #"{"k\"ey":"v\u0001","n":3,"a":[true,null]}"#)
    #expect(JSONValue.parse(Array(object.text.utf8)) == object)
  }
}
