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
    ])
  }

  /// Reads a stored record; nil when it is not one (a record is advisory: a bad one is ignored).
  init?(storedJSON j: JSONValue) {
    guard let program = j["program"]?.stringValue, let mode = j["mode"]?.stringValue,
      let pid = j["pid"]?.intValue, let started = Self.date(j["started_at_ms"])
    else { return nil }
    self.init(
      program: program, mode: mode, pid: Int32(clamping: pid), host: j["host"]?.stringValue ?? "",
      startedAt: started, updatedAt: Self.date(j["updated_at_ms"]) ?? started, closedAt: Self.date(j["closed_at_ms"]),
      autoDrain: j["auto_drain"] == .bool(true), keyRefused: j["key_refused"] == .bool(true),
      drain: j["drain"].flatMap(DrainProgress.init(storedJSON:)),
      lastDrain: j["last_drain"].flatMap(DrainProgress.init(storedJSON:)))
  }

  static func ms(_ d: Date) -> JSONValue { .int(Int((d.timeIntervalSince1970 * 1000).rounded())) }
  static func date(_ v: JSONValue?) -> Date? {
    guard let n = v?.intValue else { return nil }
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
    ])
  }

  init?(storedJSON j: JSONValue) {
    guard let started = WriterRecord.date(j["started_at_ms"]), let total = j["total"]?.intValue else { return nil }
    var verdicts: [String: Int] = [:]
    if case .object(let members)? = j["verdicts"] {
      for (k, v) in members { if let n = v.intValue { verdicts[k] = n } }
    }
    self.init(
      startedAt: started, endedAt: WriterRecord.date(j["ended_at_ms"]), total: total, sent: j["sent"]?.intValue ?? 0,
      answered: j["answered"]?.intValue ?? 0, verdicts: verdicts)
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
      ])
    }
    return .object([
      ("state", .string(state.rawValue)), ("program", .string(program)), ("mode", .string(mode)),
      ("pid", .int(Int(pid))),
      ("host", .string(host)), ("started_at", iso(startedAt)), ("updated_at", iso(updatedAt)),
      ("closed_at", iso(closedAt)),
      ("auto_drain", .bool(autoDrain)), ("key_refused", .bool(keyRefused)), ("drain", drainJSON(drain)),
      ("last_drain", drainJSON(lastDrain)),
    ])
  }
}
