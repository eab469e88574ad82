import Testing

@testable import MarfaQueue

/// Every answer's header lines are read into a name and a value (`CurlTransfer.field`): a line of
/// printable ASCII byte by byte, any other as text. These hold the two readings to one result on
/// the lines the byte path takes, and show the lines it leaves to the text reading.
@Suite struct HeaderFieldTests {
  func field(_ line: [UInt8]) -> (name: String, value: String)? {
    line.withUnsafeBytes { CurlTransfer.field($0) }
  }

  func textField(_ line: [UInt8]) -> (name: String, value: String)? {
    line.withUnsafeBytes { bytes in
      bytes.firstIndex(of: UInt8(ascii: ":")).map { CurlTransfer.textField(bytes, colon: $0) }
    }
  }

  @Test(arguments: [
    "X-Marfa-Contract: 2", "content-type:application/json", "  Retry-After \t:\t 7  ", "Location: /items/a b",
    "Empty:", "Empty:   ", ": no name", "\tTAB-NAME\t:\tv\tw\t", "Set-Cookie: a=b; Path=/; HttpOnly",
    "X: a:b:c", "MiXeD-CaSe-123_~!: ~value~", "x-long-name-of-sixteen-or-more-bytes: v",
  ])
  func aLineOfPrintableASCIIReadsAsItsTextReadingDoes(_ text: String) {
    let line = Array(text.utf8)
    let fast = field(line)
    let slow = textField(line)
    #expect(fast?.name == slow?.name)
    #expect(fast?.value == slow?.value)
  }

  @Test func theNameIsLowercasedAndBothEndsTrimmed() {
    let f = field(Array("  Idempotency-KEY \t:  abc DEF \t".utf8))
    #expect(f?.name == "idempotency-key")
    #expect(f?.value == "abc DEF")
  }

  @Test func aLineWithoutAColonIsNoField() {
    #expect(field(Array("HTTP/1.1 201 Created".utf8)) == nil)
    #expect(field(Array("no colon here".utf8)) == nil)
    #expect(field([]) == nil)
  }

  /// Bytes past ASCII, and control bytes other than a tab, go the text way: UTF-8 kept as it is,
  /// other bytes read as Latin-1, a control byte kept where it is, a name past ASCII lowercased,
  /// and only whole spaces trimmed.
  @Test(arguments: [
    (Array("X-Name: café".utf8), "x-name", "café"),
    ([0x58, 0x3A, 0x20, 0xE9, 0x74, 0xE9], "x", "\u{E9}t\u{E9}"),
    (Array("X: a\u{0B}".utf8), "x", "a\u{0B}"),
    (Array("X:\u{1F}v".utf8), "x", "\u{1F}v"),
    (Array("N\u{00}ame: v".utf8), "n\u{00}ame", "v"),
    // A space before a combining mark is one character with it, and stays.
    (Array("X: \u{301}a".utf8), "x", " \u{301}a"),
    (Array("Ünï: v".utf8), "ünï", "v"),
  ])
  func anyOtherLineIsReadAsText(_ line: [UInt8], name: String, value: String) {
    let f = field(line)
    #expect(f?.name == name)
    #expect(f?.value == value)
    #expect(f?.name == textField(line)?.name)
    #expect(f?.value == textField(line)?.value)
  }

  @Test func aLatin1ValueIsReadByteForCodePoint() {
    #expect(field([0x58, 0x3A, 0x20, 0xE9, 0x74, 0xE9])?.value == "\u{E9}t\u{E9}")
  }
}
