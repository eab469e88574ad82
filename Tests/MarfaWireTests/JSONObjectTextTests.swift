import Testing

@testable import MarfaWire

/// An object written straight out as text is the same, byte for byte, as the same members made
/// into a tree and written, in every escaping; the tree sink makes that tree.
@Suite struct JSONObjectTextTests {
  static let strings = [
    "", "plain", "a \"quoted\" \\ back", "tab\tline\nreturn\r", "\u{0}\u{1F}\u{7F}", "é 版 😀",
    JSONEscapingTests.hostile, "\u{202E}rtl", String(repeating: "x", count: 300),
  ]
  static let ints = [0, 1, -1, 9, 10, 99, 100, 12_345, -98_765, Int.max, Int.min, Int(Int32.max) + 1]

  /// Adds every kind of member to `sink`, from the lists above, in one fixed order.
  static func members<Sink: JSONObjectSink>(_ sink: inout Sink, seed: Int) {
    let s = strings[seed % strings.count]
    sink.add("s", string: s)
    sink.add("none", string: nil)
    sink.add("n", int: ints[seed % ints.count])
    sink.add("no_n", int: nil)
    sink.add("yes", bool: seed % 2 == 0)
    sink.add("list", strings: Array(strings.prefix(seed % 4)))
    sink.add("empty_list", strings: [])
    sink.add("tree", .object([("k", .string(s)), ("a", .array([.int(seed), .null, .bool(true)]))]))
    sink.add("empty_object", .object([]))
    sink.add("null", .null)
  }

  @Test(arguments: [JSONEscaping.wire, .visible, .ascii])
  func writtenStraightOutIsTheTreesTextByteForByte(escaping: JSONEscaping) {
    for seed in 0..<(Self.strings.count * Self.ints.count) {
      var tree = JSONMemberList()
      Self.members(&tree, seed: seed)
      var text = JSONObjectText(escaping: escaping, capacity: 8)
      Self.members(&text, seed: seed)
      #expect(text.text() == tree.object.text(escaping: escaping), "seed \(seed)")
    }
  }

  @Test func theTreeSinkMakesTheMembersInOrder() {
    var tree = JSONMemberList()
    tree.add("a", string: "x")
    tree.add("b", int: nil)
    tree.add("c", strings: ["y"])
    tree.add("d", bool: false)
    #expect(
      tree.object == .object([("a", .string("x")), ("b", .null), ("c", .array([.string("y")])), ("d", .bool(false))]))
  }

  @Test func anObjectWithNoMembersIsEmptyBraces() {
    #expect(JSONObjectText(escaping: .wire).text() == "{}")
  }

  @Test func wholeNumbersAreWrittenAsStringSpellsThem() {
    var values = Self.ints
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 { values.append(Int.random(in: Int.min...Int.max, using: &generator) >> Int.random(in: 0..<63)) }
    for n in values {
      var out: [UInt8] = []
      JSONObjectText.writeInt(n, into: &out)
      #expect(String(decoding: out, as: UTF8.self) == String(n))
    }
  }
}
