import FoundationEssentials
import MarfaQueue

/// The `history` command's text: one line per kept drain, newest first, and the words `status`
/// uses for one drain.
enum HistoryText {
  /// The drains one short line each, how each ended right after its time so a narrow terminal
  /// keeps it, the counts, then why: `#14  11-30 00:53:20  2.0 s  unavailable  3 answered, 30
  /// undelivered · the instance answered 502 …`. With `width` (a terminal's), each line is cut
  /// to it, ending in `…`; without, it is whole (a pipe, a file).
  static func renderNarrow(_ drains: [DrainRecord], width: Int?, ascii: Bool) -> String {
    let numbers = drains.map { "#\($0.number)" }
    let numberWidth = numbers.map(\.count).max() ?? 0
    let tooks = drains.map(took)
    let tookWidth = tooks.map(\.count).max() ?? 0
    let words = drains.map(endingWord)
    let wordWidth = words.map(\.count).max() ?? 0
    let sep = ascii ? " | " : " · "
    var lines: [String] = []
    for (i, d) in drains.enumerated() {
      let when = String(Timestamp.text(d.startedAt).dropFirst(5).prefix(14)).replacing("T", with: " ")
      var counts = ["\(d.answered) answered"]
      for (n, word) in [(d.held, "held"), (d.undelivered, "undelivered"), (d.unsent, "unsent"), (d.unmade, "unmade")]
      where n > 0 {
        counts.append("\(n) \(word)")
      }
      var line =
        pad(numbers[i], numberWidth) + "  " + when + "  " + pad(tooks[i], tookWidth) + "  " + pad(words[i], wordWidth)
        + "  " + counts.joined(separator: ", ")
      if let why = d.why, !why.isEmpty { line += sep + Sanitizer.clean(why, ascii: ascii) }
      if d.ending == .cutShort { line += sep + "its process\(d.pid > 0 ? " (pid \(d.pid))" : "") ended first" }
      if let wait = d.retryAfterSeconds { line += sep + "retry after \(wait) s" }
      lines.append(width.map { Self.cut(line, to: $0, ascii: ascii) } ?? line)
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// How a drain ended, in a word or two: `finished`, `interrupted`, `cut short`, `running`, ….
  static func endingWord(_ d: DrainRecord) -> String {
    switch d.ending {
    case .open: return d.endedAt == nil ? "running" : "open"
    case .cutShort: return "cut short"
    default: return d.ending.rawValue
    }
  }

  /// Text padded with spaces to `width` characters.
  static func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }

  /// A line cut to `width` characters, its end marked.
  static func cut(_ line: String, to width: Int, ascii: Bool) -> String {
    guard line.count > width, width > 1 else { return line }
    return String(line.prefix(width - 1)) + (ascii ? ">" : "…")
  }

  /// The drains as an aligned table (`history --wide`).
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
