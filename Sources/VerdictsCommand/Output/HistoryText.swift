import FoundationEssentials
import MarfaQueue

/// The `history` command's text: one line per kept drain, newest first, and the words `status`
/// uses for one drain.
enum HistoryText {
  /// The drains as an aligned table.
  static func render(_ drains: [DrainRecord], ascii: Bool) -> String {
    var table = TextTable(
      headers: [
        "#", "STARTED", "TOOK", "BY", "ANSWERED", "HELD", "UNDELIVERED", "UNSENT", "UNMADE", "VERDICTS", "W/S", "ENDED",
      ])
    table.ascii = ascii
    for d in drains {
      table.rows.append([
        String(d.number), Timestamp.text(d.startedAt), took(d), who(d, ascii: ascii), String(d.answered),
        String(d.held),
        String(d.undelivered), String(d.unsent), String(d.unmade), verdicts(d), d.writesPerSecond?.fixed(1) ?? "",
        ending(d, ascii: ascii),
      ])
    }
    return table.render()
  }

  /// How long it ran: `1.2 s`, `45 ms` under a second, or `-` without an end.
  static func took(_ d: DrainRecord) -> String {
    guard let end = d.endedAt else { return "-" }
    let seconds = max(0, end.timeIntervalSince(d.startedAt))
    return seconds < 1 ? "\(Int(seconds * 1000)) ms" : seconds.fixed(1) + " s"
  }

  /// Who ran it: `verdicts drain pid 4242 on host`, as its writer's record named it.
  static func who(_ d: DrainRecord, ascii: Bool) -> String {
    var parts = [d.program.isEmpty ? "?" : d.program]
    if !d.mode.isEmpty { parts.append(d.mode) }
    if d.pid > 0 { parts.append("pid \(d.pid)") }
    if !d.host.isEmpty { parts.append("on \(d.host)") }
    return Sanitizer.clean(parts.joined(separator: " "), ascii: ascii)
  }

  /// The verdict counts: `accepted 3, refused 1`.
  static func verdicts(_ d: DrainRecord) -> String {
    d.verdicts.sorted { $0.key < $1.key }.filter { $0.value > 0 }.map { "\($0.key) \($0.value)" }
      .joined(separator: ", ")
  }

  /// Why it ended: `finished`, `unavailable: …`, `stopped: …`, `failed: …`, with the retry-after.
  static func ending(_ d: DrainRecord, ascii: Bool) -> String {
    var text: String
    switch d.ending {
    case .open: text = d.endedAt == nil ? "running" : "open"
    case .cutShort:
      let process = d.pid > 0 ? "its process (pid \(d.pid))" : "its process"
      text = "cut short: \(process) ended first (killed, crashed or the machine stopped); counts to its last commit"
    default: text = d.ending.rawValue
    }
    if let why = d.why, !why.isEmpty { text += ": " + Sanitizer.clean(why, ascii: ascii) }
    if let wait = d.retryAfterSeconds { text += " (retry after \(wait) s)" }
    return text
  }

  /// One drain in a line, as `status` names it.
  static func line(_ d: DrainRecord, ascii: Bool) -> String {
    "#\(d.number) at \(Timestamp.text(d.startedAt)) by \(who(d, ascii: ascii)): answered \(d.answered), held \(d.held), "
      + "undelivered \(d.undelivered), unsent \(d.unsent), unmade \(d.unmade); \(ending(d, ascii: ascii))"
  }
}
