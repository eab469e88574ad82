import Testing

@testable import MarfaWire

/// The one edit distance, used by the command line's "did you mean" and the ID resolver.
@Suite struct EditDistanceTests {
  @Test func countsInsertionsDeletionsAndSubstitutions() {
    #expect(EditDistance.between(Array("kitten"), Array("sitting")) == 3)
    #expect(EditDistance.between(Array("drain"), Array("drian")) == 2)
    #expect(EditDistance.between(Array("status"), Array("status")) == 0)
  }

  @Test func anEmptySideCostsTheOthersLength() {
    #expect(EditDistance.between([Character](), Array("abc")) == 3)
    #expect(EditDistance.between(Array("abcd"), [Character]()) == 4)
  }

  @Test func worksOnUnicodeScalarsAsOnCharacters() {
    let a = Array("0193abcd".unicodeScalars)
    let b = Array("0193abce".unicodeScalars)
    #expect(EditDistance.between(a, b) == 1)
  }
}
