import MarfaQueue

/// `watch --plain --json`: one JSON object per line per change, for log shippers and tickets.
/// A write's line is the write as `queue --json` shows it plus `time` and `event` (`queued`,
/// `sent`, `undelivered`, `answered`, `released`, `forgotten`); a writer's line is `{"time", "event": "writer"|"drain",
/// "writer": {…}}`; a store file's line is `{"time", "event": "store", "store": "removed"|…}`.
enum PlainJSON {
  /// The write with its event and time; `keepsFailures` false (the Marfa core's store) as
  /// `queue --json` gives such a row (``CoreStore/wireJSON(_:)``: `not_kept` names what is null).
  ///
  /// A write of verdicts's own store is written straight out (``QueuedWrite/wireText(escaping:leading:)``):
  /// a watcher of a drain writes one for every write the drain answers.
  static func write(_ w: QueuedWrite, event: String, time: String, ascii: Bool, keepsFailures: Bool = true) -> String {
    let escaping: JSONEscaping = ascii ? .ascii : .visible
    guard keepsFailures else {
      guard case .object(let members) = CoreStore.wireJSON(w) else { return "" }
      return JSONValue.objectText([("time", .string(time)), ("event", .string(event))], members, escaping: escaping)
    }
    return w.wireText(escaping: escaping) { line in
      line.add("time", string: time)
      line.add("event", string: event)
    }
  }

  /// A write that left the queue.
  /// A write that left the queue: `withdrawn`, `discarded` or `forgotten` as the store recorded it
  /// (`forgotten` where it does not say).
  static func gone(_ id: String, departure: Departure? = nil, time: String, ascii: Bool) -> String {
    JSONValue.object([
      ("time", .string(time)), ("event", .string((departure ?? .forgotten).rawValue)), ("id", .string(id)),
    ])
    .text(escaping: ascii ? .ascii : .visible)
  }

  /// The writer came, went, or started or ended a drain (`drain`).
  static func writer(_ w: WriterRecord?, event: String, time: String, ascii: Bool) -> String {
    JSONValue.object([("time", .string(time)), ("event", .string(event)), ("writer", w?.wireJSON ?? .null)])
      .text(escaping: ascii ? .ascii : .visible)
  }

  /// A drain ended, as the store kept its report: `{"time", "event": "drain_ended", "ended_at", "report": {…}}`.
  static func drainEnded(_ report: DrainReport, at: String, time: String, ascii: Bool) -> String {
    JSONValue.object([
      ("time", .string(time)), ("event", .string("drain_ended")), ("ended_at", .string(at)),
      ("report", report.wireJSON),
    ])
    .text(escaping: ascii ? .ascii : .visible)
  }

  /// A drain ended as the store's history keeps it (one that failed or was interrupted keeps no
  /// report): `{"time", "event": "drain_ended", "ended_at", "record": {…}}`.
  static func drainEnded(_ record: DrainRecord, time: String) -> String {
    JSONValue.object([
      ("time", .string(time)), ("event", .string("drain_ended")),
      ("ended_at", record.endedAt.map { .string(Timestamp.text($0)) } ?? .null), ("record", record.wireJSON),
    ]).text
  }

  /// A drain ended with its writer's death: `{"time", "event": "drain_died", "pid", "drain": {…}}`.
  static func drainDied(_ w: WriterRecord, _ d: WriterRecord.DrainProgress, time: String) -> String {
    JSONValue.object([
      ("time", .string(time)), ("event", .string("drain_died")), ("pid", .int(Int(w.pid))),
      ("drain", w.wireJSON["drain"] ?? .null),
    ]).text
  }

  /// The store file was removed or replaced (or is back).
  static func store(_ state: StoreFileState, time: String) -> String {
    JSONValue.object([("time", .string(time)), ("event", .string("store")), ("store", .string(state.rawValue))]).text
  }

  /// What a write's change was, from whether it had a verdict when last printed (nil: not printed):
  /// `answered`, `released`, `sent` (its request went out), `undelivered`, else `queued`.
  static func event(_ w: QueuedWrite, hadVerdict: Bool?) -> String {
    if w.verdict != nil { return "answered" }
    if hadVerdict == true { return "released" }
    switch w.stateWord {
    case "sent", "undelivered": return w.stateWord
    default: return "queued"
    }
  }
}
