/// A JSON value as the scripted instance reads and writes it (objects are written with sorted keys).
public enum ScriptedJSON: Sendable, Hashable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([ScriptedJSON])
  case object([String: ScriptedJSON])

  /// The member named `key` of an object, or nil.
  public subscript(key: String) -> ScriptedJSON? {
    guard case .object(let members) = self else { return nil }
    return members[key]
  }

  /// The string this value holds, or nil.
  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// The whole number this value holds, or nil (a fraction is not a whole number).
  package var intValue: Int? {
    guard case .number(let n) = self, n.rounded() == n, abs(n) < 9.0e15 else { return nil }
    return Int(n)
  }

  /// The Boolean this value holds, or nil.
  package var boolValue: Bool? {
    if case .bool(let b) = self { return b }
    return nil
  }

  /// The members of an object, or nil.
  public var objectValue: [String: ScriptedJSON]? {
    if case .object(let o) = self { return o }
    return nil
  }

  /// The elements of an array, or nil.
  public var arrayValue: [ScriptedJSON]? {
    if case .array(let a) = self { return a }
    return nil
  }

  /// Whether this is JSON `null`.
  public var isNull: Bool { self == .null }
}
