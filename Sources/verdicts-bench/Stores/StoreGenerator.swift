import Foundation
import MarfaQueue
import MarfaWire

/// Makes big stores quickly: the schema through `WorkingCopy.open` (so it is the store's own),
/// then every row through the store's bulk insert (`StoreBulkInsert`: one transaction, one
/// prepared statement, columns by name); `pane` is generated from `verdict`.
struct StoreGenerator {
  /// What the generated queue holds.
  struct Mix {
    /// Writes with no verdict (queued, sent with an undelivered failure, held behind another).
    var waiting = true
    /// Writes blocked `credential_refused` (a drain puts them back to no verdict and sends them).
    var credentialRefused = true
  }

  var writes: Int
  var mix = Mix()
  var instanceId = "inst-bench"
  /// Whether the store's meta says it was filled from `instanceId` (off for a store a real
  /// `fill` already set up).
  var writeMeta = true

  /// How many writes of each pane were made.
  struct Made { var waiting = 0, answered = 0, blocked = 0, dead = 0 }

  static let titles = [
    "Call back Ana about the invoice", "Renew the parking permit", "Draft the Q3 field report",
    "Order spare filters for the pump", "Check the north fence after the storm", "Book the van for Thursday",
    "Photograph the meter readings", "Send the signed form to Jonas", "Replace the hall light fitting",
    "Agree the rota with the night shift", "Survey the east culvert", "Log the tractor service",
  ]
  static let failures = [
    "502 Bad Gateway — upstream timed out after 30 s", "503 Service Unavailable: maintenance until 04:00 UTC",
    "the connection was reset by the peer", "504 Gateway Timeout (proxy.example.net)",
    "TLS handshake failed: certificate expired", "版本冲突, réessayez plus tard — 502 from a gateway",
  ]
  static let refusalReasons = ["validation_failed", "trashed", "not_found", "type_not_permitted"]

  /// Generates the store at `path` (which must not exist) and returns what it holds.
  func generate(at path: String) async throws -> Made {
    let copy = try await WorkingCopy.open(store: URL(fileURLWithPath: path), server: nil)
    copy.close()

    let bulk = try StoreBulkInsert(path: path)
    if writeMeta {
      try bulk.setMeta(.fill, "complete")
      try bulk.setMeta(.instanceId, instanceId)
      try bulk.setMeta(.origin, "http://127.0.0.1:8421")
    }
    var rng = SplitMix(seed: 0x5652_4454)
    var made = Made()
    let kinds: [WriteKind] = [
      .createItem, .updateItem, .updateItem, .updateItem, .addTag, .mergeMetadata, .writeExtension, .createEdge,
      .deleteItem, .transitionItem, .removeTag, .updateEdge,
    ]
    let epoch = 1_795_000_000.0  // late 2026
    var previousId = ""
    for n in 0..<writes {
      let id = Self.hexId(n, rng.next())
      let kind = kinds[Int(rng.next() % UInt64(kinds.count))]
      let item = "item-\(rng.next() % 50_000)"
      let title = Self.titles[n % Self.titles.count] + " #\(n)"
      let queuedAt = Self.timestamp(epoch + Double(n) * 0.05)
      let answeredAt = Self.timestamp(epoch + Double(n) * 0.05 + 3.25)
      var edge: String?
      var target: String?
      var tag: String?
      var namespace: String?
      var payload: String
      switch kind {
      case .createEdge, .updateEdge:
        edge = "edge-\(n)"
        target = "item-\(rng.next() % 50_000)"
        payload =
          #"{"id":"edge-\#(n)","source_id":"\#(item)","target_id":"\#(target!)","type":"relates_to","properties":{"note":"\#(title)"}}"#
      case .addTag, .removeTag:
        tag = ["urgent", "site-visit", "waiting-parts", "follow-up"][n % 4]
        payload = #"{"tag":"\#(tag!)"}"#
      case .writeExtension:
        namespace = "fieldkit"
        payload = #"{"checked_by":"ana","readings":[12.5,13.1,12.9],"note":"\#(title)"}"#
      case .mergeMetadata:
        payload = #"{"tags":["follow-up","site-visit"]}"#
      default:
        payload =
          #"{"type":"note","properties":{"title":"\#(title)","due":"2026-12-0\#(n % 9 + 1)","priority":\#(n % 5),"done":false}}"#
      }
      if kind == .createItem || kind == .createEdge {
        payload = payload.replacingOccurrences(of: "{\"type\"", with: "{\"id\":\"\(item)\",\"type\"")
      }

      // Which verdict: per mille.
      var r = Int(rng.next() % 1000)
      if !mix.waiting && r < 100 { r = 100 + Int(rng.next() % 900) }
      var sent = 1
      var verdict: String?
      var reason: String?
      var answer: String?
      var conflicted: String?
      var refusals = 0
      var refusal: String?
      var merged: String?
      var failureStatus: Int?
      var failureText: String?
      var streak = 0
      var waiting = 0
      var follows: String?
      var answered: String? = answeredAt
      let row =
        #"{"id":"\#(item)","type":"note","version":\#(n % 7 + 2),"state":"active","properties":{"title":"\#(title)"},"updated_at":"\#(answeredAt)"}"#
      switch r {
      case 0..<60:  // queued, not sent yet
        sent = 0
        answered = nil
        made.waiting += 1
      case 60..<80:  // sent, undelivered
        answered = nil
        failureStatus = [502, 503, 504][n % 3]
        failureText = Self.failures[n % Self.failures.count]
        streak = 1 + n % 2
        made.waiting += 1
      case 80..<100:  // held behind the write before it
        sent = 0
        answered = nil
        waiting = 1
        follows = previousId.isEmpty ? nil : previousId
        made.waiting += 1
      case 100..<600:
        verdict = "accepted"
        answer = row
        made.answered += 1
      case 600..<680:
        verdict = "merged"
        merged = #"["title","due"]"#
        answer = row
        made.answered += 1
      case 680..<720:
        verdict = "conflicted"
        conflicted = "\(item)-copy-\(n)"
        merged = #"["title"]"#
        answer = row
        made.answered += 1
      case 720..<800:
        verdict = "refused"
        reason = Self.refusalReasons[n % Self.refusalReasons.count]
        refusal =
          #"{"reason":"\#(reason!)","code":"validation_error","message":"title: must be at most 200 characters","fields":[{"field":"properties.title","message":"too long"}],"trashed":false,"grant":null}"#
        answer = #"{"error":{"code":"validation_error","message":"title: must be at most 200 characters"}}"#
        refusals = 1
        made.answered += 1
      case 800..<950:
        verdict = "blocked"
        var reasons = BlockedReason.allCases
        if !mix.credentialRefused { reasons.removeAll { $0 == .credentialRefused } }
        reason = reasons[n % reasons.count].rawValue
        if reason == "failing_alone" {
          failureStatus = 502
          failureText = Self.failures[n % Self.failures.count]
          streak = 3
        }
        made.blocked += 1
      default:
        verdict = "dead"
        refusals = 5
        answer = #"{"error":{"code":"validation_error","message":"the due date is before the item was created"}}"#
        made.dead += 1
      }
      if verdict == nil { answer = nil }

      var w = BulkWrite(
        id: id, kind: kind, idempotencyKey: Self.hexId(n &+ 7_777_777, rng.next()), payload: payload,
        queuedAt: queuedAt)
      w.itemId = item
      w.targetId = target
      w.edgeId = edge
      w.namespace = namespace
      w.tag = tag
      w.baseVersion = kind == .createItem ? nil : n % 7 + 1
      w.sent = sent == 1
      w.follows = follows
      w.verdict = verdict
      w.reason = reason
      w.answer = answer
      w.conflictedCopyId = conflicted
      w.refusals = refusals
      w.answeredAt = verdict == nil ? nil : answered
      w.instanceId = instanceId
      w.refusal = refusal
      w.mergedFields = merged
      w.lastFailureStatus = failureStatus
      w.lastFailureText = failureText
      w.environmentalStreak = streak
      w.waiting = waiting == 1
      do {
        try bulk.insert(w)
      } catch {
        throw BenchFailure(message: "inserting write \(n): \(error)")
      }
      previousId = id
    }
    try bulk.finish()
    return made
  }

  /// A UUIDv7-shaped id, unique per `n`.
  static func hexId(_ n: Int, _ random: UInt64) -> String {
    let ms = UInt64(1_795_000_000_000) + UInt64(n) * 50
    func hex(_ v: UInt64, _ digits: Int) -> String {
      let s = String(v, radix: 16)
      return String(repeating: "0", count: max(0, digits - s.count)) + s.suffix(digits)
    }
    return
      "\(hex(ms >> 16, 8))-\(hex(ms & 0xFFFF, 4))-7\(hex(random & 0xFFF, 3))-\(hex(0x8000 | (random >> 12) & 0x3FFF, 4))-\(hex(UInt64(n), 12))"
  }

  /// Seconds since 1970 as `2026-11-29T10:00:05.250Z` (the part before the milliseconds is
  /// cached per second: formatting two million stamps otherwise costs seconds).
  static func timestamp(_ t: Double) -> String {
    let whole = Int(t.rounded(.down))
    let ms = Int((t - Double(whole)) * 1000)
    let prefix = Self.cache.withLock { c -> String in
      if c.second == whole { return c.text }
      var seconds = time_t(whole)
      var parts = tm()
      gmtime_r(&seconds, &parts)
      c.second = whole
      c.text = String(
        format: "%04d-%02d-%02dT%02d:%02d:%02d.", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
        Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
      return c.text
    }
    let m = String(ms)
    return prefix + String(repeating: "0", count: 3 - m.count) + m + "Z"
  }

  static let cache = Mutex((second: -1, text: ""))
}

/// A small seeded generator, so every run makes the same store.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
