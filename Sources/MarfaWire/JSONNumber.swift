/// A JSON number kept as its text, so a number travels exactly as it was given.
///
/// `12345678901234567890`, `9007199254740993`, `1e400` and `-0` are sent and stored digit for
/// digit; a `Double` would change every one of them. Arithmetic reads ``doubleValue`` or
/// ``intValue``; equality compares values (two integer texts as integers, otherwise as doubles), so
/// `3` equals `3.0`.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral
{
  /// The number's JSON text.
  public let text: String

  /// A number from text already checked against the JSON number grammar.
  init(validatedText: String) { self.text = validatedText }

  /// A number from its JSON text; nil when the text is not a JSON number.
  public init?(_ text: String) {
    let bytes = Array(text.utf8)
    guard JSONNumber.grammarLength(bytes, from: 0) == bytes.count, !bytes.isEmpty else { return nil }
    self.text = text
  }

  /// An integer.
  public init(_ value: Int) { self.text = String(value) }

  /// A finite double, written as an integer when it has no fraction and fits in 15 digits; nil
  /// when it is not finite (JSON has no NaN or infinity).
  public init?(_ value: Double) {
    guard value.isFinite else { return nil }
    if value.rounded() == value && abs(value) < 1e15 {
      self.text = String(Int64(value))
    } else {
      self.text = "\(value)"
    }
  }

  /// An integer literal.
  public init(integerLiteral value: Int) { self.init(value) }

  /// A float literal (finite).
  public init(floatLiteral value: Double) { self.text = JSONNumber(value)?.text ?? "0" }

  public var description: String { text }

  /// The number as a double (the nearest; text beyond its range reads as infinity).
  public var doubleValue: Double { Double(text) ?? 0 }

  /// The integer the number names (an integer text in range, or a whole double below 9e15), or nil.
  public var intValue: Int? {
    if isIntegerText { return Int(text) }
    let d = doubleValue
    guard d.rounded() == d, abs(d) < 9.0e15 else { return nil }
    return Int(d)
  }

  /// Whether the text is digits with an optional minus sign (no fraction, no exponent).
  var isIntegerText: Bool {
    !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
  }

  public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
    if lhs.text == rhs.text { return true }
    if lhs.isIntegerText && rhs.isIntegerText, let a = Int(lhs.text), let b = Int(rhs.text) { return a == b }
    return lhs.doubleValue == rhs.doubleValue
  }

  public func hash(into hasher: inout Hasher) {
    let d = doubleValue
    hasher.combine(d == 0 ? 0 : d)  // -0 and 0 are equal values
  }

  /// The length of the JSON number that starts at `start`, or nil when none does.
  static func grammarLength(_ bytes: [UInt8], from start: Int) -> Int? {
    var i = start
    func digit(_ i: Int) -> Bool { i < bytes.count && (0x30...0x39).contains(bytes[i]) }
    if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
    guard digit(i) else { return nil }
    if bytes[i] == 0x30 {
      i += 1
    } else {
      while digit(i) { i += 1 }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      i += 1
      guard digit(i) else { return nil }
      while digit(i) { i += 1 }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      i += 1
      if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
      guard digit(i) else { return nil }
      while digit(i) { i += 1 }
    }
    return i - start
  }
}
