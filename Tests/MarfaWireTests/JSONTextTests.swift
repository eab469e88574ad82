import Testing

@testable import MarfaWire

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
    let object = JSONValue.object([
      ("k\"ey", .string("v\u{01}")), ("n", .number(3)), ("a", .array([.bool(true), .null])),
    ])
    #expect(object.text == #"{"k\"ey":"v\u0001","n":3,"a":[true,null]}"#)
    #expect(JSONValue.parse(Array(object.text.utf8)) == object)
  }

  @Test func theReaderTakesWhatJSONAllowsAndRefusesWhatItDoesNot() {
    func parse(_ text: String) -> JSONValue? { JSONValue.parse(Array(text.utf8)) }
    #expect(
      parse(#" {"a" : "plain", "b":"esc\"aped\\\n", "c":"\u00e9\ud83d\ude42/\/"} "#)
        == .object([("a", .string("plain")), ("b", .string("esc\"aped\\\n")), ("c", .string("é🙂//"))]))
    #expect(
      parse("[true,false,null,-0.5e+3,0,12,1E2]")
        == .array([.bool(true), .bool(false), .null, .number(-500), .number(0), .number(12), .number(100)]))
    #expect(parse(#""版本 réessayez""#) == .string("版本 réessayez"))
    for bad in [
      "tru", "nul", "[1,]", "{\"a\"}", "\"raw\u{01}control\"", #""\ud83d""#, #""\x""#, "-", "1.", "1e", "\"open",
    ] {
      #expect(parse(bad) == nil, "\(bad.debugDescription)")
    }
    // Bytes that are not UTF-8 inside a string are refused, with or without escapes before them.
    #expect(JSONValue.parse([0x22, 0xFF, 0x22]) == nil)
    #expect(JSONValue.parse([0x22, 0x5C, 0x6E, 0xFF, 0x22]) == nil)
  }

  @Test func theReaderSaysWhereEachTopLevelMemberLiesSoARowIsStoredAsItCame() throws {
    let text =
      #"{ "acknowledged" : false, "item" :  {"id":"i-1","title":"caf\u00e9 \"x\"","n":[1, 2]} , "item":{"id":"i-2"}, "k":{"item":3} }"#
    let bytes = Array(text.utf8)
    let (value, members) = try #require(JSONValue.parseKeepingMembers(bytes))
    #expect(value == JSONValue.parse(bytes))
    // A name given twice: the last, as the subscript reads it.
    let item = try #require(members["item"])
    #expect(String(decoding: bytes[item], as: UTF8.self) == #"{"id":"i-2"}"#)
    #expect(JSONValue.parse(Array(bytes[item])) == value["item"])
    #expect(String(decoding: bytes[try #require(members["acknowledged"])], as: UTF8.self) == "false")
    // Only the top level: the nested "item" is not a member of the answer.
    #expect(String(decoding: bytes[try #require(members["k"])], as: UTF8.self) == #"{"item":3}"#)
    #expect(members.count == 3)
    #expect(JSONValue.parseKeepingMembers(Array("{\"item\":{}} x".utf8)) == nil)
  }
}
