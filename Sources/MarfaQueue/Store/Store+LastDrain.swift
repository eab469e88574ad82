import FoundationEssentials

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
    try setMeta(.lastDrain, kept.summaryJSON.text)
    try setMeta(.lastDrainVerdicts, JSONValue.array(kept.verdicts.map(\.wireJSON)).text)
    try setMeta(.lastDrainAt, kept.endedAt ?? Timestamp.now())
  }

  /// The last drain's summary, without entries; nil when no drain was kept.
  func lastDrainSummary() throws -> DrainReport? {
    guard let length = try scalar("SELECT length(CAST(value AS BLOB)) FROM meta WHERE key = 'last_drain'") else {
      return nil
    }
    if length <= SQLite.lastDrainSummaryBound {
      let json = try meta(.lastDrain).flatMap(JSONValue.parse)
      note(json.flatMap(DrainReport.damage(inWireJSON:)))
      return json.flatMap(DrainReport.init(wireJSON:))
    }
    // A whole report kept by an earlier build: its entries sit between its counts and its last
    // fields (`…,"unavailable":…,"verdicts":[…],"stopped":…}`), so its two ends are read and
    // joined; only if they do not join is the whole text read, its entries dropped in SQLite.
    if let report = try wholeReportEnds() { return report }
    let text = try self.text(
      "SELECT json_remove(value, '$.verdicts') FROM meta WHERE key = 'last_drain'")
    return text.flatMap(JSONValue.parse).flatMap(DrainReport.init(wireJSON:))
  }

  /// The summary of a whole report an earlier build kept, from its first and last bytes.
  private func wholeReportEnds() throws -> DrainReport? {
    let bound = SQLite.lastDrainSummaryBound
    var ends: (String, String)?
    try query(
      "SELECT substr(CAST(value AS BLOB), 1, ?) AS head, substr(CAST(value AS BLOB), -?) AS tail"
        + " FROM meta WHERE key = 'last_drain'",
      [.int(bound), .int(bound)], reading: ReportEndsColumn.self
    ) { r in ends = (r.text(.head) ?? "", r.text(.tail) ?? "") }
    guard let (head, tail) = ends, let open = head.firstRange(of: #","verdicts":["#),
      let close = tail.ranges(of: #"],"stopped":"#).last
    else { return nil }
    let joined = String(head[..<open.lowerBound]) + String(tail[tail.index(after: close.lowerBound)...])
    return JSONValue.parse(joined).flatMap(DrainReport.init(wireJSON:))
  }

  /// The last drain's kept entries, in the order they landed (at most ``DrainReport/keptVerdicts``).
  func lastDrainVerdicts() throws -> [DrainVerdict] {
    guard let text = try meta(.lastDrainVerdicts), let json = JSONValue.parse(text) else { return [] }
    return json.arrayValue?.compactMap(DrainVerdict.init(wireJSON:)) ?? []
  }

  /// The size in bytes of what the store keeps of the last drain's report.
  func lastDrainBytes() throws -> Int {
    try scalar(
      "SELECT coalesce(sum(length(CAST(value AS BLOB))), 0) FROM meta WHERE key IN ('last_drain', 'last_drain_verdicts')"
    ) ?? 0
  }
}
