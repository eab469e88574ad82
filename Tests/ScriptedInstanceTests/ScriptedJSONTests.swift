import MarfaWire
import Testing

@testable import ScriptedInstance

@Suite struct ScriptedJSONTests {
  @Test func textRoundTripsWithSortedKeysAndWholeNumbers() throws {
    let text = #"{"b":[1,2.5,-3,true,null],"a":"x\"\n\u00e9\ud83d\ude00","c":{}}"#
    let value = try ScriptedJSON(parsing: text)
    #expect(value["a"]?.stringValue == "x\"\né😀")
    #expect(value.text == #"{"a":"x\"\né😀","b":[1,2.5,-3,true,null],"c":{}}"#)
    #expect(try ScriptedJSON(parsing: value.text) == value)
  }

  @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "tru", "\"\u{01}\"", "1 2", "{\"a\":1}}", "-"])
  func malformedTextIsRefusedWithAnOffset(text: String) {
    #expect(throws: JSONParseError.self) { try ScriptedJSON(parsing: text) }
  }

  @Test func deepNestingIsRefusedRatherThanOverflowingTheStack() {
    #expect(throws: JSONParseError.self) { try ScriptedJSON(parsing: String(repeating: "[", count: 100_000)) }
  }
}
