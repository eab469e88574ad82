/// One JSON object's compact text, written member by member as UTF-8 bytes with no
/// ``JSONValue`` tree between: the ``JSONObjectSink`` for a line printed once and let go (a
/// `watch --plain --json` line for every write a drain answers). The text is the same, byte for
/// byte, as ``JSONValue/text(escaping:)`` of the same members.
public struct JSONObjectText: JSONObjectSink {
  private var out: [UInt8] = []
  private let escaping: JSONEscaping
  private var empty = true

  /// An object opened, its strings to be escaped as `escaping` says.
  public init(escaping: JSONEscaping, capacity: Int = 512) {
    self.escaping = escaping
    out.reserveCapacity(capacity)
    out.append(UInt8(ascii: "{"))
  }

  /// The object's text, closed.
  public consuming func text() -> String {
    out.append(UInt8(ascii: "}"))
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends `,"name":` (no comma before the first).
  private mutating func name(_ name: StaticString) {
    if !empty { out.append(UInt8(ascii: ",")) }
    empty = false
    out.append(UInt8(ascii: "\""))
    name.withUTF8Buffer { bytes in
      assert(bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }, "a name JSON escapes")
      out.append(contentsOf: bytes)
    }
    out.append(UInt8(ascii: "\""))
    out.append(UInt8(ascii: ":"))
  }

  private mutating func null() { out.append(contentsOf: "null".utf8) }

  public mutating func add(_ name: StaticString, _ value: JSONValue) {
    self.name(name)
    value.write(into: &out, indent: nil, level: 1, escaping: escaping)
  }

  public mutating func add(_ name: StaticString, string: String?) {
    self.name(name)
    if let string { JSONValue.writeString(string, into: &out, escaping: escaping) } else { null() }
  }

  public mutating func add(_ name: StaticString, int: Int?) {
    self.name(name)
    guard let int else { return null() }
    JSONObjectText.writeInt(int, into: &out)
  }

  public mutating func add(_ name: StaticString, bool: Bool) {
    self.name(name)
    out.append(contentsOf: (bool ? "true" : "false").utf8)
  }

  public mutating func add(_ name: StaticString, strings: [String]) {
    self.name(name)
    out.append(UInt8(ascii: "["))
    for (i, s) in strings.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      JSONValue.writeString(s, into: &out, escaping: escaping)
    }
    out.append(UInt8(ascii: "]"))
  }

  /// Appends a whole number's decimal digits (as `String(n)` spells it), with no string made.
  static func writeInt(_ n: Int, into out: inout [UInt8]) {
    if n < 0 { out.append(UInt8(ascii: "-")) }
    var magnitude = n.magnitude
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        buffer[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
        count += 1
      } while magnitude > 0
      out.append(contentsOf: buffer[(24 - count)...])
    }
  }
}
