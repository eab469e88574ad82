/// A filter as a person types it, over the panes and `queue --filter`: plain words match a
/// substring of the id, kind, rows, reason, verdict, status or failure text; field terms match
/// one field: `reason:key_spent`, `kind:create_item`, `status:502`, `verdict:refused` (or
/// `waiting`), `row:tour-*` (`*` any run of characters), `streak:>=2` (`>`, `>=`, `<`, `<=`, `=`),
/// `body:w5000` (a substring of the write's body as queued); a leading `-` negates a term. Every
/// term must hold.
///
/// In the store, `status:N` also finds a write any of whose kept attempts was answered N (the
/// write that met a 401 is blocked, with no failure of its own to match); the attempts are the
/// store's, so a write read without them matches on its last failure alone.
///
/// A word `name:value` whose name is letters only is a field term: ``parse(_:)`` refuses one
/// whose field it does not know (`reasn:x`), or whose value the field cannot take (`status:abc`),
/// naming the fields there are (``fields``), so a mistyped filter never silently matches nothing.
/// A word whose part before the colon holds anything but letters (`09:41`, `a-b:c`) is plain text.
/// ``init(_:)`` takes every word and reads a refused one as plain text.
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
    case body(String)
  }

  /// How `streak:` compares.
  enum Comparison: String, Sendable, Hashable, CaseIterable {
    case atLeast = ">=", atMost = "<=", more = ">", less = "<", equal = "="
  }

  /// The terms, each with whether it is negated.
  let terms: [(negated: Bool, term: Term)]

  /// The field names a term may start with, as ``parse(_:)`` names them when it refuses one.
  public static let fields = ["reason", "kind", "status", "verdict", "row", "streak", "body"]

  /// The filter a typed text means; nil for an empty one. A word ``parse(_:)`` would refuse is
  /// read as plain text.
  public init?(_ text: String?) {
    guard let terms = Self.terms(text, strict: false).terms else { return nil }
    self.terms = terms
  }

  /// The filter a typed text means; nil for an empty one.
  ///
  /// - Throws: ``WriteFilterProblem`` for the first word naming a field there is not, or a value
  ///   its field cannot take.
  public static func parse(_ text: String?) throws(WriteFilterProblem) -> WriteFilter? {
    let parsed = terms(text, strict: true)
    if let problem = parsed.problem { throw problem }
    guard let terms = parsed.terms else { return nil }
    return WriteFilter(terms: terms)
  }

  /// Why ``parse(_:)`` refuses `text`, in one sentence; nil when it takes it (or it is empty).
  public static func problem(in text: String?) -> String? { terms(text, strict: true).problem?.message }

  private init(terms: [(negated: Bool, term: Term)]) { self.terms = terms }

  /// The terms of `text` (nil when it has none), or, `strict`, the first word refused.
  private static func terms(_ text: String?, strict: Bool) -> (
    terms: [(negated: Bool, term: Term)]?, problem: WriteFilterProblem?
  ) {
    guard let text else { return (nil, nil) }
    // Words part at every space and tab, and a minus negates, as scalars: a space or a minus
    // followed by a combining mark is one Character, and would otherwise join two words.
    let words = text.unicodeScalars.split(whereSeparator: { $0 == " " || $0 == "\t" }).map {
      String(String.UnicodeScalarView($0))
    }
    var terms: [(negated: Bool, term: Term)] = []
    for word in words {
      var w = word
      var negated = false
      if w.unicodeScalars.first == "-", w.unicodeScalars.count > 1 {
        negated = true
        w = String(String.UnicodeScalarView(w.unicodeScalars.dropFirst()))
      }
      if strict, let problem = Self.problem(w) { return (nil, problem) }
      terms.append((negated, Self.term(w)))
    }
    return (terms.isEmpty ? nil : terms, nil)
  }

  /// Why one word (without its `-`) is refused as a term, or nil.
  static func problem(_ word: String) -> WriteFilterProblem? {
    guard let colon = word.firstIndex(of: ":") else { return nil }
    let name = word[..<colon]
    let value = word[word.index(after: colon)...]
    // `09:41`, `a-b:c`, `:x` and `reason:` are plain text, as they always were.
    guard !name.isEmpty, !value.isEmpty, name.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic }) else {
      return nil
    }
    let field = name.lowercased()
    let all = fields.joined(separator: ", ")
    guard fields.contains(field) || field == "rows" else {
      let near = fields.min {
        EditDistance.between(Array(field), Array($0)) < EditDistance.between(Array(field), Array($1))
      }
      let hint =
        near.flatMap { EditDistance.between(Array(field), Array($0)) <= 2 ? " (did you mean \($0)?)" : nil } ?? ""
      return WriteFilterProblem(message: "unknown filter field '\(name)' in '\(word)'\(hint); the fields are \(all)")
    }
    if case .text = term(word) {
      let takes =
        field == "status"
        ? "an HTTP status (status:502)" : "a number, after >, >=, <, <= or = if you like (streak:>=2)"
      return WriteFilterProblem(message: "'\(word)': \(field) takes \(takes)")
    }
    return nil
  }

  /// Two filters are equal when they hold the same terms, in order, negated alike.
  public static func == (l: WriteFilter, r: WriteFilter) -> Bool {
    l.terms.map(\.negated) == r.terms.map(\.negated) && l.terms.map(\.term) == r.terms.map(\.term)
  }

  /// Hashes the terms, as ``==(l:r:)`` compares them.
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
    case "body": return .body(value)
    case "streak":
      for c in Comparison.allCases where value.hasPrefix(c.rawValue) {
        return Int(value.dropFirst(c.rawValue.count)).map { .streak(c, $0) } ?? .text(word)
      }
      return Int(value).map { .streak(.equal, $0) } ?? .text(word)
    default: return .text(word)
    }
  }

  /// Whether a term reads the write's body (`body:`): a caller holding only summaries reads
  /// the write whole first.
  public var looksAtBodies: Bool {
    terms.contains { if case .body = $0.term { return true } else { return false } }
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
    case .body(let t): return w.body.text.lowercased().contains(t.lowercased())
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
  func sql(attempts: Bool = true) -> (String, [SQLValue]) {
    var clauses: [String] = []
    var values: [SQLValue] = []
    for (negated, term) in terms {
      let (c, v) = Self.sql(term, attempts: attempts)
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

  static func sql(_ term: Term, attempts: Bool) -> (String, [SQLValue]) {
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
    case .status(let s) where !attempts: return ("(last_failure_status = ?)", [.int(s)])
    case .status(let s):
      return (
        "(last_failure_status = ? OR EXISTS (SELECT 1 FROM attempts WHERE attempts.write_id = queue.id AND attempts.status = ?))",
        [.int(s), .int(s)]
      )
    case .body(let t): return ("(payload LIKE ? ESCAPE '\\')", [like(t)])
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
