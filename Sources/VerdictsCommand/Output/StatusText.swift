import FoundationEssentials
import MarfaQueue
import VerdictsUI

/// The `status` command's output, as JSON and as text.
enum StatusText {
  /// The drains `status` names from the store's history: the last, and the last that answered a write.
  struct Drains {
    var last: DrainRecord?
    var lastAnswering: DrainRecord?
  }

  /// The status as one JSON object (snake_case, like the queue's wire JSON).
  static func json(_ s: Status, drains: Drains? = nil) -> JSONValue {
    let handleReason: JSONValue
    if case .reader(let reason) = s.handle { handleReason = .string(reason) } else { handleReason = .null }
    func str(_ v: String?) -> JSONValue { v.map(JSONValue.string) ?? .null }
    return .object(
      [
        ("store", .string(s.store)),
        ("store_kind", .string(s.kind.wireName)),
        ("store_description", .string(s.kind.description)),
        ("handle", .string(s.handle.isWriter ? "writer" : "reader")),
        ("handle_reason", handleReason),
        ("fill", .string(s.fill.rawValue)),
        ("expired_reason", str(s.expiredReason)),
        ("origin", str(s.origin)),
        ("instance_id", str(s.instanceId)),
        ("cursor", str(s.cursor)),
        (
          "counts",
          .object([
            ("waiting", .int(s.counts.waiting)), ("answered", .int(s.counts.answered)),
            ("blocked", .int(s.counts.blocked)), ("dead", .int(s.counts.dead)),
            ("total", .int(s.counts.total)),
          ])
        ),
        ("last_drain", s.lastDrain?.wireJSON ?? .null),
        ("last_drain_at", str(s.lastDrainAt)),
        ("writer_record", s.writer?.wireJSON ?? .null),
      ]
        + (drains.map {
          [
            ("last_drain_record", $0.last?.wireJSON ?? .null),
            ("last_answering_drain", $0.lastAnswering?.wireJSON ?? .null),
          ]
        } ?? []))
  }

  /// The status as aligned lines.
  static func render(_ s: Status, ascii: Bool, now: Date = Date(), drains: Drains? = nil) -> String {
    func v(_ text: String) -> String { Sanitizer.clean(text, ascii: ascii) }
    var lines: [(String, String)] = [("store", v(s.store)), ("kind", s.kind.description)]
    // The writer's record in the words every watcher uses (WriterText), after who holds the role.
    let said = s.writer.map { String(WriterText.line($0, now: now, ascii: ascii).dropFirst("writer: ".count)) }
    switch s.handle {
    case .writer where s.writer?.state == .gone:
      lines.append(("writer", (said ?? "gone") + "; this process could now take the role"))
    case .writer: lines.append(("writer", "free (this process could write)"))
    case .reader(let reason):
      lines.append(("writer", s.kind.isOwned ? "taken: \(v(reason))" : v(reason)))
      if let said, s.writer?.state == .live { lines.append(("writer says", said)) }
    }
    var fill = s.fill.rawValue
    if let reason = s.expiredReason, s.fill == .expired { fill += " (\(v(reason)))" }
    lines.append(("fill", fill))
    lines.append(("instance", s.instanceId.map(v) ?? "none yet"))
    if let origin = s.origin { lines.append(("origin", v(origin))) }
    if let cursor = s.cursor { lines.append(("cursor", v(cursor))) }
    let c = s.counts
    lines.append(("queue", "\(c.waiting) waiting, \(c.answered) answered, \(c.blocked) blocked, \(c.dead) dead"))
    // A drain that failed, was interrupted or was cut short keeps no report: the last drain is
    // then its history row, never an older drain's report.
    let newest = drains?.last
    let reportIsNewest = newest.map { [.finished, .unavailable, .stopped].contains($0.ending) } ?? true
    if let newest, !reportIsNewest {
      lines.append(("last drain", HistoryText.line(newest, ascii: ascii)))
    } else if let d = s.lastDrain {
      // The same words as `watch --plain`'s line for that drain's end (DrainReportText).
      var text = DrainReportText.counts(d, ascii: ascii)
      if let at = s.lastDrainAt { text = "\(v(at)): " + text }
      lines.append(("last drain", text))
    } else if s.kind.isOwned {
      lines.append(("last drain", "never"))
    } else {
      lines.append(("last drain", "not kept by this store (the Marfa core keeps no drain report)"))
    }
    if let drains, let last = drains.last {
      if reportIsNewest { lines.append(("drain history", HistoryText.line(last, ascii: ascii))) }
      if let answering = drains.lastAnswering, answering.number != last.number {
        lines.append(("last answering", HistoryText.line(answering, ascii: ascii)))
      } else if drains.lastAnswering != nil {
        lines.append(("last answering", "the same drain (#\(last.number))"))
      } else {
        lines.append(("last answering", "none of the kept drains answered a write"))
      }
    }
    // A path, an origin or a cursor is shown whole up to PATH_MAX; only a hostile store's goes past.
    var table = TextTable(headers: ["", ""], cellLimit: 4096, lastCellLimit: 4096, ascii: ascii)
    table.rows = lines.map { [$0.0, $0.1] }
    return table.render().split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n")
  }
}
