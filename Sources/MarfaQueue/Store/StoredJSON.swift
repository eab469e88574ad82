/// The numbers of a JSON record the store keeps (the last drain's report, the writer's record),
/// read only within their ranges (``StoredRange``); one outside is a damaged store.
enum StoredJSON {
  /// The integer `value` holds when it lies in `range`; nil when it is absent, not an integer, or
  /// out of range.
  static func int(_ value: JSONValue?, _ range: ClosedRange<Int>) -> Int? {
    guard let n = value?.intValue, range.contains(n) else { return nil }
    return n
  }

  /// The first of `fields` (member paths and their ranges) whose value in `json` is there but is
  /// not an integer in its range, as damage of the `meta` row `record`.
  static func damage(_ json: JSONValue, record: String, _ fields: [([String], ClosedRange<Int>)]) -> StoreDamage? {
    for (path, range) in fields {
      var value: JSONValue? = json
      for member in path { value = value?[member] }
      guard let value, value != .null else { continue }
      if let n = value.intValue, range.contains(n) { continue }
      return StoreDamage(
        place: "meta.\(record) \(path.joined(separator: "."))", value: String(value.text.prefix(40)),
        range: StoredRange.words(range), instead: "left out")
    }
    return nil
  }

  /// The first member of the object at `path` that is not a count, as damage of `record`.
  static func countsDamage(_ json: JSONValue, record: String, _ path: [String]) -> StoreDamage? {
    var value: JSONValue? = json
    for member in path { value = value?[member] }
    guard case .object(let members)? = value else { return nil }
    return damage(json, record: record, members.map { (path + [$0.0], StoredRange.count) })
  }
}
