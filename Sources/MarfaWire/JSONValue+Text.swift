/// How much of a string a JSON writer escapes beyond what JSON requires.
public enum JSONEscaping: Sendable {
  /// Only what JSON requires (`"`, `\`, C0 controls) and DEL: the text sent on the wire and stored.
  case wire
  /// Also every character that changes or hides what a terminal shows (C1 controls such as CSI,
  /// bidirectional overrides, invisible format characters; the ``Sanitizer``'s set), as `\u`
  /// escapes: still valid JSON, and safe to print on a UTF-8 terminal.
  case visible
  /// Every character outside ASCII as `\u` escapes: safe on a terminal that is not UTF-8.
  case ascii
}

extension JSONValue {
  /// Parses JSON text, keeping object member order; nil when it is not one JSON value.
  public static func parse(_ text: String) -> JSONValue? {
    parse(Array(text.utf8))
  }

  /// Parses UTF-8 JSON bytes, keeping object member order; nil when they are not one JSON value.
  public static func parse<C: Collection>(_ bytes: C) -> JSONValue? where C.Element == UInt8 {
    var parser = JSONParser(Array(bytes))
    return parser.parseDocument()
  }

  /// Parses like ``parse(_:)``, reading a `\\u` escape of half a surrogate pair as U+FFFD
  /// instead of refusing the text: for an instance's answers, never for input given to verdicts.
  public static func parse(replacingLoneSurrogates bytes: [UInt8]) -> JSONValue? {
    var parser = JSONParser(bytes)
    parser.replacesLoneSurrogates = true
    return parser.parseDocument()
  }

  /// Parses UTF-8 JSON bytes like ``parse(_:)``, and says where each member's value of a
  /// top-level object lies in them (for a name given twice, the last, as the subscript reads it).
  ///
  /// With `replacingLoneSurrogates`, a `\\u` escape of half a surrogate pair reads as U+FFFD
  /// rather than making the whole text unreadable (for answers, whose words are kept).
  public static func parseKeepingMembers(_ bytes: [UInt8], replacingLoneSurrogates: Bool = false)
    -> (value: JSONValue, members: [String: Range<Int>])?
  {
    var parser = JSONParser(bytes)
    parser.replacesLoneSurrogates = replacingLoneSurrogates
    parser.memberRanges = [:]
    guard let value = parser.parseDocument() else { return nil }
    return (value, parser.memberRanges ?? [:])
  }

  /// Reads one JSON value from UTF-8 text (surrounding whitespace allowed), saying where and why
  /// when it is not one.
  public init(parsing text: String) throws(JSONParseError) {
    try self.init(parsing: Array(text.utf8))
  }

  /// Reads one JSON value from UTF-8 bytes (surrounding whitespace allowed), saying where and why
  /// when they are not one.
  public init(parsing bytes: [UInt8]) throws(JSONParseError) {
    var parser = JSONParser(bytes)
    guard let value = parser.parseDocument() else {
      throw parser.failure ?? JSONParseError(offset: parser.index, reason: "not a JSON value")
    }
    self = value
  }

  /// Compact JSON text for this value, as sent on the wire.
  public var text: String { text(escaping: .wire) }

  /// Compact JSON text for this value, escaping strings as `escaping` says.
  public func text(escaping: JSONEscaping) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(256)
    write(into: &out, indent: nil, level: 0, escaping: escaping)
    return String(decoding: out, as: UTF8.self)
  }

  /// Indented JSON text for this value, for people.
  public var prettyText: String {
    var out: [UInt8] = []
    write(into: &out, indent: Array("  ".utf8), level: 0, escaping: .wire)
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends the value's JSON text as UTF-8 bytes: appending to a `String` a piece at a time was
  /// most of what a `watch --plain --json` line cost.
  func write(into out: inout [UInt8], indent: [UInt8]?, level: Int, escaping: JSONEscaping) {
    switch self {
    case .null: out.append(contentsOf: "null".utf8)
    case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
    case .number(let n): out.append(contentsOf: n.text.utf8)
    case .string(let s): JSONValue.writeString(s, into: &out, escaping: escaping)
    case .array(let items):
      if items.isEmpty {
        out.append(contentsOf: "[]".utf8)
        return
      }
      out.append(UInt8(ascii: "["))
      for (i, item) in items.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        newline(&out, indent, level + 1)
        item.write(into: &out, indent: indent, level: level + 1, escaping: escaping)
      }
      newline(&out, indent, level)
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      if members.isEmpty {
        out.append(contentsOf: "{}".utf8)
        return
      }
      out.append(UInt8(ascii: "{"))
      JSONValue.writeMembers(members, into: &out, indent: indent, level: level, escaping: escaping)
      newline(&out, indent, level)
      out.append(UInt8(ascii: "}"))
    }
  }

  /// Compact JSON text of an object whose members are `leading`, then `members`: the same text as
  /// `.object(leading + members)`, without making the joined list (a `watch --plain --json` line
  /// puts its time and event before the write's own members, once for every write it prints).
  public static func objectText(
    _ leading: [(String, JSONValue)], _ members: [(String, JSONValue)], escaping: JSONEscaping
  ) -> String {
    guard !leading.isEmpty || !members.isEmpty else { return "{}" }
    var out: [UInt8] = []
    out.reserveCapacity(512)
    out.append(UInt8(ascii: "{"))
    writeMembers(leading, into: &out, indent: nil, level: 0, escaping: escaping)
    if !leading.isEmpty, !members.isEmpty { out.append(UInt8(ascii: ",")) }
    writeMembers(members, into: &out, indent: nil, level: 0, escaping: escaping)
    out.append(UInt8(ascii: "}"))
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends an object's members, comma-separated, each on a line of its own when indented.
  private static func writeMembers(
    _ members: [(String, JSONValue)], into out: inout [UInt8], indent: [UInt8]?, level: Int, escaping: JSONEscaping
  ) {
    for (i, (key, value)) in members.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      if let indent {
        out.append(UInt8(ascii: "\n"))
        for _ in 0..<(level + 1) { out.append(contentsOf: indent) }
      }
      writeString(key, into: &out, escaping: escaping)
      out.append(UInt8(ascii: ":"))
      if indent != nil { out.append(UInt8(ascii: " ")) }
      value.write(into: &out, indent: indent, level: level + 1, escaping: escaping)
    }
  }

  private func newline(_ out: inout [UInt8], _ indent: [UInt8]?, _ level: Int) {
    guard let indent else { return }
    out.append(UInt8(ascii: "\n"))
    for _ in 0..<level { out.append(contentsOf: indent) }
  }

  /// `s` as a JSON string literal, quotes included.
  public static func quoted(_ s: String, escaping: JSONEscaping = .wire) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(s.utf8.count + 2)
    writeString(s, into: &out, escaping: escaping)
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends `s` as a JSON string literal: the one string escaper of the project.
  static func writeString(_ s: String, into out: inout [UInt8], escaping: JSONEscaping = .wire) {
    out.append(0x22)
    var s = s
    // Most text needs no escape: its bytes are appended whole.
    let scan = s.withUTF8(JSONValue.scan)
    let plain: Bool
    switch escaping {
    case .wire: plain = !scan.escapes
    case .visible: plain = !scan.escapes && (scan.ascii || Sanitizer.isSafe(s))
    case .ascii: plain = !scan.escapes && scan.ascii
    }
    if plain {
      s.withUTF8 { out.append(contentsOf: $0) }
      out.append(0x22)
      return
    }
    for scalar in s.unicodeScalars {
      let v = scalar.value
      switch v {
      case 0x22, 0x5C:
        out.append(0x5C)
        out.append(UInt8(v))
      case 0x0A:
        out.append(0x5C)
        out.append(0x6E)
      case 0x0D:
        out.append(0x5C)
        out.append(0x72)
      case 0x09:
        out.append(0x5C)
        out.append(0x74)
      case 0..<0x20, 0x7F: appendEscape(v, into: &out)
      case 0x20..<0x7F: out.append(UInt8(v))
      default:
        if escaping == .ascii || (escaping == .visible && Sanitizer.replacement(scalar) != nil) {
          appendEscape(v, into: &out)
        } else {
          UTF8.encode(scalar) { out.append($0) }
        }
      }
    }
    out.append(0x22)
  }

  /// Whether the bytes hold one JSON must escape (below 0x20, `"`, `\`, DEL) and, when none,
  /// whether all are ASCII. Eight bytes at a time: each test says exactly whether some byte of
  /// the word matches (a byte at 0x80 or above never does), never which.
  static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (escapes: Bool, ascii: Bool) {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    /// Some byte of `x` is below `n` (n ≤ 0x80).
    func below(_ x: UInt64, _ n: UInt64) -> Bool { (x &- ones &* n) & ~x & high != 0 }
    /// Some byte of `x` is `b`.
    func has(_ x: UInt64, _ b: UInt64) -> Bool { below(x ^ (ones &* b), 1) }
    var ascii = true
    var i = 0
    if let base = bytes.baseAddress {
      let raw = UnsafeRawPointer(base)
      while i + 8 <= bytes.count {
        let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        if below(x, 0x20) || has(x, 0x22) || has(x, 0x5C) || has(x, 0x7F) { return (true, false) }
        if x & high != 0 { ascii = false }
        i += 8
      }
    }
    while i < bytes.count {
      let b = bytes[i]
      if b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F { return (true, false) }
      if b > 0x7F { ascii = false }
      i += 1
    }
    return (false, ascii)
  }

  /// Appends `\uXXXX` for a scalar, as a surrogate pair above U+FFFF (lower-case hex).
  private static func appendEscape(_ value: UInt32, into bytes: inout [UInt8]) {
    func digit(_ d: UInt32) -> UInt8 { UInt8(d < 10 ? 0x30 + d : 0x61 + d - 10) }
    func unit(_ u: UInt32) {
      bytes.append(0x5C)
      bytes.append(0x75)
      for shift in [12, 8, 4, 0] as [UInt32] { bytes.append(digit(u >> shift & 0xF)) }
    }
    if value > 0xFFFF {
      let v = value - 0x10000
      unit(0xD800 + (v >> 10))
      unit(0xDC00 + (v & 0x3FF))
    } else {
      unit(value)
    }
  }
}
