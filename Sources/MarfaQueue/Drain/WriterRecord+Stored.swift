import FoundationEssentials

extension WriterRecord {
  /// The record as stored: JSON, times in epoch milliseconds.
  var storedJSON: JSONValue {
    .object([
      ("program", .string(program)),
      ("mode", .string(mode)),
      ("pid", .int(Int(pid))),
      ("host", .string(host)),
      ("started_at_ms", Self.ms(startedAt)),
      ("updated_at_ms", Self.ms(updatedAt)),
      ("closed_at_ms", closedAt.map(Self.ms) ?? .null),
      ("auto_drain", .bool(autoDrain)),
      ("key_refused", .bool(keyRefused)),
      ("drain", drain?.storedJSON ?? .null),
      ("last_drain", lastDrain?.storedJSON ?? .null),
      ("instance", instance?.storedJSON ?? .null),
      ("heartbeat_s", heartbeatSeconds.map { .int($0) } ?? .null),
    ])
  }

  /// The numbers of a stored record and what each may be (``StoredRange``).
  static let storedNumbers: [([String], ClosedRange<Int>)] =
    [(["pid"], StoredRange.pid)]
    + ["started_at_ms", "updated_at_ms", "closed_at_ms"].map { ([$0], StoredRange.epochMilliseconds) }
    + [(["heartbeat_s"], StoredRange.heartbeatSeconds)]
    + ["since_ms", "next_try_ms"].map { (["instance", $0], StoredRange.epochMilliseconds) }
    + ["drain", "last_drain"].flatMap { part in
      [
        ([part, "started_at_ms"], StoredRange.epochMilliseconds),
        ([part, "moved_at_ms"], StoredRange.epochMilliseconds),
        ([part, "ended_at_ms"], StoredRange.epochMilliseconds),
        ([part, "total"], StoredRange.count), ([part, "sent"], StoredRange.count),
        ([part, "answered"], StoredRange.count),
      ]
    }

  /// The first number of a stored record out of its range (the store was damaged); nil when
  /// every one is in range or the text is not a record.
  static func damage(inStored text: String?) -> StoreDamage? {
    guard let j = text.flatMap(JSONValue.parse) else { return nil }
    return StoredJSON.damage(j, record: "writer", storedNumbers)
      ?? StoredJSON.countsDamage(j, record: "writer", ["drain", "verdicts"])
      ?? StoredJSON.countsDamage(j, record: "writer", ["last_drain", "verdicts"])
  }

  /// Reads a stored record; nil when it is not one (a record is advisory: a bad one is ignored,
  /// and so is one holding a number out of range, ``damage(inStored:)``).
  init?(storedJSON j: JSONValue) {
    guard StoredJSON.damage(j, record: "writer", Self.storedNumbers) == nil else { return nil }
    guard let program = j["program"]?.stringValue, let mode = j["mode"]?.stringValue,
      let pid = j["pid"]?.intValue, let started = Self.date(j["started_at_ms"])
    else { return nil }
    self.init(
      program: program, mode: mode, pid: Int32(clamping: pid), host: j["host"]?.stringValue ?? "",
      startedAt: started, updatedAt: Self.date(j["updated_at_ms"]) ?? started, closedAt: Self.date(j["closed_at_ms"]),
      autoDrain: j["auto_drain"] == .bool(true), keyRefused: j["key_refused"] == .bool(true),
      drain: j["drain"].flatMap(DrainProgress.init(storedJSON:)),
      lastDrain: j["last_drain"].flatMap(DrainProgress.init(storedJSON:)))
    instance = j["instance"].flatMap(InstanceContact.init(storedJSON:))
    heartbeatSeconds = StoredJSON.int(j["heartbeat_s"], StoredRange.heartbeatSeconds)
  }

  static func ms(_ d: Date) -> JSONValue {
    .int(
      StoredRange.clamp(Int(exactly: (d.timeIntervalSince1970 * 1000).rounded()) ?? 0, StoredRange.epochMilliseconds))
  }
  static func date(_ v: JSONValue?) -> Date? {
    guard let n = StoredJSON.int(v, StoredRange.epochMilliseconds) else { return nil }
    return Date(timeIntervalSince1970: Double(n) / 1000)
  }
}

extension WriterRecord.DrainProgress {
  var storedJSON: JSONValue {
    .object([
      ("started_at_ms", WriterRecord.ms(startedAt)),
      ("ended_at_ms", endedAt.map(WriterRecord.ms) ?? .null),
      ("total", .int(total)),
      ("sent", .int(sent)),
      ("answered", .int(answered)),
      ("verdicts", .object(verdicts.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.int($0.value)) })),
      ("moved_at_ms", movedAt.map(WriterRecord.ms) ?? .null),
    ])
  }

  init?(storedJSON j: JSONValue) {
    guard let started = WriterRecord.date(j["started_at_ms"]), let total = StoredJSON.int(j["total"], StoredRange.count)
    else { return nil }
    var verdicts: [String: Int] = [:]
    if case .object(let members)? = j["verdicts"] {
      for (k, v) in members { if let n = StoredJSON.int(v, StoredRange.count) { verdicts[k] = n } }
    }
    self.init(
      startedAt: started, endedAt: WriterRecord.date(j["ended_at_ms"]), total: total,
      sent: StoredJSON.int(j["sent"], StoredRange.count) ?? 0,
      answered: StoredJSON.int(j["answered"], StoredRange.count) ?? 0, verdicts: verdicts,
      movedAt: WriterRecord.date(j["moved_at_ms"]))
  }
}

extension WriterRecord.InstanceContact {
  var storedJSON: JSONValue {
    .object([
      ("reachable", .bool(reachable)), ("since_ms", WriterRecord.ms(since)),
      ("met", met.map { .string($0) } ?? .null), ("next_try_ms", nextTry.map(WriterRecord.ms) ?? .null),
    ])
  }

  /// A stored contact; nil when it is not one (its text is the instance's or the client's, shown
  /// through the Sanitizer only).
  init?(storedJSON j: JSONValue) {
    guard case .bool(let reachable)? = j["reachable"], let since = WriterRecord.date(j["since_ms"]) else { return nil }
    self.init(
      reachable: reachable, since: since, met: j["met"]?.stringValue.map { String($0.prefix(1024)) },
      nextTry: WriterRecord.date(j["next_try_ms"]))
  }

  /// As `watch --plain --json` prints it.
  var wireJSON: JSONValue {
    .object([
      ("reachable", .bool(reachable)), ("since", .string(Timestamp.text(since))),
      ("met", met.map { .string($0) } ?? .null), ("next_try", nextTry.map { .string(Timestamp.text($0)) } ?? .null),
    ])
  }
}

extension WriterRecord {
  /// The record as `watch --plain --json` prints it: the stored fields, times as ISO-8601, and
  /// whether the writer is live, closed or gone.
  public var wireJSON: JSONValue {
    func iso(_ d: Date?) -> JSONValue { d.map { .string(Timestamp.text($0)) } ?? .null }
    func drainJSON(_ p: DrainProgress?) -> JSONValue {
      guard let p else { return .null }
      return .object([
        ("started_at", iso(p.startedAt)), ("ended_at", iso(p.endedAt)), ("total", .int(p.total)),
        ("sent", .int(p.sent)),
        ("answered", .int(p.answered)), ("left", .int(p.left)),
        ("verdicts", .object(p.verdicts.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.int($0.value)) })),
        ("moved_at", iso(p.movedAt)),
      ])
    }
    return .object([
      ("state", .string(state.rawValue)), ("program", .string(program)), ("mode", .string(mode)),
      ("pid", .int(Int(pid))),
      ("host", .string(host)), ("started_at", iso(startedAt)), ("updated_at", iso(updatedAt)),
      ("closed_at", iso(closedAt)),
      ("auto_drain", .bool(autoDrain)), ("key_refused", .bool(keyRefused)), ("drain", drainJSON(drain)),
      ("last_drain", drainJSON(lastDrain)), ("instance", instance?.wireJSON ?? .null),
      ("heartbeat_s", heartbeatSeconds.map { .int($0) } ?? .null),
      ("stalled", .bool(stalled(now: Date()))), ("silent", .bool(silent(now: Date()))),
    ])
  }
}
