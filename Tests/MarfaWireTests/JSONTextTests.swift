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

  @Test func anObjectWrittenFromTwoMemberListsIsTheObjectOfBothJoined() {
    let leading: [(String, JSONValue)] = [("time", .string("t")), ("event", .string("answered"))]
    let members: [(String, JSONValue)] = [
      ("id", .string("w-1")), ("rows", .array([.string("a"), .null])), ("n", .number(3)),
      ("bad", .string("esc\u{1B}[31m \u{202E}")), ("o", .object([("k", .bool(true))])),
    ]
    for escaping in [JSONEscaping.wire, .visible, .ascii] {
      for (a, b) in [(leading, members), (leading, []), ([], members), ([], [])] {
        #expect(JSONValue.objectText(a, b, escaping: escaping) == JSONValue.object(a + b).text(escaping: escaping))
      }
    }
  }

  /// The word-at-a-time scan says what a byte-at-a-time one says, for every byte at every place.
  @Test func theScanForBytesToEscapeFindsEveryOneWhereverItLies() {
    func reference(_ bytes: [UInt8]) -> (Bool, Bool) {
      if bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) { return (true, false) }
      return (false, bytes.allSatisfy { $0 < 0x80 })
    }
    for length in [1, 7, 8, 9, 16, 19] {
      for place in 0..<length {
        for byte in UInt8.min...UInt8.max {
          var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
          bytes[place] = byte
          let found = bytes.withUnsafeBufferPointer(JSONValue.scan)
          let expected = reference(bytes)
          #expect(found.escapes == expected.0 && found.ascii == expected.1, "byte \(byte) at \(place) of \(length)")
        }
      }
    }
    #expect(JSONValue.scan(UnsafeBufferPointer(start: nil, count: 0)) == (false, true))
  }
}
