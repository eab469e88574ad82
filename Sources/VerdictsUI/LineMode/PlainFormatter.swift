import FoundationEssentials
import MarfaQueue

/// One line per write for `watch --plain` and `demo --plain`:
/// `time id kind rows verdict reason streak status text`, sanitized, `-` for an empty field.
public enum PlainFormatter {
  /// The column names, for a header line.
  public static let header = "time id kind rows verdict reason streak status text"

  /// One write as a line; `time` is printed as given (pass a fixed one in tests); with `ascii`,
  /// in ASCII only.
  ///
  /// With `keepsFailures` false (a store that keeps no environmental failures, the Marfa core's),
  /// the streak reads `not-kept`, never a count.
  public static func line(_ w: QueuedWrite, time: String, ascii: Bool = false, keepsFailures: Bool = true) -> String {
    let verdict: String
    var reason = "-"
    switch w.verdict {
    // The one word every view gives: queued, sent, undelivered or waiting.
    case nil: verdict = w.stateWord
    case .blocked(let r, _):
      verdict = "blocked"
      reason = r.wireName
    case .refused(let r):
      verdict = "refused"
      reason = r.reason
    case let v?: verdict = v.wireName
    }
    if w.verdict == nil, w.waiting, let on = w.follows ?? w.dependsOn.first { reason = "awaiting:" + on }
    // A refusal's field errors follow its message, as the detail lists them.
    let fieldErrors = (w.verdict?.refusal?.fields ?? []).map { f in
      f.message.isEmpty ? f.field : "\(f.field): \(f.message)"
    }
    let refusal = w.verdict?.refusal.flatMap { r -> String? in
      guard !fieldErrors.isEmpty else { return r.message }
      return (r.message.map { $0 + " " } ?? "") + "(" + fieldErrors.joined(separator: "; ") + ")"
    }
    let text = (w.lastFailure?.text ?? refusal).map { bounded($0) }
    let fields = [
      time, w.id, w.kindName, rows(w), verdict, reason, keepsFailures ? String(w.environmentalStreak) : "not-kept",
      w.lastFailure?.status.map(String.init) ?? "-", text.map(quoted) ?? "-",
    ]
    return fields.map { Sanitizer.clean($0.isEmpty ? "-" : $0, ascii: ascii) }.joined(separator: " ")
  }

  /// The most characters of a failure's text or a refusal's message on one line.
  public static let textLimit = 300

  /// Text cut to ``textLimit`` characters, saying how long it was.
  static func bounded(_ text: String) -> String {
    let scalars = text.unicodeScalars
    guard scalars.count > textLimit else { return text }
    return String(String.UnicodeScalarView(scalars.prefix(textLimit))) + "… (\(scalars.count) characters)"
  }

  /// A write that left the queue (taken, forgotten, withdrawn, discarded).
  ///
  /// With the archive's record of it: its kind, rows and reason as its last line had them, the
  /// verdict column saying how it left (`withdrawn`, `discarded`, `forgotten`) and the text who
  /// took it out (`"by verdicts discard pid 4211 on dev"`); without one, only that it is gone.
  public static func gone(_ id: String, time: String, ascii: Bool = false, departed: DepartedWrite? = nil) -> String {
    guard let d = departed else {
      return "\(Sanitizer.clean(time, ascii: ascii)) \(Sanitizer.clean(id, ascii: ascii)) - - gone - - - -"
    }
    let w = d.write
    var reason = "-"
    switch w.verdict {
    case .blocked(let r, _): reason = r.wireName
    case .refused(let r): reason = r.reason
    case let v?: reason = v.wireName
    case nil: reason = w.stateWord
    }
    var who = [d.program, d.mode].compactMap { $0 }.filter { !$0.isEmpty }
    if let pid = d.pid, pid > 0 { who.append("pid \(pid)") }
    if let host = d.host, !host.isEmpty { who.append("on \(host)") }
    let text = who.isEmpty ? "-" : quoted("by " + who.joined(separator: " "))
    let fields = [time, id, w.kindName, rows(w), d.departure.rawValue, reason, "-", "-", text]
    return fields.map { Sanitizer.clean($0.isEmpty ? "-" : $0, ascii: ascii) }.joined(separator: " ")
  }

  /// The rows without spaces: `item`, `item->target`, `edge:e1`, `#tag`, `ns:x`.
  static func rows(_ w: QueuedWrite) -> String {
    let parts = w.rowNames.map { name in
      switch name {
      case .edge(let id): return "edge:" + id
      case .item(let id, let target): return target.map { "\(id)->\($0)" } ?? id
      case .namespace(let n): return "ns:" + n
      case .tag(let t): return "#" + t
      case .blob(let b): return "blob:" + b
      }
    }
    guard !parts.isEmpty else { return "-" }
    let joined = parts.joined(separator: ",")
    // Foundation's replacingOccurrences costs more than the rest of the line: only when needed.
    return joined.utf8.contains(UInt8(ascii: " ")) ? joined.replacing(" ", with: "_") : joined
  }

  /// Text in double quotes, with `"` and `\` escaped, on one line.
  static func quoted(_ s: String) -> String {
    guard s.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") }) else {
      return "\"" + s + "\""
    }
    return "\"" + s.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
  }
}
