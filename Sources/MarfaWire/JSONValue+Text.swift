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
    var out = ""
    write(into: &out, indent: nil, level: 0, escaping: escaping)
    return out
  }

  /// Indented JSON text for this value, for people.
  public var prettyText: String {
    var out = ""
    write(into: &out, indent: "  ", level: 0, escaping: .wire)
    return out
  }

  func write(into out: inout String, indent: String?, level: Int, escaping: JSONEscaping) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let n): out += n.text
    case .string(let s): JSONValue.writeString(s, into: &out, escaping: escaping)
    case .array(let items):
      if items.isEmpty {
        out += "[]"
        return
      }
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        newline(&out, indent, level + 1)
        item.write(into: &out, indent: indent, level: level + 1, escaping: escaping)
      }
      newline(&out, indent, level)
      out += "]"
    case .object(let members):
      if members.isEmpty {
        out += "{}"
        return
      }
      out += "{"
      for (i, (key, value)) in members.enumerated() {
        if i > 0 { out += "," }
        newline(&out, indent, level + 1)
        JSONValue.writeString(key, into: &out, escaping: escaping)
        out += indent == nil ? ":" : ": "
        value.write(into: &out, indent: indent, level: level + 1, escaping: escaping)
      }
      newline(&out, indent, level)
      out += "}"
    }
  }

  private func newline(_ out: inout String, _ indent: String?, _ level: Int) {
    guard let indent else { return }
    out += "\n" + String(repeating: indent, count: level)
  }

  /// `s` as a JSON string literal, quotes included.
  public static func quoted(_ s: String, escaping: JSONEscaping = .wire) -> String {
    var out = ""
    writeString(s, into: &out, escaping: escaping)
    return out
  }

  /// Appends `s` as a JSON string literal: the one string escaper of the project.
  public static func writeString(_ s: String, into out: inout String, escaping: JSONEscaping = .wire) {
    out += "\""
    // Most text needs no escape: appended whole (a scalar at a time was most of a row's cost).
    let plain: Bool
    switch escaping {
    case .wire: plain = !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F })
    case .visible:
      plain = !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) && Sanitizer.isSafe(s)
    case .ascii: plain = !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 >= 0x7F })
    }
    if plain {
      out += s
      out += "\""
      return
    }
    // Escaped into bytes, then appended once: appending to a String a scalar at a time was
    // most of `queue --json`'s time (a stored answer is JSON text, full of quotes).
    var bytes: [UInt8] = []
    bytes.reserveCapacity(s.utf8.count + 16)
    for scalar in s.unicodeScalars {
      let v = scalar.value
      switch v {
      case 0x22, 0x5C:
        bytes.append(0x5C)
        bytes.append(UInt8(v))
      case 0x0A:
        bytes.append(0x5C)
        bytes.append(0x6E)
      case 0x0D:
        bytes.append(0x5C)
        bytes.append(0x72)
      case 0x09:
        bytes.append(0x5C)
        bytes.append(0x74)
      case 0..<0x20, 0x7F: appendEscape(v, into: &bytes)
      case 0x20..<0x7F: bytes.append(UInt8(v))
      default:
        if escaping == .ascii || (escaping == .visible && Sanitizer.replacement(scalar) != nil) {
          appendEscape(v, into: &bytes)
        } else {
          UTF8.encode(scalar) { bytes.append($0) }
        }
      }
    }
    out += String(decoding: bytes, as: UTF8.self)
    out += "\""
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
