import FoundationEssentials

/// The store's side of the drains before this one (``DrainRecord``), kept in the `drains`
/// table: the last ``DrainRecord/kept``, the older pruned by the schema's trigger as each is
/// begun (docs/rules.md "The drains before this one").
extension SQLite {
  /// Whether the store keeps the drains' history (a store of an earlier build does not until a
  /// writer opens it).
  func hasDrainHistory() throws -> Bool {
    try scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'drains'") == 1
  }

  /// Begins a drain's row, naming who runs it; returns its number (nil when the store keeps no history).
  func beginDrainRecord(startedAt: Date, writer: WriterRecord?) throws -> Int? {
    guard try hasDrainHistory() else { return nil }
    try insert([
      (DrainRecordColumn.startedMs, .int(Self.epochMs(startedAt))),
      (.program, .text(writer?.program ?? "")), (.mode, .text(writer?.mode ?? "")),
      (.pid, .int(Int(writer?.pid ?? 0))), (.host, .text(writer?.host ?? "")),
      (.ending, .text(DrainRecord.Ending.open.rawValue)),
    ])
    return try scalar("SELECT max(n) FROM drains")
  }

  /// Ends a drain's row with what its report came to; `end`, when given, is how it ended instead
  /// of what the report says (an error: `failed`; a stop asked: `interrupted`), with its words.
  func endDrainRecord(
    _ n: Int, _ report: DrainReport, endedAt: Date, end: (ending: DrainRecord.Ending, why: String)? = nil
  ) throws {
    var (ending, why) = DrainRecord.ending(of: report)
    if let end { (ending, why) = (end.ending, end.why) }
    let verdicts = JSONValue.object(report.verdictCounts.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })
    try query(
      """
      UPDATE drains SET ended_ms = ?, answered = ?, held = ?, undelivered = ?, unsent = ?, unmade = ?,
        verdicts = ?, ending = ?, why = ?, retry_after = ? WHERE n = ?
      """,
      [
        .int(Self.epochMs(endedAt)), .int(report.answered), .int(report.held), .int(report.undelivered),
        .int(report.unsent), .int(report.unmade), .text(verdicts.text), .text(ending.rawValue),
        .of(why.map(LastFailure.cut)), .of(report.retryAfterSeconds), .int(n),
      ])
  }

  /// Owes `tally` to its drain's history row: written when the open group commits, with the
  /// verdicts it counts, so a process that dies mid-drain (a hang-up, a signal, `kill -9`)
  /// leaves a row that says what it answered up to its last commit. Nothing outside a group.
  func oweDrainTally(_ tally: DrainTally?) {
    guard let tally, groupStarted != nil else { return }
    drainTallyOwed = tally
  }

  /// Writes the tally owed to a drain's row (``oweDrainTally(_:)``), inside the group about to commit.
  func payDrainTally() throws {
    guard let t = drainTallyOwed else { return }
    drainTallyOwed = nil
    let verdicts = JSONValue.object(t.verdicts.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })
    try query(
      """
      UPDATE drains SET answered = ?, held = ?, undelivered = ?, unsent = ?, unmade = ?, verdicts = ?
        WHERE n = ? AND ended_ms IS NULL
      """,
      [
        .int(t.answered), .int(t.held), .int(t.undelivered), .int(t.unsent), .int(t.unmade), .text(verdicts.text),
        .int(t.number),
      ])
  }

  /// The kept drains, newest first: those begun at or after `since`, at most `limit`;
  /// `answering`: only drains that answered a write.
  func drainHistory(since: Date? = nil, limit: Int? = nil, answering: Bool = false) throws -> [DrainRecord] {
    guard try hasDrainHistory() else { return [] }
    var conditions: [String] = []
    var values: [SQLValue] = []
    if let since {
      conditions.append("started_ms >= ?")
      values.append(.int(Self.epochMs(since)))
    }
    if answering { conditions.append("answered > 0") }
    let clause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    let bound = min(limit ?? DrainRecord.kept, DrainRecord.kept)
    var out: [DrainRecord] = []
    try query(
      "SELECT \(DrainRecordColumn.all) FROM drains\(clause) ORDER BY n DESC LIMIT \(max(0, bound))", values,
      reading: DrainRecordColumn.self
    ) { out.append(readDrainRecord($0)) }
    return out
  }

  /// One drain row, its numbers checked against ``StoredRange``.
  private func readDrainRecord(_ r: ColumnRow<DrainRecordColumn>) -> DrainRecord {
    var found: StoreDamage?
    let place = "drains.\(r.int(.n).map(String.init) ?? "?")"
    func count(_ c: DrainRecordColumn) -> Int {
      StoredRange.read(r.int(c), StoredRange.count, clamping: true, place: place + " (\(c.name))", damage: &found) ?? 0
    }
    func date(_ c: DrainRecordColumn) -> Date? {
      StoredRange.read(
        r.int(c), StoredRange.epochMilliseconds, clamping: false, place: place + " (\(c.name))", damage: &found
      ).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }
    var verdicts: [String: Int] = [:]
    if case .object(let members)? = r.text(.verdicts).flatMap(JSONValue.parse) {
      for (k, v) in members { if let n = StoredJSON.int(v, StoredRange.count) { verdicts[k] = n } }
    }
    let record = DrainRecord(
      number: count(.n), startedAt: date(.startedMs) ?? Date(timeIntervalSince1970: 0), endedAt: date(.endedMs),
      program: r.text(.program) ?? "", mode: r.text(.mode) ?? "",
      pid: r.int(.pid) == 0
        ? 0
        : StoredRange.read(r.int(.pid), StoredRange.pid, clamping: false, place: place + " (pid)", damage: &found)
          ?? 0,
      host: r.text(.host) ?? "", answered: count(.answered), held: count(.held), undelivered: count(.undelivered),
      unsent: count(.unsent), unmade: count(.unmade), verdicts: verdicts,
      ending: DrainRecord.Ending(rawValue: r.text(.ending) ?? "") ?? .open, why: r.text(.why),
      retryAfterSeconds: StoredRange.read(
        r.int(.retryAfter), StoredRange.retryAfterSeconds, clamping: false, place: place + " (retry_after)",
        damage: &found))
    note(found)
    return record
  }
}

/// A running drain's counts so far, for its history row (``SQLite/oweDrainTally(_:)``).
struct DrainTally: Sendable {
  /// The drain's number in the history.
  var number: Int
  /// The report's counts (``DrainReport``).
  var answered: Int
  var held: Int
  var undelivered: Int
  var unsent: Int
  var unmade: Int
  /// How many writes reached each verdict, by wire name.
  var verdicts: [String: Int]

  init(number: Int, _ r: DrainReport) {
    self.number = number
    (answered, held, undelivered, unsent, unmade) = (r.answered, r.held, r.undelivered, r.unsent, r.unmade)
    verdicts = r.verdictCounts
  }
}
