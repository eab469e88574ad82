import Testing

@testable import MarfaWire

/// A JSON number travels as its text: what a person or an instance wrote is what is stored and sent.
@Suite struct JSONNumberTests {
  @Test func numbersADoubleWouldChangeKeepEveryDigitThroughReadAndWrite() throws {
    for text in ["12345678901234567890", "9007199254740993", "1e400", "-0", "0.1", "1.50", "-2.5E-3", "100"] {
      let value = try JSONValue(parsing: "{\"n\":\(text)}")
      #expect(value.text == "{\"n\":\(text)}", "\(text)")
      #expect(value["n"].map { if case .number(let n) = $0 { return n.text } else { return "" } } == text)
    }
  }

  @Test func numbersCompareByValueSoThreeEqualsThreePointZero() {
    #expect(JSONNumber("3") == JSONNumber("3.0"))
    #expect(JSONNumber("-0") == JSONNumber("0"))
    #expect(JSONNumber("9007199254740993") != JSONNumber("9007199254740992"))
    #expect(JSONValue.number(3) == JSONValue.parse("3.0"))
    #expect(Set([JSONNumber("1")!, JSONNumber("1.0")!]).count == 1)
  }

  @Test func integersAreReadOnlyWhenTheNumberIsWhole() {
    #expect(JSONValue.parse("42")?.intValue == 42)
    #expect(JSONValue.parse("4.0")?.intValue == 4)
    #expect(JSONValue.parse("4.5")?.intValue == nil)
    #expect(JSONValue.parse("12345678901234567890")?.intValue == nil)
    #expect(JSONValue.int(-7).text == "-7")
    #expect(JSONValue.double(.nan) == .null)
    #expect(JSONValue.double(2.5).text == "2.5")
  }

  @Test func textThatIsNotAJSONNumberIsNoNumber() {
    for bad in ["", "01", "+1", "1.", ".5", "1e", "0x10", "NaN", "1 "] {
      #expect(JSONNumber(bad) == nil, "\(bad)")
    }
  }
}
