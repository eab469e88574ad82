import MarfaQueue

/// A drain report in words, the same for `drain`, `status`, `watch --plain` and the TUI's message:
/// `answered 4, held 0, undelivered 301, unsent 0, unmade 0; unavailable: the instance answered 500`.
public enum DrainReportText {
  /// The five counts and why the pass ended (its `unavailable`, `stopped`, `retry after`), the
  /// instance's text through the Sanitizer.
  public static func counts(_ d: DrainReport, ascii: Bool = false) -> String {
    func v(_ text: String) -> String { Sanitizer.clean(text, ascii: ascii) }
    var text =
      "answered \(d.answered), held \(d.held), undelivered \(d.undelivered), unsent \(d.unsent), unmade \(d.unmade)"
    if let u = d.unavailable { text += "; unavailable: \(v(u))" }
    if let stopped = d.stopped { text += "; stopped: \(v(stopped))" }
    if let r = d.retryAfterSeconds { text += "; retry after \(r) s" }
    return text
  }

  /// A drain of the store's history in the same words: the five counts, then how it ended
  /// unless it finished (`; failed: the store's disk is full: …`, `; interrupted: stopped by SIGINT (Ctrl-C)`).
  public static func counts(_ d: DrainRecord, ascii: Bool = false) -> String {
    var text =
      "answered \(d.answered), held \(d.held), undelivered \(d.undelivered), unsent \(d.unsent), unmade \(d.unmade)"
    if d.ending != .finished {
      text += "; " + (d.ending == .cutShort ? "cut short" : d.ending.rawValue)
      if let why = d.why, !why.isEmpty { text += ": " + Sanitizer.clean(why, ascii: ascii) }
    }
    if let r = d.retryAfterSeconds { text += "; retry after \(r) s" }
    return text
  }

  /// `watch --plain`'s line for a drain of the store's history that ended, in the shape of the
  /// report's: `drain ended 00:04:51: answered 52, …; interrupted: stopped by SIGINT (Ctrl-C)`.
  public static func endLine(_ d: DrainRecord, ascii: Bool = false) -> String {
    let when = d.endedAt.map { " " + WriterText.clock($0) } ?? ""
    return "drain ended\(when): " + counts(d, ascii: ascii)
  }

  /// `watch --plain`'s line for a drain that ended: `drain ended 00:04:51: answered 4, …`.
  public static func endLine(_ d: DrainReport, at: String?, ascii: Bool = false) -> String {
    let when = at.map { " " + WriterText.clock(iso: $0) } ?? ""
    return "drain ended\(when): " + counts(d, ascii: ascii)
  }
}
