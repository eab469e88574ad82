/// Why a text could not be read as JSON.
public struct JSONParseError: Error, Sendable, CustomStringConvertible {
  /// The byte offset where reading stopped.
  public let offset: Int
  /// What was wrong there.
  public let reason: String

  public var description: String { "not valid JSON at byte \(offset): \(reason)" }
}

extension ScriptedJSON {
  /// Reads one JSON value from UTF-8 text (surrounding whitespace allowed).
  public init(parsing text: String) throws {
    try self.init(parsing: Array(text.utf8))
  }

  /// Reads one JSON value from UTF-8 bytes (surrounding whitespace allowed).
  public init(parsing bytes: [UInt8]) throws {
    var reader = JSONReader(bytes: bytes)
    self = try reader.readDocument()
  }

  /// The compact JSON text of this value, object keys sorted.
  public var text: String {
    var out = ""
    write(to: &out)
    return out
  }

  /// The compact JSON text of this value as UTF-8 bytes.
  var bytes: [UInt8] { Array(text.utf8) }

  private func write(to out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let n): out += Self.numberText(n)
    case .string(let s): Self.writeString(s, to: &out)
    case .array(let a):
      out += "["
      for (i, e) in a.enumerated() {
        if i > 0 { out += "," }
        e.write(to: &out)
      }
      out += "]"
    case .object(let o):
      out += "{"
      for (i, key) in o.keys.sorted().enumerated() {
        if i > 0 { out += "," }
        Self.writeString(key, to: &out)
        out += ":"
        o[key]!.write(to: &out)
      }
      out += "}"
    }
  }

  private static func numberText(_ n: Double) -> String {
    guard n.isFinite else { return "null" }
    if n.rounded() == n, abs(n) < 1e15 { return String(Int64(n)) }
    return "\(n)"
  }

  private static func writeString(_ s: String, to out: inout String) {
    out += "\""
    if !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
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
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}

/// A small recursive-descent JSON reader over UTF-8 bytes.
private struct JSONReader {
  let bytes: [UInt8]
  var at = 0
  var depth = 0

  init(bytes: [UInt8]) { self.bytes = bytes }

  mutating func readDocument() throws -> ScriptedJSON {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { at = 3 }
    let value = try readValue()
    skipSpace()
    guard at == bytes.count else { throw fail("unexpected text after the value") }
    return value
  }

  func fail(_ reason: String) -> JSONParseError { JSONParseError(offset: at, reason: reason) }

  mutating func skipSpace() {
    while at < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[at]) { at += 1 }
  }

  mutating func readValue() throws -> ScriptedJSON {
    skipSpace()
    guard at < bytes.count else { throw fail("unexpected end of text") }
    switch bytes[at] {
    case UInt8(ascii: "{"): return try readObject()
    case UInt8(ascii: "["): return try readArray()
    case UInt8(ascii: "\""): return .string(try readString())
    case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
    case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
    case UInt8(ascii: "n"): try expectWord("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
    default: throw fail("unexpected character")
    }
  }

  mutating func expectWord(_ word: String) throws {
    let w = Array(word.utf8)
    guard at + w.count <= bytes.count, Array(bytes[at..<at + w.count]) == w else { throw fail("expected \(word)") }
    at += w.count
  }

  mutating func enter() throws {
    depth += 1
    if depth > 512 { throw fail("nested too deeply") }
  }

  mutating func readObject() throws -> ScriptedJSON {
    try enter()
    defer { depth -= 1 }
    at += 1
    var members: [String: ScriptedJSON] = [:]
    skipSpace()
    if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
      at += 1
      return .object(members)
    }
    while true {
      skipSpace()
      guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
      let key = try readString()
      skipSpace()
      guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw fail("expected ':'") }
      at += 1
      members[key] = try readValue()
      skipSpace()
      guard at < bytes.count else { throw fail("unexpected end of text in an object") }
      if bytes[at] == UInt8(ascii: ",") {
        at += 1
      } else if bytes[at] == UInt8(ascii: "}") {
        at += 1
        return .object(members)
      } else {
        throw fail("expected ',' or '}'")
      }
    }
  }

  mutating func readArray() throws -> ScriptedJSON {
    try enter()
    defer { depth -= 1 }
    at += 1
    var elements: [ScriptedJSON] = []
    skipSpace()
    if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
      at += 1
      return .array(elements)
    }
    while true {
      elements.append(try readValue())
      skipSpace()
      guard at < bytes.count else { throw fail("unexpected end of text in an array") }
      if bytes[at] == UInt8(ascii: ",") {
        at += 1
      } else if bytes[at] == UInt8(ascii: "]") {
        at += 1
        return .array(elements)
      } else {
        throw fail("expected ',' or ']'")
      }
    }
  }

  mutating func readNumber() throws -> ScriptedJSON {
    let start = at
    while at < bytes.count, "+-0123456789.eE".utf8.contains(bytes[at]) { at += 1 }
    let lexeme = String(decoding: bytes[start..<at], as: UTF8.self)
    guard let n = Double(lexeme), n.isFinite else {
      at = start
      throw fail("bad number")
    }
    return .number(n)
  }

  mutating func readHex4() throws -> UInt32 {
    guard at + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[at..<at + 4], as: UTF8.self), radix: 16)
    else { throw fail("bad \\u escape") }
    at += 4
    return v
  }

  mutating func readString() throws -> String {
    at += 1
    var scalars = String.UnicodeScalarView()
    var runStart = at
    func flush(_ end: Int) throws {
      guard runStart < end else { return }
      guard let run = String(validating: bytes[runStart..<end], as: UTF8.self) else {
        throw JSONParseError(offset: runStart, reason: "text is not UTF-8")
      }
      scalars.append(contentsOf: run.unicodeScalars)
    }
    while at < bytes.count {
      let b = bytes[at]
      if b == UInt8(ascii: "\"") {
        try flush(at)
        at += 1
        return String(scalars)
      }
      if b < 0x20 { throw fail("control character in a string") }
      if b != UInt8(ascii: "\\") {
        at += 1
        continue
      }
      try flush(at)
      at += 1
      guard at < bytes.count else { break }
      let e = bytes[at]
      at += 1
      switch e {
      case UInt8(ascii: "\""): scalars.append("\"")
      case UInt8(ascii: "\\"): scalars.append("\\")
      case UInt8(ascii: "/"): scalars.append("/")
      case UInt8(ascii: "b"): scalars.append("\u{08}")
      case UInt8(ascii: "f"): scalars.append("\u{0C}")
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "u"):
        var v = try readHex4()
        if (0xD800...0xDBFF).contains(v), at + 6 <= bytes.count, bytes[at] == UInt8(ascii: "\\"),
          bytes[at + 1] == UInt8(ascii: "u")
        {
          at += 2
          let low = try readHex4()
          guard (0xDC00...0xDFFF).contains(low) else { throw fail("bad surrogate pair") }
          v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
        }
        scalars.append(Unicode.Scalar(v) ?? "\u{FFFD}")
      default: throw fail("bad escape")
      }
      runStart = at
    }
    throw fail("unterminated string")
  }
}
