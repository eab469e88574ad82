import Foundation
import ScriptedInstance
import TestSupport

@testable import MarfaQueue

/// What the contract (reference 3.2 and 3.3, 6.6) says a drain makes of one answer to a create,
/// with this project's one change: an unreadable 2xx is environmental, not counted.
enum ExpectedOutcome: Equatable, CustomStringConvertible {
  case accepted
  case merged([String])
  case conflicted(sibling: String, fields: [String])
  case refused(reason: String)
  case blocked(BlockedReason)
  case counted
  case environmental(status: Int)
  case contractMismatch
  case redirect
  case credentialStop

  /// Whether the answer ends the pass (and so may only come last in a batch).
  var endsPass: Bool {
    switch self {
    case .environmental, .contractMismatch, .redirect, .credentialStop: return true
    default: return false
    }
  }

  /// A short name for the tallies.
  var name: String {
    switch self {
    case .accepted: return "accepted"
    case .merged: return "merged"
    case .conflicted: return "conflicted"
    case .refused: return "refused"
    case .blocked(let r): return "blocked \(r.rawValue)"
    case .counted: return "counted"
    case .environmental: return "environmental"
    case .contractMismatch: return "contract_mismatch"
    case .redirect: return "redirect"
    case .credentialStop: return "credential stop"
    }
  }

  var description: String {
    switch self {
    case .refused(let r): return "refused(\(r.debugDescription))"
    case .environmental(let s): return "environmental(\(s))"
    default: return name
    }
  }
}

/// What a body means, known by construction (never by parsing it with the code under test).
struct BodyMeaning {
  /// `error.code` when the body is a JSON object whose `error` is an object with a string `code`.
  var code: String?
  /// `error.details.grant` is a grant the contract accepts.
  var validGrant = false
  /// What a 2xx carrying this body is, read by the create endpoint's shape.
  var success: SuccessShape = .unreadable

  enum SuccessShape: Equatable {
    case unreadable
    case accepted
    case merged([String])
    case conflicted(String, [String])
    case trashedAcknowledged
  }

  static let unreadable = BodyMeaning()
}

/// One generated hostile answer, the write it is scripted for, and what the drain must make of it.
struct HostileCase {
  var writeId: String
  var family: String
  var status: Int
  var contract: ScriptedAnswer.ContractHeader
  var body: [UInt8]
  var contentType: String?
  var retryAfter: String?
  var meaning: BodyMeaning

  var answer: ScriptedAnswer {
    var headers: [String: String] = [:]
    if let retryAfter { headers["Retry-After"] = retryAfter }
    return ScriptedAnswer(
      .replyBytes(status: status, body: body, contentType: contentType), contract: contract, headers: headers)
  }

  /// The contract's table, top to bottom (reference 3.3, then 3.2 for a 2xx).
  var expected: ExpectedOutcome {
    let success = (200..<300).contains(status)
    let named: Bool
    let ours: Bool
    switch contract {
    case .standard:
      named = true
      ours = true
    case .absent:
      named = false
      ours = false
    case .values(let v):
      named = !v.isEmpty
      ours = !v.isEmpty && v.allSatisfy { $0 == "2" }
    }
    if (300..<400).contains(status) { return .redirect }
    if !success && !named { return .environmental(status: status) }
    if !ours { return .contractMismatch }
    if status >= 500 || [408, 425, 429].contains(status) { return .environmental(status: status) }
    if status == 401 { return .credentialStop }
    let code = meaning.code
    if status == 403 && meaning.validGrant { return .blocked(.credentialRefused) }
    if status == 422 && code == "idempotency_key_reused" { return .blocked(.keySpent) }
    if status == 409 && code == "ancestor_unavailable" { return .blocked(.ancestorUnavailable) }
    if status == 409 && code == "version_conflict" { return .blocked(.conflictUnresolved) }
    if status == 409 && code == "idempotency_key_in_flight" { return .counted }
    if (400..<500).contains(status) { return .refused(reason: code ?? "unknown") }
    if !success { return .counted }
    switch meaning.success {
    // A 2xx the drain cannot read as the door's answer is counted, as the contract counts it
    // (docs/protocol.md, "A 2xx must be about its write").
    case .unreadable: return .counted
    case .accepted: return .accepted
    case .merged(let f): return .merged(f)
    case .conflicted(let s, let f): return .conflicted(sibling: s, fields: f)
    case .trashedAcknowledged: return .refused(reason: "trashed")
    }
  }

  /// `Retry-After` as the drain passes it on: whole non-negative seconds, else nothing.
  var retryAfterSeconds: Int? {
    guard let retryAfter, let n = Int(retryAfter.trimmingCharacters(in: .whitespaces)), n >= 0 else { return nil }
    return n
  }
}

/// Makes hostile answers: bad or truncated JSON, wrong types, huge bodies, bytes that are not
/// UTF-8, control characters, escape sequences, bidi overrides, empty bodies, wrong content
/// types, at 2xx and non-2xx statuses, with and without the contract header.
struct HostileAnswers {
  var rng: SeededRandom

  init(seed: UInt64) { rng = SeededRandom(seed: seed) }

  mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
  mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

  // MARK: Text that should never reach a terminal raw

  static let hostileTexts: [String] = [
    "\u{1B}[31mred\u{1B}[0m", "\u{1B}]0;owned\u{07}", "\u{1B}[2J\u{1B}[H", "\u{1B}P+q\u{1B}\\", "\u{9B}31m",
    "abc\u{202E}gnp.exe", "\u{2066}isolate\u{2069}", "\u{200F}rtl\u{200E}", "zero\u{200B}width", "\u{FEFF}bom",
    "nul\u{0}byte", "bell\u{07}", "back\u{08}\u{08}space", "cr\rover", "line\nfeed", "tab\tted", "del\u{7F}",
    "\u{85}next line", "\u{2028}sep\u{2029}", "e\u{301}\u{301}\u{301}", "版本冲突", "🙂👩‍👩‍👧", "\u{FFFD}", "",
    String(repeating: "A", count: 5000), String(repeating: "\u{1B}[1m", count: 300),
  ]

  /// JSON text for a string (every control character escaped, as JSON requires).
  static func json(_ s: String) -> String { JSONValue.string(s).text }

  // MARK: Bodies

  /// A valid error envelope whose code is `code`.
  mutating func envelope(code: String, details: String? = nil) -> [UInt8] {
    let message = pick(Self.hostileTexts)
    var text = #"{"error":{"code":\#(Self.json(code)),"message":\#(Self.json(message))"#
    if let details { text += #","details":\#(details)"# }
    text += "}}"
    return Array(text.utf8)
  }

  /// A valid create answer, possibly merged or conflicted, with hostile text inside.
  mutating func successBody(id: String) -> ([UInt8], BodyMeaning.SuccessShape) {
    let title = Self.json(pick(Self.hostileTexts))
    let item = #"{"id":\#(Self.json(id)),"type":"note","version":1,"state":"active","properties":{"title":\#(title)}}"#
    switch Int.random(in: 0..<5, using: &rng) {
    case 0:
      return (Array(#"{"item":\#(item),"conflict_resolution":{"fields":["title"]}}"#.utf8), .merged(["title"]))
    case 1:
      let sibling = "sib-\(id)"
      return (
        Array(#"{"item":\#(item),"conflict_resolution":{"fields":["body"],"conflicted_copy_id":"\#(sibling)"}}"#.utf8),
        .conflicted(sibling, ["body"])
      )
    case 2:
      let trashed = #"{"id":\#(Self.json(id)),"type":"note","version":3,"state":"trashed","properties":{}}"#
      return (Array(#"{"acknowledged":true,"item":\#(trashed)}"#.utf8), .trashedAcknowledged)
    default:
      return (Array(#"{"item":\#(item)}"#.utf8), .accepted)
    }
  }

  /// Valid JSON of the wrong shape: no string `error.code`, no create answer.
  static let wrongTypes: [String] = [
    "[]", "{}", "null", "true", "0", "-1.5e300", #""just a string""#, #"{"error":"boom"}"#, #"{"error":null}"#,
    #"{"error":[]}"#, #"{"error":{"code":42}}"#, #"{"error":{"code":null}}"#, #"{"error":{"code":["a"]}}"#,
    #"{"error":{"code":{"nested":"x"}}}"#, #"{"error":{"code":true}}"#, #"{"errors":[{"code":"x"}]}"#,
    #"{"item":"x"}"#, #"{"item":{"id":5}}"#, #"{"item":null}"#, #"{"item":[]}"#, #"{"item":{}}"#,
    #"{"ok":true}"#, #"[{"item":{"id":"x"}}]"#, #"{"item":{"id":null,"version":1}}"#,
    #"{"item":{"id":["x"]}}"#, #"{"ERROR":{"code":"x"}}"#, "1e999999",
  ]

  /// Text that is not JSON (each is a syntax error by construction).
  static let badJSON: [String] = [
    "{", "}", "[", "{\"error\":", "{\"error\":{\"code\":\"x\"}", "{'error':{'code':'x'}}", "{error:{code:x}}",
    "{\"a\":1,}", "[1,2,]", "NaN", "Infinity", "-", "01", "1.", ".5", "+1", "tru", "nul", "\"unterminated",
    "{\"a\" 1}", "{\"a\":1}{\"b\":2}", "{} trailing", "// comment\n{}", "/* c */{}", "{\"a\":\"\\x41\"}",
    "{\"a\":\"\\u12\"}", "{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00\"}", "{\"a\":\"\\ud800\\u0041\"}",
    "<html><body>502 Bad Gateway</body></html>", "\u{FEFF}{}", "{\"error\":{\"code\":\"x\"}}\u{0}",
    "{\"a\":\"raw\u{1B}[31mesc\"}", "{\"a\":\"raw\ttab\"}", "{\"a\":\"raw\nline\"}", "{\"a\":\"nul\u{0}\"}",
    "{\"error\":{\"code\":\"x\"}},", "[[[[[[[[", "]]]]", "\"\\", "{\"\":}", "{,}", "1 2",
  ]

  /// Bytes that are not UTF-8, some inside otherwise valid JSON.
  mutating func notUTF8() -> [UInt8] {
    switch Int.random(in: 0..<7, using: &rng) {
    case 0:
      return [0xFF, 0xFE]
        + (0..<Int.random(in: 0..<200, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
    case 1: return Array(#"{"error":{"code":""#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8)  // bad continuation
    // An overlong NUL.
    case 2: return Array(#"{"error":{"code":"x","message":""#.utf8) + [0xC0, 0x80] + Array(#""}}"#.utf8)
    case 3: return Array(#"{"error":{"code":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}}"#.utf8)  // a surrogate
    case 4: return Array(#"{"item":{"id":""#.utf8) + [0xF8, 0x88, 0x80, 0x80, 0x80] + Array(#""}}"#.utf8)
    case 5: return Array("caf".utf8) + [0xE9] + Array(" latin-1 page".utf8)
    default: return Array(#"{"error":{"code":"trunc"#.utf8) + [0xE2, 0x82] + Array(#""}}"#.utf8)  // cut sequence
    }
  }

  /// Raw control characters where JSON forbids them (below 0x20), and escape sequences outside strings.
  mutating func rawControl() -> [UInt8] {
    let c = UInt8(pick([0x00, 0x07, 0x08, 0x0B, 0x0C, 0x1B, 0x1F] as [Int]))
    switch Int.random(in: 0..<3, using: &rng) {
    case 0: return Array(#"{"error":{"code":"a"#.utf8) + [c] + Array(#"b"}}"#.utf8)
    case 1: return [0x1B] + Array("[31m{\"error\":{\"code\":\"x\"}}".utf8)
    default: return Array("{\"error\":{\"code\":\"x\"}}".utf8) + [0x1B, 0x5B, 0x32, 0x4A]
    }
  }

  /// 64 KB to 1 MB: valid envelopes, valid answers, garbage, nesting past any parser's limit.
  mutating func huge(id: String) -> ([UInt8], BodyMeaning) {
    let size = Int.random(in: 64_000...1_000_000, using: &rng)
    switch Int.random(in: 0..<4, using: &rng) {
    case 0:
      let code = "huge_\(size)"
      let text = #"{"error":{"code":"\#(code)","message":"\#(String(repeating: "x", count: size))"}}"#
      return (Array(text.utf8), BodyMeaning(code: code))
    case 1:
      let item =
        #"{"id":\#(Self.json(id)),"type":"note","version":1,"properties":{"title":"\#(String(repeating: "y", count: size))"}}"#
      return (Array(#"{"item":\#(item)}"#.utf8), BodyMeaning(success: .accepted))
    case 2:
      return (Array("{\"error\":{\"code\":\"".utf8) + [UInt8](repeating: 0x7A, count: size), .unreadable)
    default:
      let depth = Int.random(in: 300...2000, using: &rng)
      let text =
        #"{"error":{"code":"deep","d":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        + "}}"
      return (Array(text.utf8), .unreadable)  // deeper than the parser reads: cannot be read
    }
  }

  /// A proper prefix of a JSON object is never JSON.
  mutating func truncated(_ whole: [UInt8]) -> [UInt8] {
    Array(whole.prefix(Int.random(in: 0..<whole.count, using: &rng)))
  }

  /// A body of some family, and what it means.
  mutating func body(id: String, status: Int) -> (String, [UInt8], BodyMeaning) {
    let success = (200..<300).contains(status)
    let roll = Int.random(in: 0..<100, using: &rng)
    switch roll {
    case 0..<16:
      let code = pick(Self.hostileTexts + ["validation_error", "item_not_found", "not_permitted"])
      return ("envelope with hostile text", envelope(code: code), BodyMeaning(code: code))
    case 16..<24:
      switch Int.random(in: 0..<6, using: &rng) {
      case 0:
        let grant =
          #"{"grant":{"kind":"\#(pick(["type", "edge_type", "extension"]))","name":"note","level":"\#(pick(["read", "write"]))"}}"#
        return (
          "envelope with a grant", envelope(code: "type_not_permitted", details: grant),
          BodyMeaning(code: "type_not_permitted", validGrant: true)
        )
      case 1:
        let grant = pick([
          #"{"grant":{"kind":"type","name":"","level":"write"}}"#,
          #"{"grant":{"kind":"root","name":"n","level":"write"}}"#,
          #"{"grant":{"kind":"type","name":"n","level":"admin"}}"#, #"{"grant":"type note write"}"#, #"{"grant":null}"#,
          #"{"grant":{"kind":"type","name":7,"level":"write"}}"#,
        ])
        return (
          "envelope with a malformed grant", envelope(code: "type_not_permitted", details: grant),
          BodyMeaning(code: "type_not_permitted")
        )
      default:
        let code = pick([
          "idempotency_key_reused", "idempotency_key_in_flight", "version_conflict", "ancestor_unavailable",
        ])
        return ("envelope with a code the drain reads", envelope(code: code), BodyMeaning(code: code))
      }
    case 24..<36:
      return ("wrong types", Array(pick(Self.wrongTypes).utf8), .unreadable)
    case 36..<48:
      return ("bad JSON", Array(pick(Self.badJSON).utf8), .unreadable)
    case 48..<58:
      let whole = chance(0.5) ? envelope(code: "cut") : successBody(id: id).0
      return ("truncated JSON", truncated(whole), .unreadable)
    case 58..<66:
      return ("not UTF-8", notUTF8(), .unreadable)
    case 66..<71:
      return ("raw control characters", rawControl(), .unreadable)
    case 71:
      // DEL and C1 controls may stand raw in a JSON string: the envelope reads, code and all.
      let code = pick(["a\u{7F}b", "c1\u{9B}31m", "\u{85}"])
      return ("raw DEL and C1 in a string", Array(#"{"error":{"code":"\#(code)"}}"#.utf8), BodyMeaning(code: code))
    case 72..<77:
      return ("empty", [], .unreadable)
    case 77..<78:
      let (bytes, meaning) = huge(id: id)
      return ("huge", bytes, meaning)
    default:
      // A body a 2xx can be read by; at other statuses it carries no error code.
      let (bytes, shape) = successBody(id: id)
      return (
        success ? "valid answer with hostile text" : "answer shape at a refusal", bytes, BodyMeaning(success: shape)
      )
    }
  }

  static let contentTypes: [String?] = [
    "application/json", "application/json", "application/json; charset=utf-8", nil, "text/html", "text/plain",
    "application/octet-stream", "image/png", "application/json; charset=utf-16", "application/problem+json",
    "text/plain; charset=iso-8859-1", "multipart/form-data; boundary=x",
  ]

  /// An answer whose outcome lets the pass go on.
  mutating func continuing(writeId: String) -> HostileCase {
    while true {
      let c = any(writeId: writeId, terminal: false)
      if !c.expected.endsPass { return c }
    }
  }

  /// An answer that ends the pass (environmental, another contract, a redirect, a refused key).
  mutating func terminal(writeId: String) -> HostileCase {
    while true {
      let c = any(writeId: writeId, terminal: true)
      if c.expected.endsPass { return c }
    }
  }

  mutating func any(writeId: String, terminal: Bool) -> HostileCase {
    let statuses: [Int] =
      terminal
      ? [500, 502, 503, 504, 507, 408, 425, 429, 429, 301, 302, 307, 401, 400, 404, 200, 201]
      : [200, 200, 201, 201, 202, 204, 400, 403, 403, 404, 405, 409, 409, 410, 413, 415, 418, 422, 422, 451]
    let status = pick(statuses)
    let contract: ScriptedAnswer.ContractHeader
    let roll = Int.random(in: 0..<100, using: &rng)
    if terminal {
      contract =
        roll < 40
        ? .standard
        : roll < 75 ? .absent : roll < 85 ? .values(["3"]) : roll < 92 ? .values(["2", "3"]) : .values(["20"])
    } else {
      contract = roll < 94 ? .standard : .values(["2", "2"])
    }
    var (family, body, meaning) = self.body(id: writeId, status: status)
    if status == 204 { (family, body, meaning) = ("empty", [], .unreadable) }  // a 204 carries no body in HTTP
    var retryAfter: String?
    if terminal && chance(0.5) {
      retryAfter = pick(["7", "0", "1200", "abc", "-3", "1.5", "99999999999999999999999", " 4 "])
    }
    return HostileCase(
      writeId: writeId, family: family, status: status, contract: contract, body: body,
      contentType: pick(Self.contentTypes), retryAfter: retryAfter, meaning: meaning)
  }
}
