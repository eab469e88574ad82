import FoundationEssentials
import MarfaQueue

/// What `verdicts metrics` says of a store, gathered once (``CommandRunner/metrics()``), and its
/// Prometheus text exposition (format 0.0.4, what node_exporter's textfile collector reads).
/// Every series is named and explained in docs/monitoring.md.
struct MetricsFigures: Sendable {
  /// Writes per pane.
  var counts = QueueCounts()
  /// Blocked writes per reason (a reason holding none is absent here, 0 in the exposition).
  var blocked: [BlockedReason: Int] = [:]
  /// Answered writes the instance refused.
  var refused = 0
  /// When the write longest in each pane entered it (absent: an empty pane).
  var oldest: [QueuePane: Date] = [:]
  /// The longest environmental streak among the waiting writes.
  var largestStreak = 0
  /// The newest drain's number: how many drains the store has begun.
  var drainsBegun = 0
  /// The kept drains (the last ``DrainRecord/kept``) by how each ended.
  var keptDrains: [DrainRecord.Ending: Int] = [:]
  /// How the newest kept drain ended (``DrainRecord/Ending/open``: it runs now).
  var lastEnding: DrainRecord.Ending?
  /// When the newest drain that ended, ended.
  var lastDrainEnd: Date?
  /// The copy's fill.
  var fill: FillState = .never
  /// Whether a live process holds the writer role.
  var writerUp = false
  /// When the writer last wrote its record (its heartbeat), when one was published.
  var writerUpdated: Date?
  /// What the writer last met of the instance, when it met it.
  var instance: WriterRecord.InstanceContact?
  /// When this exposition was made.
  var generated = Date()
}

/// The Prometheus text exposition of ``MetricsFigures``.
enum MetricsText {
  /// The media type node_exporter and Prometheus read this text as.
  static let contentType = "text/plain; version=0.0.4"

  /// The whole exposition: `# HELP` and `# TYPE` before each family, its samples together.
  static func exposition(_ f: MetricsFigures) -> String {
    var out = Exposition()
    out.family(
      "verdicts_writes", .gauge, "Writes the queue holds, by pane (waiting, answered, blocked, dead).",
      QueuePane.allCases.map { ([("pane", $0.name)], .int(f.counts[$0])) })
    out.family(
      "verdicts_blocked_writes", .gauge, "Blocked writes, by reason; every reason always present (0 when none).",
      BlockedReason.allCases.map { ([("reason", $0.wireName)], .int(f.blocked[$0] ?? 0)) })
    out.family(
      "verdicts_refused_writes", .gauge, "Answered writes the instance refused (they stay until discarded).",
      [([], .int(f.refused))])
    out.family(
      "verdicts_oldest_write_timestamp_seconds", .gauge,
      "When the write longest in each pane entered it (queued: waiting; its verdict: the others); "
        + "absent for an empty pane.",
      QueuePane.allCases.compactMap { pane in f.oldest[pane].map { ([("pane", pane.name)], .time($0)) } })
    out.family(
      "verdicts_largest_streak", .gauge,
      "The longest run of drains in a row that met an environmental failure, among the waiting writes.",
      [([], .int(f.largestStreak))])
    out.family(
      "verdicts_drains_total", .counter, "Drains begun on this store since it was made.",
      [([], .int(f.drainsBegun))])
    out.family(
      "verdicts_kept_drains", .gauge,
      "The drains the store keeps (its last \(DrainRecord.kept)), by how each ended (open: running now).",
      DrainRecord.Ending.allCases.map { ([("ending", $0.rawValue)], .int(f.keptDrains[$0] ?? 0)) })
    out.family(
      "verdicts_last_drain_ending", .gauge,
      "1 for how the newest kept drain ended (open: running now), 0 for the others; absent before any drain.",
      f.lastEnding.map { last in
        DrainRecord.Ending.allCases.map { ([("ending", $0.rawValue)], .int($0 == last ? 1 : 0)) }
      } ?? [])
    out.family(
      "verdicts_last_drain_end_timestamp_seconds", .gauge, "When the newest drain that ended, ended.",
      f.lastDrainEnd.map { [([], .time($0))] } ?? [])
    out.family(
      "verdicts_fill", .gauge, "1 for the copy's fill state (never, underway, complete, expired), 0 for the others.",
      [FillState.never, .underway, .complete, .expired].map {
        ([("state", $0.rawValue)], .int($0 == f.fill ? 1 : 0))
      })
    out.family(
      "verdicts_writer_up", .gauge, "1 when a live process holds the store's writer role, else 0.",
      [([], .int(f.writerUp ? 1 : 0))])
    out.family(
      "verdicts_writer_updated_timestamp_seconds", .gauge,
      "When the writer last wrote its record (a live writer does at least every 60 s); absent when none was published.",
      f.writerUpdated.map { [([], .time($0))] } ?? [])
    out.family(
      "verdicts_instance_reachable", .gauge,
      "1 when the instance answered the writer's last look, 0 when it did not; absent when no writer met it.",
      f.instance.map { [([], .int($0.reachable ? 1 : 0))] } ?? [])
    out.family(
      "verdicts_instance_reachable_changed_timestamp_seconds", .gauge,
      "Since when the instance has been reachable or not, as the writer last met it.",
      f.instance.map { [([], .time($0.since))] } ?? [])
    out.family(
      "verdicts_metrics_generated_timestamp_seconds", .gauge, "When this text was made (a stale textfile shows here).",
      [([], .time(f.generated))])
    return out.text
  }

  /// A label value as the format takes it: a backslash, a double quote and a line feed escaped.
  static func escapedLabel(_ value: String) -> String {
    var out = ""
    out.reserveCapacity(value.utf8.count)
    for c in value.unicodeScalars {
      switch c {
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      case "\n": out += "\\n"
      default: out.unicodeScalars.append(c)
      }
    }
    return out
  }

  /// `# HELP` text as the format takes it: a backslash and a line feed escaped.
  static func escapedHelp(_ text: String) -> String {
    var out = ""
    for c in text.unicodeScalars {
      switch c {
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      default: out.unicodeScalars.append(c)
      }
    }
    return out
  }

  /// One sample's value.
  enum Value {
    case int(Int)
    /// A time, as seconds since 1970 with its milliseconds.
    case time(Date)

    var text: String {
      switch self {
      case .int(let n): return String(n)
      case .time(let date): return date.timeIntervalSince1970.fixed(3)
      }
    }
  }

  /// A metric family's type, as its `# TYPE` line says it.
  enum Kind: String {
    case gauge, counter
  }

  /// The text being written, one family at a time.
  struct Exposition {
    var text = ""

    /// Writes a family: its help and type, then each sample (none: the family is left out whole).
    mutating func family(_ name: String, _ kind: Kind, _ help: String, _ samples: [([(String, String)], Value)]) {
      guard !samples.isEmpty else { return }
      text += "# HELP \(name) \(MetricsText.escapedHelp(help))\n# TYPE \(name) \(kind.rawValue)\n"
      for (labels, value) in samples {
        text += name
        if !labels.isEmpty {
          text += "{" + labels.map { "\($0.0)=\"\(MetricsText.escapedLabel($0.1))\"" }.joined(separator: ",") + "}"
        }
        text += " \(value.text)\n"
      }
    }
  }
}
