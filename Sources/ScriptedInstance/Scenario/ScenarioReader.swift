/// Reads a scenario's JSON, naming the member at fault (`rules[1].answers[0]`) in every error.
struct ScenarioReader {
  /// Where the JSON came from, for messages.
  let source: String

  func fail(_ at: String, _ message: String) -> ScenarioError {
    .invalid(source: source, at: at, message: message)
  }

  /// The members of an object, refusing any member not in `allowed`.
  func object(_ value: ScriptedJSON?, at: String, allowed: Set<String>) throws -> [String: ScriptedJSON] {
    guard let members = value?.objectValue else { throw fail(at, "must be an object") }
    if let stray = members.keys.sorted().first(where: { !allowed.contains($0) }) {
      throw fail(at, "unknown member \"\(stray)\" (expected one of: \(allowed.sorted().joined(separator: ", ")))")
    }
    return members
  }

  func string(_ o: [String: ScriptedJSON], _ key: String, at: String) throws -> String? {
    guard let v = o[key], v != .null else { return nil }
    guard let s = v.stringValue else { throw fail("\(at).\(key)", "must be a string") }
    return s
  }

  func required(_ o: [String: ScriptedJSON], _ key: String, at: String) throws -> String {
    guard let s = try string(o, key, at: at) else { throw fail("\(at).\(key)", "is required") }
    return s
  }

  func int(_ o: [String: ScriptedJSON], _ key: String, at: String) throws -> Int? {
    guard let v = o[key], v != .null else { return nil }
    guard let n = v.intValue else { throw fail("\(at).\(key)", "must be a whole number") }
    return n
  }

  func bool(_ o: [String: ScriptedJSON], _ key: String, at: String) throws -> Bool? {
    guard let v = o[key], v != .null else { return nil }
    guard let b = v.boolValue else { throw fail("\(at).\(key)", "must be true or false") }
    return b
  }

  func strings(_ o: [String: ScriptedJSON], _ key: String, at: String) throws -> [String]? {
    guard let v = o[key], v != .null else { return nil }
    guard let a = v.arrayValue, a.allSatisfy({ $0.stringValue != nil }) else {
      throw fail("\(at).\(key)", "must be an array of strings")
    }
    return a.compactMap(\.stringValue)
  }

  func properties(_ o: [String: ScriptedJSON], _ key: String, at: String) throws -> [String: ScriptedJSON]? {
    guard let v = o[key], v != .null else { return nil }
    guard let p = v.objectValue else { throw fail("\(at).\(key)", "must be an object") }
    return p
  }

  /// Each element of an array member (absent → none), with its path.
  func each<T>(_ o: [String: ScriptedJSON], _ key: String, at: String, _ read: (ScriptedJSON, String) throws -> T)
    throws -> [T]
  {
    guard let v = o[key], v != .null else { return [] }
    guard let a = v.arrayValue else { throw fail(at.isEmpty ? key : "\(at).\(key)", "must be an array") }
    let base = at.isEmpty ? key : "\(at).\(key)"
    return try a.enumerated().map { try read($0.element, "\(base)[\($0.offset)]") }
  }
}
