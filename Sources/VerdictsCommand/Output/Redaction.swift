import MarfaQueue

/// What the report takes out of every text before it travels: a URL's userinfo, and the key
/// this process was given.
enum Redaction {
  /// `https://user:secret@host/x` as `https://host/x`; text without a URL unchanged.
  static func userinfoRemoved(_ text: String) -> String {
    guard text.contains("://"), text.contains("@") else { return text }
    var out = ""
    var rest = Substring(text)
    while let scheme = rest.firstRange(of: "://") {
      out += rest[..<scheme.upperBound]
      rest = rest[scheme.upperBound...]
      // The authority ends at the first /, ?, #, whitespace or quote; userinfo is what precedes its last @.
      let end = rest.firstIndex(where: { "/?#\"' \t\n<>".contains($0) }) ?? rest.endIndex
      if let at = rest[..<end].lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
    }
    return out + rest
  }

  /// Every string of `value` (keys included) with ``userinfoRemoved(_:)`` applied and `key`,
  /// when given and not trivially short, replaced by `[key]`.
  static func scrub(_ value: JSONValue, key: String?) -> JSONValue {
    let key = key.flatMap { $0.count >= 4 ? $0 : nil }
    func clean(_ s: String) -> String {
      var s = userinfoRemoved(s)
      if let key, s.contains(key) { s = s.replacing(key, with: "[key]") }
      return s
    }
    switch value {
    case .string(let s): return .string(clean(s))
    case .array(let a): return .array(a.map { scrub($0, key: key) })
    case .object(let o): return .object(o.map { (clean($0.0), scrub($0.1, key: key)) })
    default: return value
    }
  }
}
