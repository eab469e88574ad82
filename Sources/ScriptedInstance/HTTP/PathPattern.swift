/// How a rule names the paths it answers: exactly, by prefix, or by a glob (`*` is any run within one segment,
/// `**` any run at all).
public enum PathPattern: Sendable, Hashable, ExpressibleByStringLiteral {
  /// This path only (percent-decoded, no query).
  case exact(String)
  /// Any path starting with this text.
  case prefix(String)
  /// A glob such as `/items/*/tags/*` or `/items/**`.
  case glob(String)

  /// A literal with a `*` is a glob, otherwise an exact path.
  public init(stringLiteral value: String) {
    self = value.contains("*") ? .glob(value) : .exact(value)
  }

  /// Whether `path` is one of the paths named.
  public func matches(_ path: String) -> Bool {
    switch self {
    case .exact(let p): return path == p
    case .prefix(let p): return path.hasPrefix(p)
    case .glob(let g): return Self.glob(Array(g.unicodeScalars), Array(path.unicodeScalars))
    }
  }

  private static func glob(_ pattern: [Unicode.Scalar], _ text: [Unicode.Scalar]) -> Bool {
    // Backtracking over the pattern, with `**` crossing slashes and `*` stopping at them.
    func match(_ p: Int, _ t: Int) -> Bool {
      if p == pattern.count { return t == text.count }
      if pattern[p] == "*" {
        let deep = p + 1 < pattern.count && pattern[p + 1] == "*"
        let next = deep ? p + 2 : p + 1
        var i = t
        while true {
          if match(next, i) { return true }
          if i == text.count || (!deep && text[i] == "/") { return false }
          i += 1
        }
      }
      return t < text.count && pattern[p] == text[t] && match(p + 1, t + 1)
    }
    return match(0, 0)
  }
}
