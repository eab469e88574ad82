/// The store's side of the last drain's report, kept bounded (docs/rules.md "The last drain's
/// report"): its summary (counts, when, why it ended) under `last_drain`, its last
/// ``DrainReport/keptVerdicts`` entries under `last_drain_verdicts`.
extension SQLite {
  /// The longest `last_drain` text read as it is; a longer one is a report kept whole by an
  /// earlier version, whose entries are dropped in SQLite before it is read.
  static let lastDrainSummaryBound = 16_384

  /// Keeps the pass's report as the last drain: the summary, the last entries, when it ended.
  func keepLastDrain(_ report: DrainReport) throws {
    let kept = report.bounded()
    try setMeta("last_drain", kept.summaryJSON.text)
    try setMeta("last_drain_verdicts", JSONValue.array(kept.verdicts.map(\.wireJSON)).text)
    try setMeta("last_drain_at", kept.endedAt ?? Identifiers.now())
  }

  /// The last drain's summary, without entries; nil when no drain was kept.
  func lastDrainSummary() throws -> DrainReport? {
    let text = try self.text(
      "SELECT CASE WHEN length(value) <= ? THEN value ELSE json_remove(value, '$.verdicts') END FROM meta WHERE key = ?",
      [.int(SQLite.lastDrainSummaryBound), .text("last_drain")])
    return text.flatMap(JSONValue.parse).flatMap(DrainReport.init(wireJSON:))
  }

  /// The last drain's kept entries, in the order they landed (at most ``DrainReport/keptVerdicts``).
  func lastDrainVerdicts() throws -> [DrainVerdict] {
    guard let text = try meta("last_drain_verdicts"), let json = JSONValue.parse(text) else { return [] }
    return json.arrayValue?.compactMap(DrainVerdict.init(wireJSON:)) ?? []
  }

  /// The size in bytes of what the store keeps of the last drain's report.
  func lastDrainBytes() throws -> Int {
    try scalar(
      "SELECT coalesce(sum(length(CAST(value AS BLOB))), 0) FROM meta WHERE key IN ('last_drain', 'last_drain_verdicts')"
    ) ?? 0
  }
}
