/// A filter as a person types it, over the panes and `queue --filter`: plain words match a
/// substring of the id, kind, rows, reason, verdict, status or failure text; field terms match
/// one field: `reason:key_spent`, `kind:create_item`, `status:502`, `verdict:refused` (or
/// `waiting`), `row:tour-*` (`*` any run of characters), `streak:>=2` (`>`, `>=`, `<`, `<=`, `=`);
/// a leading `-` negates a term. Every term must hold. An unknown field is taken as plain text.
public struct WriteFilter: Sendable, Hashable {
  /// One term of the filter.
  enum Term: Sendable, Hashable {
    case text(String)
    case reason(String)
    case kind(String)
    case status(Int)
    case verdict(String)
    case row(String)
    case streak(Comparison, Int)
  }

  /// How `streak:` compares.
  enum Comparison: String, Sendable, Hashable, CaseIterable {
    case atLeast = ">=", atMost = "<=", more = ">", less = "<", equal = "="
  }

  /// The terms, each with whether it is negated.
  let terms: [(negated: Bool, term: Term)]

  /// The filter a typed text means; nil for an empty one.
  public init?(_ text: String?) {
    guard let text else { return nil }
    let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    var terms: [(Bool, Term)] = []
    for word in words {
      var w = Substring(word)
      var negated = false
      if w.hasPrefix("-"), w.count > 1 {
        negated = true
        w = w.dropFirst()
      }
      terms.append((negated, Self.term(String(w))))
    }
    guard !terms.isEmpty else { return nil }
    self.terms = terms
  }

  public static func == (l: WriteFilter, r: WriteFilter) -> Bool {
    l.terms.map(\.negated) == r.terms.map(\.negated) && l.terms.map(\.term) == r.terms.map(\.term)
  }

  public func hash(into h: inout Hasher) {
    for t in terms {
      h.combine(t.negated)
      h.combine(t.term)
    }
  }

  /// One word as a term.
  static func term(_ word: String) -> Term {
    guard let colon = word.firstIndex(of: ":") else { return .text(word) }
    let field = word[..<colon].lowercased()
    let value = String(word[word.index(after: colon)...])
    guard !value.isEmpty else { return .text(word) }
    switch field {
    case "reason": return .reason(value.lowercased())
    case "kind": return .kind(value.lowercased())
    case "status": return Int(value).map(Term.status) ?? .text(word)
    case "verdict": return .verdict(value.lowercased())
    case "row", "rows": return .row(value)
    case "streak":
      for c in Comparison.allCases where value.hasPrefix(c.rawValue) {
        return Int(value.dropFirst(c.rawValue.count)).map { .streak(c, $0) } ?? .text(word)
      }
      return Int(value).map { .streak(.equal, $0) } ?? .text(word)
    default: return .text(word)
    }
  }

  /// Whether a write passes every term.
  public func matches(_ w: QueuedWrite) -> Bool {
    terms.allSatisfy { $0.negated != Self.holds($0.term, w) }
  }

  static func holds(_ term: Term, _ w: QueuedWrite) -> Bool {
    let reason = w.verdict?.blockedReason?.wireName ?? w.verdict?.refusal?.reason
    let rows = [w.itemId, w.edgeId, w.tag, w.namespace].compactMap { $0 }
    switch term {
    case .text(let t):
      let fields =
        [
          w.id, w.kindName, reason, w.verdict?.wireName, w.lastFailure?.status.map(String.init),
          w.lastFailure?.text,
        ] + rows.map(Optional.some)
      return fields.contains { $0?.lowercased().contains(t.lowercased()) == true }
    case .reason(let r): return reason?.lowercased() == r
    case .kind(let k): return w.kindName == k
    case .status(let s): return w.lastFailure?.status == s
    case .verdict(let v): return v == "waiting" ? w.verdict == nil : w.verdict?.wireName == v
    case .row(let pattern): return rows.contains { Self.glob(pattern, $0) }
    case .streak(let c, let n):
      let s = w.environmentalStreak
      switch c {
      case .atLeast: return s >= n
      case .atMost: return s <= n
      case .more: return s > n
      case .less: return s < n
      case .equal: return s == n
      }
    }
  }

  /// `*` matches any run of characters; everything else itself.
  static func glob(_ pattern: String, _ text: String) -> Bool {
    let parts = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
    guard parts.count > 1 else { return pattern == text }
    guard text.hasPrefix(parts[0]) else { return false }
    var rest = Substring(text.dropFirst(parts[0].count))
    for part in parts.dropFirst().dropLast() {
      guard let r = rest.firstRange(of: part) else { return false }
      rest = rest[r.upperBound...]
    }
    return rest.hasSuffix(parts.last!) && rest.count >= parts.last!.count
  }

  /// The SQL condition over the store's queue table and its values.
  func sql() -> (String, [SQLValue]) {
    var clauses: [String] = []
    var values: [SQLValue] = []
    for (negated, term) in terms {
      let (c, v) = Self.sql(term)
      clauses.append(negated ? "NOT COALESCE(\(c), 0)" : "COALESCE(\(c), 0)")
      values += v
    }
    return (clauses.joined(separator: " AND "), values)
  }

  static func like(_ t: String) -> SQLValue {
    .text(
      "%"
        + t.replacing("\\", with: "\\\\").replacing("%", with: "\\%")
        .replacing("_", with: "\\_") + "%")
  }

  static func sql(_ term: Term) -> (String, [SQLValue]) {
    let rowColumns = ["item_id", "edge_id", "tag", "namespace"]
    switch term {
    case .text(let t):
      let columns = [
        "id", "kind", "item_id", "edge_id", "tag", "namespace", "reason", "verdict",
        "CAST(last_failure_status AS TEXT)", "last_failure_text",
      ]
      return (
        "(" + columns.map { "\($0) LIKE ? ESCAPE '\\'" }.joined(separator: " OR ") + ")",
        Array(repeating: like(t), count: columns.count)
      )
    case .reason(let r): return ("(lower(reason) = ?)", [.text(r)])
    case .kind(let k): return ("(kind = ?)", [.text(k)])
    case .status(let s): return ("(last_failure_status = ?)", [.int(s)])
    case .verdict(let v): return v == "waiting" ? ("(verdict IS NULL)", []) : ("(verdict = ?)", [.text(v)])
    case .row(let pattern):
      let glob = pattern.replacing("[", with: "[[]").replacing("?", with: "[?]")
      return (
        "(" + rowColumns.map { "\($0) GLOB ?" }.joined(separator: " OR ") + ")",
        Array(repeating: .text(glob), count: rowColumns.count)
      )
    case .streak(let c, let n): return ("(environmental_streak \(c == .equal ? "=" : c.rawValue) ?)", [.int(n)])
    }
  }
}
