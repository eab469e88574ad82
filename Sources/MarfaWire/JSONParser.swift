/// The one JSON reader: recursive descent over UTF-8 bytes, keeping object member order and each
/// number's text, and saying where and why it stopped when the bytes are not JSON.
struct JSONParser {
  let bytes: [UInt8]
  var index = 0
  /// Nesting past this depth is refused (the reader recurses once per level).
  static let maxDepth = 256
  /// When set, where each member's value of the top-level object lies in `bytes`.
  var memberRanges: [String: Range<Int>]?
  /// Where and why reading stopped, once it has.
  var failure: JSONParseError?
  /// When set, a `\\u` escape of a surrogate that is not half of a pair reads as U+FFFD instead
  /// of stopping the reader (an instance's answer keeps the rest of its words).
  var replacesLoneSurrogates = false

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var atEnd: Bool { index >= bytes.count }

  /// One value and nothing after it but whitespace.
  mutating func parseDocument() -> JSONValue? {
    guard let value = parseValue(depth: 0) else { return nil }
    skipSpace()
    guard atEnd else { return fail("unexpected text after the value") }
    return value
  }

  mutating func fail(_ reason: String) -> JSONValue? {
    if failure == nil { failure = JSONParseError(offset: index, reason: reason) }
    return nil
  }

  mutating func failString(_ reason: String) -> String? {
    _ = fail(reason)
    return nil
  }

  mutating func skipSpace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  mutating func parseValue(depth: Int) -> JSONValue? {
    guard depth < JSONParser.maxDepth else { return fail("nested too deeply") }
    skipSpace()
    guard index < bytes.count else { return fail("unexpected end of text") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return parseObject(depth: depth)
    case UInt8(ascii: "["): return parseArray(depth: depth)
    case UInt8(ascii: "\""): return parseString().map(JSONValue.string)
    case UInt8(ascii: "t"): return literal("true", .bool(true))
    case UInt8(ascii: "f"): return literal("false", .bool(false))
    case UInt8(ascii: "n"): return literal("null", .null)
    case UInt8(ascii: "-"), 0x30...0x39: return parseNumber()
    default: return fail("unexpected character")
    }
  }

  mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { return fail("expected \(word)") }
    let matches = word.withUTF8Buffer { w in (0..<count).allSatisfy { bytes[index + $0] == w[$0] } }
    guard matches else { return fail("expected \(word)") }
    index += count
    return value
  }

  mutating func parseObject(depth: Int) -> JSONValue? {
    index += 1
    var members: [(String, JSONValue)] = []
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    // Room for the usual object at once, instead of growing it at the 1st, 2nd and 4th member.
    members.reserveCapacity(8)
    while true {
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return fail("expected a member name") }
      guard let key = parseString() else { return nil }
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return fail("expected ':'") }
      index += 1
      skipSpace()
      let start = index
      guard let value = parseValue(depth: depth + 1) else { return nil }
      if depth == 0, memberRanges != nil { memberRanges?[key] = start..<index }
      members.append((key, value))
      skipSpace()
      guard index < bytes.count else { return fail("unexpected end of text in an object") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      }
      return fail("expected ',' or '}'")
    }
  }

  mutating func parseArray(depth: Int) -> JSONValue? {
    index += 1
    var items: [JSONValue] = []
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(items)
    }
    while true {
      guard let value = parseValue(depth: depth + 1) else { return nil }
      items.append(value)
      skipSpace()
      guard index < bytes.count else { return fail("unexpected end of text in an array") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(items)
      }
      return fail("expected ',' or ']'")
    }
  }

  mutating func parseString() -> String? {
    index += 1
    // Most strings hold no escape: read up to the closing quote and decode the bytes once.
    let start = index
    var end = start
    var ascii = true
    var stop: UInt8 = 0
    bytes.withUnsafeBufferPointer { b in
      while end < b.count {
        let c = b[end]
        if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 {
          stop = c
          return
        }
        if c >= 0x80 { ascii = false }
        end += 1
      }
    }
    index = end
    if stop < 0x20 && end < bytes.count { return failString("control character in a string") }
    if stop == UInt8(ascii: "\"") {
      index += 1
      guard let s = Self.string(bytes, start..<end, ascii: ascii) else {
        index = start
        return failString("a string that is not UTF-8")
      }
      return s
    }
    var raw = Array(bytes[start..<index])
    while index < bytes.count {
      let b = bytes[index]
      if b == UInt8(ascii: "\"") {
        index += 1
        guard let s = String(utf8: raw) else {
          index = start
          return failString("a string that is not UTF-8")
        }
        return s
      }
      if b < 0x20 { return failString("control character in a string") }
      if b == UInt8(ascii: "\\") {
        index += 1
        guard index < bytes.count else { return failString("unterminated string") }
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
          guard var code = hex4() else { return failString("bad \\u escape") }
          if (0xD800..<0xDC00).contains(code) {
            // A high surrogate must be followed by an escaped low surrogate.
            let afterHigh = index
            var low: UInt32?
            if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
              index += 2
              low = hex4().flatMap { (0xDC00..<0xE000).contains($0) ? $0 : nil }
            }
            if let low {
              code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if replacesLoneSurrogates {
              // The lone half becomes U+FFFD; whatever followed it is read on its own.
              index = afterHigh
              code = 0xFFFD
            } else {
              return failString("bad surrogate pair")
            }
          } else if (0xDC00..<0xE000).contains(code) {
            guard replacesLoneSurrogates else { return failString("bad surrogate pair") }
            code = 0xFFFD
          }
          guard let scalar = Unicode.Scalar(code) else { return failString("bad \\u escape") }
          raw.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
          index -= 1
          return failString("bad escape")
        }
        continue
      }
      raw.append(b)
      index += 1
    }
    return failString("unterminated string")
  }

  /// The string the bytes in `range` spell, or nil when they are not UTF-8.
  static func string(_ bytes: [UInt8], _ range: Range<Int>, ascii: Bool) -> String? {
    bytes.withUnsafeBufferPointer { b in
      let slice = UnsafeBufferPointer(rebasing: b[range])
      // ASCII (the usual case) is UTF-8 as it is.
      return ascii ? String(decoding: slice, as: UTF8.self) : String(utf8: slice)
    }
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

  /// A number, kept as its text.
  mutating func parseNumber() -> JSONValue? {
    guard let length = JSONNumber.grammarLength(bytes, from: index) else { return fail("bad number") }
    let text = String(decoding: bytes[index..<index + length], as: UTF8.self)
    index += length
    return .number(JSONNumber(validatedText: text))
  }
}
