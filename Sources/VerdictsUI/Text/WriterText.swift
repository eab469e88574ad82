import FoundationEssentials
import MarfaQueue

/// The writer's published record in words, for the status line and `watch --plain`:
/// `writer: verdicts tui (pid 4211) · auto-drain on · draining 154 of 300 · 212/s · about 1 s left`,
/// `writer: none since 09:40:46 (3 min ago)`,
/// `writer: gone — pid 4211 ended without closing (last seen 12 s ago)`.
public enum WriterText {
  /// The writer's record in one line as `status` and `watch --plain` say it (parts joined by
  /// ` · `, or ` | ` and ASCII only with `ascii`).
  public static func line(_ record: WriterRecord?, now: Date, lastAlive: Date? = nil, ascii: Bool = false) -> String {
    let text = parts(record, now: now, lastAlive: lastAlive, ascii: ascii).map(\.text).joined(
      separator: ascii ? " | " : " · ")
    return ascii ? String(text.unicodeScalars.map { $0.isASCII ? Character($0) : "?" }) : text
  }

  /// `HH:MM:SS` of an ISO-8601 time (the text itself when it has no time).
  static func clock(iso: String) -> String {
    guard let t = iso.firstIndex(of: "T") else { return iso }
    return String(iso[iso.index(after: t)...].prefix(8))
  }

  /// One part of the line, and whether it is bad news (drawn as an error).
  struct Part: Sendable, Hashable {
    var text: String
    var isError = false
  }

  /// The parts, in order; `lastAlive` is when this watcher last saw the writer live (the record's
  /// own last write when later or unknown). Every time-told part (stalled, silent) is judged
  /// against `now`.
  static func parts(_ record: WriterRecord?, now: Date, lastAlive: Date? = nil, ascii: Bool = false) -> [Part] {
    guard let r = record else { return [Part(text: "writer: none")] }
    switch r.state {
    case .closed:
      let at = r.closedAt ?? r.updatedAt
      return [Part(text: "writer: none since \(clock(at)) (\(ago(at, now: now)))")]
    case .gone:
      // `last seen`: the writer's last heartbeat or record write, or this watcher's last sight of it live.
      let seen = max(r.updatedAt, lastAlive ?? r.updatedAt)
      let dash = ascii ? "--" : "—"
      let who = r.pid > 0 ? "pid \(r.pid)" : "the writer"
      guard let d = r.drain else {
        return [
          Part(
            text: "writer: gone \(dash) \(who) ended without closing (last seen \(ago(seen, now: now)))", isError: true)
        ]
      }
      return [
        Part(text: "writer: gone \(dash) \(who) \(diedDuring(d))", isError: true),
        Part(text: "last seen \(ago(seen, now: now))"),
      ]
    case .live:
      var parts: [Part] = []
      if r.unpublished {
        // The role is held and its holder has not said who it is yet (it took the role a moment
        // ago, or it is of a build that publishes nothing): the kernel's name for it.
        let name = r.program.isEmpty ? "" : Sanitizer.clean(r.program) + " "
        parts.append(Part(text: r.pid > 0 ? "writer: \(name)(pid \(r.pid))" : "writer: another process"))
        parts.append(Part(text: "no record yet"))
        return parts
      }
      parts.append(Part(text: "writer: \(Sanitizer.clean(r.program)) \(Sanitizer.clean(r.mode)) (pid \(r.pid))"))
      parts.append(Part(text: "auto-drain " + (r.autoDrain ? "on" : "off")))
      if r.keyRefused { parts.append(Part(text: "key refused", isError: true)) }
      if let c = r.instance { parts += instance(c, now: now) }
      if let d = r.drain {
        if r.stalled(now: now) {
          parts.append(Part(text: stalled(d, now: now), isError: true))
        } else {
          parts += progress(d, now: now)
        }
      }
      if r.silent(now: now) {
        parts.append(
          Part(text: "silent: no heartbeat since \(clock(r.updatedAt)) (\(ago(r.updatedAt, now: now)))", isError: true))
      }
      return parts
    }
  }

  /// `died during a drain (100 of 301 sent, begun 00:05:41)`.
  static func diedDuring(_ d: WriterRecord.DrainProgress) -> String {
    "died during a drain (\(d.sent) of \(d.total) sent, begun \(clock(d.startedAt)))"
  }

  /// `stalled: no progress for 45 s (81 of 500 sent, last at 00:05:41)`.
  static func stalled(_ d: WriterRecord.DrainProgress, now: Date) -> String {
    let moved = d.movedAt ?? d.startedAt
    return
      "stalled: no progress for \(duration(now.timeIntervalSince(moved))) (\(d.sent) of \(d.total) sent, last at \(clock(moved)))"
  }

  /// `instance reachable`, or `instance unreachable since 00:13:27: <what it met>` and
  /// `next try 00:13:43`, as the writer published them (its text through the Sanitizer).
  static func instance(_ c: WriterRecord.InstanceContact, now: Date) -> [Part] {
    guard !c.reachable else { return [Part(text: "instance reachable")] }
    let met = c.met.map { ": " + Sanitizer.clean(String($0.prefix(160))) } ?? ""
    var parts = [Part(text: "instance unreachable since \(clock(c.since))\(met)", isError: true)]
    if let next = c.nextTry { parts.append(Part(text: next > now ? "next try \(clock(next))" : "next try due")) }
    return parts
  }

  /// `draining 154 of 300 · 212/s · about 1 s left`.
  static func progress(_ d: WriterRecord.DrainProgress, now: Date) -> [Part] {
    var parts = [Part(text: "draining \(d.sent) of \(d.total)")]
    if let rate = d.rate(now: now) {
      parts.append(Part(text: rate >= 10 ? "\(Int(rate.rounded()))/s" : rate.fixed(1) + "/s"))
      if let left = d.secondsLeft(now: now) { parts.append(Part(text: "about \(duration(left)) left")) }
    }
    return parts
  }

  /// `store removed at 09:41:02 (shown as it was; watch again to read a new one)`; nil while the
  /// file is the one opened.
  static func storeFile(_ state: StoreFileState, at: Date?, following: Bool = false) -> String? {
    let when = at.map { " at \(clock($0))" } ?? ""
    if following {
      // A watcher reads the new file as soon as one is there (``AppCore/watchWriter(_:)``).
      switch state {
      case .same: return nil
      case .removed: return "store removed\(when); waiting for it"
      case .replaced: return "store replaced\(when); reading the new one"
      }
    }
    switch state {
    case .same: return nil
    case .removed: return "store removed\(when) (shown as it was; watch again once it is back)"
    case .replaced: return "store replaced\(when) (shown as it was; watch again to read the new one)"
    }
  }

  /// `1 s`, `3 min`, `2 h`.
  static func duration(_ seconds: Double) -> String {
    // A rate from a damaged or far-off start can make any number of seconds; past a million
    // years it is said as that many (an Int conversion of a larger double would trap).
    let s = seconds.isFinite ? Int(min(max(seconds.rounded(.up), 0), 3e13)) : 0
    if s < 60 { return "\(s) s" }
    if s < 3600 { return "\((s + 30) / 60) min" }
    if s < 86_400 { return "\((s + 1800) / 3600) h" }
    return "\(s / 86_400) d"
  }

  /// `12 s ago`, `3 min ago`; `just now` under a second.
  static func ago(_ date: Date, now: Date) -> String {
    let s = now.timeIntervalSince(date)
    if !(s >= 1) { return "just now" }
    let whole = Int(min(s, 3e13))
    if whole < 60 { return "\(whole) s ago" }
    if whole < 3600 { return "\(whole / 60) min ago" }
    if whole < 86_400 { return "\(whole / 3600) h ago" }
    return "\(whole / 86_400) d ago"
  }

  /// `HH:MM:SS` in UTC, as the store's times are shown.
  static func clock(_ date: Date) -> String {
    let text = Timestamp.text(date)
    guard let t = text.firstIndex(of: "T") else { return text }
    return String(text[text.index(after: t)...].prefix(8))
  }

  /// What a `watch --plain` line is said for: the writer came or went, started or ended a drain,
  /// turned auto-drain on or off, had its key refused, met its instance reachable or not (not
  /// each next try), stalled or fell silent (as of `now`), not each step of a drain's progress.
  static func phase(_ r: WriterRecord?, now: Date = Date()) -> String {
    guard let r else { return "none" }
    let times = [r.startedAt, r.drain?.startedAt, r.lastDrain?.endedAt].map {
      $0.map { "\($0.timeIntervalSince1970)" } ?? "-"
    }
    let contact = r.instance.map { c in c.reachable ? "reachable" : "unreachable \(c.met ?? "")" } ?? "-"
    return "\(r.state.rawValue) \(r.pid) \(r.unpublished) \(r.autoDrain) \(r.keyRefused) \(r.stalled(now: now))"
      + " \(r.silent(now: now)) \(contact) " + times.joined(separator: " ")
  }
}
