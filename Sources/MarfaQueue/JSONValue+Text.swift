import Foundation

extension JSONValue {
  /// Parses JSON text, keeping object member order; nil when it is not one JSON value.
  public static func parse(_ text: String) -> JSONValue? {
    parse(Array(text.utf8))
  }

  /// Parses UTF-8 JSON bytes like ``parse(_:)``, and says where each member's value of a
  /// top-level object lies in them (for a name given twice, the last, as the subscript reads it).
  static func parseKeepingMembers(_ bytes: [UInt8]) -> (value: JSONValue, members: [String: Range<Int>])? {
    var parser = JSONParser(bytes)
    parser.memberRanges = [:]
    guard let value = parser.parseValue(depth: 0) else { return nil }
    parser.skipSpace()
    guard parser.atEnd else { return nil }
    return (value, parser.memberRanges ?? [:])
  }

  /// Parses UTF-8 JSON bytes, keeping object member order; nil when they are not one JSON value.
  public static func parse<C: Collection>(_ bytes: C) -> JSONValue? where C.Element == UInt8 {
    var parser = JSONParser(Array(bytes))
    guard let value = parser.parseValue(depth: 0) else { return nil }
    parser.skipSpace()
    return parser.atEnd ? value : nil
  }

  /// Compact JSON text for this value.
  public var text: String {
    var out = ""
    write(into: &out, indent: nil, level: 0)
    return out
  }

  /// Indented JSON text for this value, for people.
  public var prettyText: String {
    var out = ""
    write(into: &out, indent: "  ", level: 0)
    return out
  }

  func write(into out: inout String, indent: String?, level: Int) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let n): out += JSONValue.numberText(n)
    case .string(let s): JSONValue.writeString(s, into: &out)
    case .array(let items):
      if items.isEmpty { out += "[]"; return }
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        newline(&out, indent, level + 1)
        item.write(into: &out, indent: indent, level: level + 1)
      }
      newline(&out, indent, level)
      out += "]"
    case .object(let members):
      if members.isEmpty { out += "{}"; return }
      out += "{"
      for (i, (key, value)) in members.enumerated() {
        if i > 0 { out += "," }
        newline(&out, indent, level + 1)
        JSONValue.writeString(key, into: &out)
        out += indent == nil ? ":" : ": "
        value.write(into: &out, indent: indent, level: level + 1)
      }
      newline(&out, indent, level)
      out += "}"
    }
  }

  private func newline(_ out: inout String, _ indent: String?, _ level: Int) {
    guard let indent else { return }
    out += "\n" + String(repeating: indent, count: level)
  }

  static func numberText(_ n: Double) -> String {
    if n.isNaN || n.isInfinite { return "null" }
    if n.rounded() == n && abs(n) < 1e15 { return String(Int64(n)) }
    return "\(n)"
  }

  static func writeString(_ s: String, into out: inout String) {
    out += "\""
    // Most text needs no escape: appended whole (a scalar at a time was most of a row's cost).
    if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) {
      out += s
      out += "\""
      return
    }
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}

/// A small recursive-descent JSON reader over UTF-8 bytes.
struct JSONParser {
  let bytes: [UInt8]
  var index = 0
  static let maxDepth = 256
  /// When set, where each member's value of the top-level object lies in `bytes`.
  var memberRanges: [String: Range<Int>]?

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var atEnd: Bool { index >= bytes.count }

  mutating func skipSpace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  mutating func parseValue(depth: Int) -> JSONValue? {
    guard depth < JSONParser.maxDepth else { return nil }
    skipSpace()
    guard index < bytes.count else { return nil }
    switch bytes[index] {
    case UInt8(ascii: "{"): return parseObject(depth: depth)
    case UInt8(ascii: "["): return parseArray(depth: depth)
    case UInt8(ascii: "\""): return parseString().map(JSONValue.string)
    case UInt8(ascii: "t"): return literal("true", .bool(true))
    case UInt8(ascii: "f"): return literal("false", .bool(false))
    case UInt8(ascii: "n"): return literal("null", .null)
    default: return parseNumber()
    }
  }

  mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { return nil }
    let matches = word.withUTF8Buffer { w in (0..<count).allSatisfy { bytes[index + $0] == w[$0] } }
    guard matches else { return nil }
    index += count
    return value
  }

  mutating func parseObject(depth: Int) -> JSONValue? {
    index += 1
    var members: [(String, JSONValue)] = []
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
    while true {
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = parseString() else { return nil }
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
      index += 1
      skipSpace()
      let start = index
      guard let value = parseValue(depth: depth + 1) else { return nil }
      if depth == 0, memberRanges != nil { memberRanges?[key] = start..<index }
      members.append((key, value))
      skipSpace()
      guard index < bytes.count else { return nil }
      if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
      if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
      return nil
    }
  }

  mutating func parseArray(depth: Int) -> JSONValue? {
    index += 1
    var items: [JSONValue] = []
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
    while true {
      guard let value = parseValue(depth: depth + 1) else { return nil }
      items.append(value)
      skipSpace()
      guard index < bytes.count else { return nil }
      if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
      if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
      return nil
    }
  }

  mutating func parseString() -> String? {
    index += 1
    // Most strings hold no escape: read up to the closing quote and decode the bytes once.
    let start = index
    while index < bytes.count {
      let b = bytes[index]
      if b == UInt8(ascii: "\\") { break }
      if b < 0x20 { return nil }
      if b == UInt8(ascii: "\"") {
        index += 1
        return String(validating: bytes[start..<index - 1], as: UTF8.self)
      }
      index += 1
    }
    var raw = Array(bytes[start..<index])
    while index < bytes.count {
      let b = bytes[index]
      if b == UInt8(ascii: "\"") {
        index += 1
        return String(validating: raw, as: UTF8.self)
      }
      if b < 0x20 { return nil }
      if b == UInt8(ascii: "\\") {
        index += 1
        guard index < bytes.count else { return nil }
        let e = bytes[index]
        index += 1
        switch e {
        case UInt8(ascii: "\""): raw.append(0x22)
        case UInt8(ascii: "\\"): raw.append(0x5C)
        case UInt8(ascii: "/"): raw.append(0x2F)
        case UInt8(ascii: "b"): raw.append(0x08)
        case UInt8(ascii: "f"): raw.append(0x0C)
        case UInt8(ascii: "n"): raw.append(0x0A)
        case UInt8(ascii: "r"): raw.append(0x0D)
        case UInt8(ascii: "t"): raw.append(0x09)
        case UInt8(ascii: "u"):
          guard var code = hex4() else { return nil }
          if (0xD800..<0xDC00).contains(code) {
            // A high surrogate must be followed by an escaped low surrogate.
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { return nil }
            index += 2
            guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          } else if (0xDC00..<0xE000).contains(code) {
            return nil
          }
          guard let scalar = Unicode.Scalar(code) else { return nil }
          raw.append(contentsOf: Array(String(Character(scalar)).utf8))
        default: return nil
        }
        continue
      }
      raw.append(b)
      index += 1
    }
    return nil
  }

  mutating func hex4() -> UInt32? {
    guard index + 4 <= bytes.count else { return nil }
    var v: UInt32 = 0
    for _ in 0..<4 {
      let c = bytes[index]
      index += 1
      v <<= 4
      switch c {
      case 0x30...0x39: v |= UInt32(c - 0x30)
      case 0x41...0x46: v |= UInt32(c - 0x41 + 10)
      case 0x61...0x66: v |= UInt32(c - 0x61 + 10)
      default: return nil
      }
    }
    return v
  }

  mutating func parseNumber() -> JSONValue? {
    let start = index
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count, (0x30...0x39).contains(bytes[index]) else { return nil }
    if bytes[index] == 0x30 {
      index += 1
    } else {
      while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard index < bytes.count, (0x30...0x39).contains(bytes[index]) else { return nil }
      while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard index < bytes.count, (0x30...0x39).contains(bytes[index]) else { return nil }
      while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
    }
    guard let n = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else { return nil }
    return .number(n)
  }
}
