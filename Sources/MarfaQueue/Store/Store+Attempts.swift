import FoundationEssentials

/// The store's side of each write's attempts (``WriteAttempt``), kept in the `attempts` table:
/// the last ``WriteAttempt/kept`` of each write, the older ones counted by their numbers
/// (docs/rules.md "Each write's attempts").
extension SQLite {
  /// Whether the store keeps attempts (a store of an earlier build does not until a writer opens it).
  func hasAttempts() throws -> Bool {
    try scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'attempts'") == 1
  }

  /// Records one attempt of the write, numbered after its last; the schema's trigger lets go
  /// of the ones older than the last ``WriteAttempt/kept`` in the same statement.
  func recordAttempt(_ id: String, _ a: WriteAttempt) throws {
    try query(
      """
      INSERT INTO attempts (write_id, k, at_ms, drain, result, status, code, replayed, ms, text)
      VALUES (?, coalesce((SELECT max(k) FROM attempts WHERE write_id = ?), 0) + 1, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        .text(id), .text(id), .int(Self.epochMs(a.at)), .of(a.drain), .text(a.result.rawValue), .of(a.status),
        .of(a.code), .int(a.replayed ? 1 : 0), .int(a.milliseconds), .of(a.text),
      ])
  }

  /// The write's kept attempts, newest first, and how many older ones were let go.
  func attempts(of id: String) throws -> WriteAttempts {
    guard try hasAttempts() else { return WriteAttempts() }
    var kept: [(Int, WriteAttempt)] = []
    try query(
      "SELECT \(AttemptColumn.all) FROM attempts WHERE write_id = ? ORDER BY k DESC LIMIT \(WriteAttempt.kept)",
      [.text(id)], reading: AttemptColumn.self
    ) { kept.append(readAttempt($0)) }
    return Self.gathered(kept)
  }

  /// Every write's kept attempts, by write id (writes without any left out).
  func allAttempts() throws -> [String: WriteAttempts] {
    guard try hasAttempts() else { return [:] }
    var byWrite: [String: [(Int, WriteAttempt)]] = [:]
    try query(
      "SELECT \(AttemptColumn.all) FROM attempts ORDER BY write_id, k DESC", [], reading: AttemptColumn.self
    ) { r in
      byWrite[r.text(.writeId) ?? "", default: []].append(readAttempt(r))
    }
    return byWrite.mapValues(Self.gathered)
  }

  /// One attempt row, its numbers checked against ``StoredRange``; with its number.
  private func readAttempt(_ r: ColumnRow<AttemptColumn>) -> (Int, WriteAttempt) {
    var found: StoreDamage?
    let place = "attempts of \(r.text(.writeId) ?? "?")"
    let k = StoredRange.read(r.int(.k), StoredRange.count, clamping: true, place: place + " (k)", damage: &found) ?? 0
    let ms =
      StoredRange.read(
        r.int(.atMs), StoredRange.epochMilliseconds, clamping: true, place: place + " (at_ms)", damage: &found) ?? 0
    let drain = StoredRange.read(r.int(.drain), StoredRange.count, clamping: false, place: place, damage: &found)
    let status = StoredRange.read(
      r.int(.status), StoredRange.httpStatus, clamping: false, place: place + " (status)", damage: &found)
    let took =
      StoredRange.read(
        r.int(.ms), StoredRange.milliseconds, clamping: true, place: place + " (ms)", damage: &found) ?? 0
    note(found)
    let attempt = WriteAttempt(
      at: Date(timeIntervalSince1970: Double(ms) / 1000), drain: drain,
      result: WriteAttempt.Result(rawValue: r.text(.result) ?? "") ?? .failed, status: status, code: r.text(.code),
      replayed: r.bool(.replayed), milliseconds: took, text: r.text(.text))
    return (k, attempt)
  }

  /// Kept attempts, newest first, with the count of those let go: the newest's number tells
  /// how many there were.
  static func gathered(_ kept: [(Int, WriteAttempt)]) -> WriteAttempts {
    let newest = kept.first?.0 ?? 0
    return WriteAttempts(list: kept.map(\.1), omitted: max(0, newest - kept.count))
  }

  /// A time as milliseconds since 1970, within ``StoredRange/epochMilliseconds``.
  static func epochMs(_ date: Date) -> Int {
    let raw = date.timeIntervalSince1970 * 1000
    guard raw.isFinite else { return 0 }
    return StoredRange.clamp(Int(max(-1, min(raw, 253_402_300_799_999))), StoredRange.epochMilliseconds)
  }
}
