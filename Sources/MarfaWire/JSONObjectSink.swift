/// Where an object's members go, one at a time, in order: a ``JSONValue`` tree
/// (``JSONMemberList``) or JSON text written straight out (``JSONObjectText``). A shape written
/// once against this protocol gives both, member for member the same.
///
/// Names are literals of plain ASCII that JSON never escapes (`snake_case`).
public protocol JSONObjectSink {
  /// A member holding `value`.
  mutating func add(_ name: StaticString, _ value: JSONValue)
  /// A member holding the string, or `null`.
  mutating func add(_ name: StaticString, string: String?)
  /// A member holding the whole number, or `null`.
  mutating func add(_ name: StaticString, int: Int?)
  /// A member holding `true` or `false`.
  mutating func add(_ name: StaticString, bool: Bool)
  /// A member holding an array of strings.
  mutating func add(_ name: StaticString, strings: [String])
}
