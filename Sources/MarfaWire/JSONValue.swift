/// A JSON value that keeps the order of an object's members, as sent on the wire.
public enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  /// A number, kept as its text (see ``JSONNumber``).
  case number(JSONNumber)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.number(let a), .number(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: return false
    }
  }

  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .bool(let b): hasher.combine(b)
    case .number(let n): hasher.combine(n)
    case .string(let s): hasher.combine(s)
    case .array(let a): hasher.combine(a)
    case .object(let o):
      for (k, v) in o {
        hasher.combine(k)
        hasher.combine(v)
      }
    }
  }

  /// The member named `key` of an object, or nil.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.last(where: { $0.0 == key })?.1
  }

  /// The string this value holds, or nil.
  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// The integer this value holds (a number with no fraction), or nil.
  public var intValue: Int? {
    if case .number(let n) = self { return n.intValue }
    return nil
  }

  /// The number this value holds, as a double, or nil.
  public var doubleValue: Double? {
    if case .number(let n) = self { return n.doubleValue }
    return nil
  }

  /// Whether this is JSON `null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// A JSON number holding `value`.
  public static func int(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }

  /// A JSON number holding `value`, or `null` when it is not finite.
  public static func double(_ value: Double) -> JSONValue { JSONNumber(value).map(JSONValue.number) ?? .null }

  /// The Boolean this value holds, or nil.
  public var boolValue: Bool? {
    if case .bool(let b) = self { return b }
    return nil
  }

  /// The elements of an array, or nil.
  public var arrayValue: [JSONValue]? {
    if case .array(let a) = self { return a }
    return nil
  }

  /// The members of an object, in order, or nil.
  public var objectValue: [(String, JSONValue)]? {
    if case .object(let o) = self { return o }
    return nil
  }

  /// This object with `key` set to `value` (replacing it in place, or appended).
  public func setting(_ key: String, _ value: JSONValue) -> JSONValue {
    guard case .object(var members) = self else { return self }
    if let i = members.firstIndex(where: { $0.0 == key }) {
      members[i].1 = value
    } else {
      members.append((key, value))
    }
    return .object(members)
  }

  /// This object without the member `key` (itself when it has none, or is no object).
  public func removing(_ key: String) -> JSONValue {
    guard case .object(let members) = self, members.contains(where: { $0.0 == key }) else { return self }
    return .object(members.filter { $0.0 != key })
  }
}
