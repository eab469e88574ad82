import Testing

@testable import MarfaWire

/// `String(utf8:)` judges bytes exactly as the standard library's `String(validating:as:)` does,
/// and the JSON reader that uses it takes and refuses the same strings.
@Suite struct StringUTF8Tests {
  /// Sequences at each edge of UTF-8: overlong forms, encoded surrogates, past U+10FFFF, cut
  /// sequences, stray continuation bytes, and the largest and smallest of each length.
  static let edges: [[UInt8]] = [
    [], [0x41], [0x7F], [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xC2, 0x80], [0xDF, 0xBF],
    [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80],
    [0xED, 0xBF, 0xBF], [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBF], [0xF0, 0x80, 0x80, 0x80],
    [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
    [0xFE], [0xFF], [0xE2, 0x82], [0xF0, 0x9F, 0x99], [0x61, 0xE2, 0x82, 0xAC, 0x62], [0xEF, 0xBF, 0xBD],
    [0x00], [0x61, 0x00, 0x62],
  ]

  @Test func edgeSequencesAreTakenAndRefusedAsTheStandardLibraryDoes() {
    for bytes in Self.edges {
      #expect(String(utf8: bytes) == String(validating: bytes, as: UTF8.self), "\(bytes)")
      #expect(String(utf8: bytes[...]) == String(validating: bytes, as: UTF8.self), "\(bytes)")
    }
  }

  @Test func randomBytesAreJudgedAsTheStandardLibraryDoes() {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    var refused = 0
    for _ in 0..<20_000 {
      let count = Int(next() % 12)
      // Mostly bytes a UTF-8 sequence is made of, so many are valid and many just miss.
      let bytes = (0..<count).map { _ -> UInt8 in
        let pick = next() % 4
        return pick == 0 ? UInt8(next() % 0x80) : pick == 1 ? 0x80 | UInt8(next() % 0x40) : UInt8(0xC0 + next() % 0x40)
      }
      let expected = String(validating: bytes, as: UTF8.self)
      if expected == nil { refused += 1 }
      #expect(String(utf8: bytes) == expected, "\(bytes)")
    }
    // Both kinds were met.
    #expect(refused > 1_000 && refused < 19_000)
  }

  @Test func theJSONReaderTakesAStringExactlyWhenItsBytesAreUTF8() {
    for bytes in Self.edges where !bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
      let quoted = [0x22] + bytes + [0x22]
      let expected = String(validating: bytes, as: UTF8.self).map(JSONValue.string)
      #expect(JSONValue.parse(quoted) == expected, "\(bytes)")
      // After an escape, the reader takes the other path through a string.
      let escaped = [0x22, 0x5C, 0x6E] + bytes + [0x22]
      #expect(JSONValue.parse(escaped) == String(validating: [0x0A] + bytes, as: UTF8.self).map(JSONValue.string))
    }
  }
}
