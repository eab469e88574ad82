/// Small helpers for building wire JSON.
enum Wire {
  static func str(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
  static func int(_ n: Int?) -> JSONValue { n.map { JSONValue.int($0) } ?? .null }
  static func strings(_ a: [String]) -> JSONValue { .array(a.map(JSONValue.string)) }
}
