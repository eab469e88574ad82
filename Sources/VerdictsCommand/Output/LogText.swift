import FoundationEssentials
import MarfaQueue
import MarfaWire

/// `verdicts log`: the story of a store, newest first, a line each: the drains (the history),
/// the writes taken out (the archive, one line for each action: a take of 19,996 is one line)
/// and the events beside them (releases, undos, keys given, fills, the instance changing).
enum LogText {
  /// One entry of the log.
  struct Entry {
    var at: Date
    var text: String
    var json: JSONValue
  }

  /// The entries of the three sources, newest first, at most `limit`.
  static func entries(drains: [DrainRecord], departed: [DepartedWrite], events: [QueueEvent], limit: Int, ascii: Bool)
    -> [Entry]
  {
    var all: [Entry] = []
    for d in drains {
      all.append(
        Entry(
          at: d.endedAt ?? d.startedAt,
          text: "drain \(HistoryText.line(d, ascii: ascii))",
          json: .object([("at", .string(Timestamp.text(d.endedAt ?? d.startedAt))), ("drain", d.wireJSON)])))
    }
    // One action that took writes out: one departure, one process, within a second.
    var groups: [(first: DepartedWrite, ids: [String])] = []
    for w in departed {
      if let last = groups.last, last.first.departure == w.departure, last.first.pid == w.pid,
        last.first.host == w.host, abs(last.first.departedAt.timeIntervalSince(w.departedAt)) < 1
      {
        groups[groups.count - 1].ids.append(w.write.id)
      } else {
        groups.append((w, [w.write.id]))
      }
    }
    for g in groups {
      let who = by(program: g.first.program, mode: g.first.mode, pid: g.first.pid, host: g.first.host, ascii: ascii)
      let shown = g.ids.prefix(3).map { Sanitizer.clean($0, ascii: ascii) }.joined(separator: " ")
      let more = g.ids.count > 3 ? " and \(g.ids.count - 3) more" : ""
      all.append(
        Entry(
          at: g.first.departedAt,
          text: "\(g.first.departure.rawValue) \(g.ids.count) (\(shown)\(more))\(who)",
          json: .object([
            ("at", .string(Timestamp.text(g.first.departedAt))), ("departure", .string(g.first.departure.rawValue)),
            ("count", .int(g.ids.count)), ("ids", .array(g.ids.map(JSONValue.string))),
          ])))
    }
    for e in events {
      all.append(Entry(at: e.at, text: words(e, ascii: ascii), json: json(e)))
    }
    return Array(all.sorted { $0.at > $1.at }.prefix(limit))
  }

  /// The log as text: `2026-12-08T00:51:02.120Z  release 15002 blocked credential_refused by …`.
  static func render(_ entries: [Entry]) -> String {
    entries.map { "\(Timestamp.text($0.at))  \($0.text)\n" }.joined()
  }

  /// An event in words.
  static func words(_ e: QueueEvent, ascii: Bool) -> String {
    let who = by(program: e.program, mode: e.mode, pid: e.pid, host: e.host, ascii: ascii)
    let n = e.count ?? 0
    let detail = e.detail.map { Sanitizer.clean($0, ascii: ascii) }
    switch e.kind {
    case .release:
      return "release \(n)" + (e.reason.map { " blocked \(Sanitizer.clean($0, ascii: ascii))" } ?? "") + who
    case .undo: return "undo of \(n) \(detail ?? "departed")" + who
    case .undoRelease:
      return "undo of a release: \(n) laid back as they were" + (detail.map { " (\($0))" } ?? "") + who
    case .keyChanged: return "another key given (no key is kept)" + who
    case .filled: return "filled from instance \(detail ?? "?")" + who
    case .instanceChanged: return detail ?? "the instance changed"
    }
  }

  static func json(_ e: QueueEvent) -> JSONValue {
    var members: [(String, JSONValue)] = [("at", .string(Timestamp.text(e.at))), ("event", .string(e.kind.rawValue))]
    if let c = e.count { members.append(("count", .int(c))) }
    if let r = e.reason { members.append(("reason", .string(r))) }
    if let d = e.detail { members.append(("detail", .string(d))) }
    if let p = e.program { members.append(("program", .string(p))) }
    if let m = e.mode { members.append(("mode", .string(m))) }
    if let p = e.pid { members.append(("pid", .int(p))) }
    if let h = e.host { members.append(("host", .string(h))) }
    return .object(members)
  }

  /// ` by verdicts tui pid 42 on dev`, or nothing when nobody is kept.
  static func by(program: String?, mode: String?, pid: Int?, host: String?, ascii: Bool) -> String {
    var parts: [String] = []
    if let program, !program.isEmpty { parts.append(program) }
    if let mode, !mode.isEmpty { parts.append(mode) }
    if let pid, pid > 0 { parts.append("pid \(pid)") }
    if let host, !host.isEmpty { parts.append("on \(host)") }
    return parts.isEmpty ? "" : " by " + Sanitizer.clean(parts.joined(separator: " "), ascii: ascii)
  }
}
