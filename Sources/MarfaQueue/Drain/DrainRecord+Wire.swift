import FoundationEssentials

extension DrainRecord {
  /// The record as `verdicts history --json` lists it.
  public var wireJSON: JSONValue {
    .object([
      ("number", .int(number)),
      ("started_at", .string(Timestamp.text(startedAt))),
      ("ended_at", endedAt.map { .string(Timestamp.text($0)) } ?? .null),
      (
        "writer",
        .object([
          ("program", .string(program)), ("mode", .string(mode)), ("pid", .int(pid)), ("host", .string(host)),
        ])
      ),
      ("answered", .int(answered)),
      ("held", .int(held)),
      ("undelivered", .int(undelivered)),
      ("unsent", .int(unsent)),
      ("unmade", .int(unmade)),
      ("verdict_counts", .object(verdicts.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
      ("ended", .string(ending.rawValue)),
      ("why", Wire.str(why)),
      ("retry_after_seconds", Wire.int(retryAfterSeconds)),
      ("writes_per_second", writesPerSecond.flatMap { JSONNumber($0.fixed(1)) }.map(JSONValue.number) ?? .null),
    ])
  }

  /// The ending and its words, as the report of `report` says it.
  static func ending(of report: DrainReport) -> (Ending, String?) {
    if let stopped = report.stopped { return (.stopped, stopped) }
    if let unavailable = report.unavailable { return (.unavailable, unavailable) }
    return (.finished, nil)
  }
}
