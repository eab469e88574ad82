/// An object's members gathered as a ``JSONValue`` tree, the ``JSONObjectSink`` for values a
/// caller goes on to read or change.
public struct JSONMemberList: JSONObjectSink {
  /// The members so far, in order.
  public private(set) var members: [(String, JSONValue)] = []

  /// An empty list, with room for `capacity` members.
  public init(capacity: Int = 0) { members.reserveCapacity(capacity) }

  /// The object of the members so far.
  public var object: JSONValue { .object(members) }

  public mutating func add(_ name: StaticString, _ value: JSONValue) { members.append((name.text, value)) }
  public mutating func add(_ name: StaticString, string: String?) { add(name, string.map(JSONValue.string) ?? .null) }
  public mutating func add(_ name: StaticString, int: Int?) { add(name, int.map { JSONValue.int($0) } ?? .null) }
  public mutating func add(_ name: StaticString, bool: Bool) { add(name, .bool(bool)) }
  public mutating func add(_ name: StaticString, strings: [String]) { add(name, .array(strings.map(JSONValue.string))) }
}
