import ScriptedInstance

/// A response body read as JSON, nil-safe for assertions: `response.json["item"]["version"].int`.
struct ScriptedJSONBox {
  let value: ScriptedJSON?

  init(value: ScriptedJSON?) { self.value = value }
  init(bytes: [UInt8]) { value = try? ScriptedJSON(parsing: bytes) }

  subscript(key: String) -> ScriptedJSONBox { ScriptedJSONBox(value: value?[key]) }
  subscript(index: Int) -> ScriptedJSONBox {
    guard let a = value?.arrayValue, a.indices.contains(index) else { return ScriptedJSONBox(value: nil) }
    return ScriptedJSONBox(value: a[index])
  }

  var string: String? { value?.stringValue }
  var int: Int? { value?.intValue }
  var bool: Bool? { value?.boolValue }
  var array: [ScriptedJSON]? { value?.arrayValue }
  var strings: [String]? { value?.arrayValue?.compactMap(\.stringValue) }
  var isNull: Bool { value == .null }
}
