import FoundationEssentials
import MarfaQueue
import MarfaWire

/// One device of `verdicts fleet` as last read: its link, its store's status and blocked counts
/// (docs/fleet.md). A value: the monitor makes new ones, the screen and `--plain` show them.
package struct FleetRow: Sendable, Hashable {
  /// Whether the device answers.
  package enum Link: Sendable, Hashable {
    /// Not reached yet (the first connection is being made).
    case connecting
    /// It answered the last call.
    case up
    /// Unreachable since `since`: the connection failed, the link was lost, or a call went
    /// unanswered; `why` in one line (already made safe for a terminal).
    case down(since: Date, why: String)
  }

  /// The host as the person named it (`d1`, `d1:/var/lib/x.db`, `ssh://…`).
  package var host: String
  /// The link as last met.
  package var link: Link = .connecting
  /// The store's status as last read (kept while the link is down: what it last said).
  package var status: Status?
  /// Blocked writes by reason as last read.
  package var blocked: [BlockedReason: Int] = [:]

  /// A row for `host`, not reached yet.
  package init(host: String) { self.host = host }

  /// Whether the device is unreachable now.
  package var isDown: Bool {
    if case .down = link { return true }
    return false
  }

  /// What is wrong with the device, worst first (the screen's sort, ``FleetTrouble``).
  package func trouble(now: Date) -> FleetTrouble {
    if isDown { return .unreachable }
    guard let s = status else { return .connecting }
    if s.counts.waiting > 0, let w = s.writer {
      if w.state == .gone { return .writerGone }
      if w.state == .live && (w.stalled(now: now) || w.silent(now: now)) { return .writerStalled }
    }
    if let c = s.writer?.instance, !c.reachable, s.writer?.state == .live { return .instanceDown }
    if s.counts.dead > 0 { return .dead }
    if s.counts.blocked > 0 { return .blocked }
    if s.counts.waiting > 0 { return .waiting }
    return .fine
  }

  // MARK: - Words

  /// `reachable`, `connecting`, `unreachable since 09:40:02`.
  package var linkText: String {
    switch link {
    case .connecting: return "connecting"
    case .up: return "reachable"
    case .down(let since, _): return "unreachable since \(WriterText.clock(since))"
    }
  }

  /// Why the device is unreachable, nil when it is not.
  package var downReason: String? {
    if case .down(_, let why) = link { return why }
    return nil
  }

  /// The store's fill (`complete`, `never`, `underway`, `expired`), `-` before the first read.
  package var storeText: String { status.map { $0.fill.rawValue } ?? "-" }

  /// The writer in a few words: `none`, `verdicts tui idle`, `drain 154/300 212/s`,
  /// `stalled 45 s`, `silent`, `gone (pid 4211)`; `plain`: no rate, and a stall's start as a
  /// clock time (`stalled since 09:40:02`), so the words change only when the writer does.
  package func writerText(now: Date, short: Bool = false, plain: Bool = false) -> String {
    guard let w = status?.writer else { return status == nil ? "-" : "none" }
    switch w.state {
    case .closed: return "none"
    case .gone: return short ? "gone" : (w.pid > 0 ? "gone (pid \(w.pid))" : "gone")
    case .live:
      let who = short ? Sanitizer.clean(w.mode) : Sanitizer.clean(w.program) + " " + Sanitizer.clean(w.mode)
      if let d = w.drain {
        let moved = d.movedAt ?? d.startedAt
        if w.stalled(now: now) {
          if plain { return "stalled since \(WriterText.clock(moved))" }
          return "stalled \(WriterText.duration(now.timeIntervalSince(moved)))"
        }
        var text = "\(short ? "" : who + " ")\(d.sent)/\(d.total)"
        if !plain, let rate = d.rate(now: now) {
          text += " " + (rate >= 10 ? "\(Int(rate.rounded()))" : rate.fixed(1)) + "/s"
        }
        return text
      }
      if w.silent(now: now) { return "silent" }
      return who + " idle"
    }
  }

  /// The instance as the writer last met it: `reachable`, `down since 09:40:02`, `-` when no
  /// writer said.
  package var instanceText: String {
    guard let c = status?.writer?.instance else { return "-" }
    return c.reachable ? "reachable" : "down since \(WriterText.clock(c.since))"
  }

  /// `0`, or `3: 2 key_spent, 1 credential_refused` (the reasons, most first) unless `short`.
  package func blockedText(short: Bool) -> String {
    guard let s = status else { return "-" }
    let n = s.counts.blocked
    guard n > 0, !short, !blocked.isEmpty else { return "\(n)" }
    let reasons = blocked.filter { $0.value > 0 }.sorted { ($1.value, $0.key.rawValue) < ($0.value, $1.key.rawValue) }
    return "\(n): " + reasons.map { "\($0.value) \($0.key.wireName)" }.joined(separator: ", ")
  }

  /// A count of the status, `-` before the first read.
  package func count(_ pane: QueuePane) -> String { status.map { "\($0.counts[pane])" } ?? "-" }

  /// How the last drain ended: `complete`, `undelivered`, `unavailable`, `stopped`; nil when none.
  package var lastDrainEnding: String? {
    guard let d = status?.lastDrain else { return nil }
    if d.stopped != nil { return "stopped" }
    if d.unavailable != nil { return "unavailable" }
    if d.undelivered > 0 { return "undelivered" }
    return "complete"
  }

  /// When the last drain ended, nil when none was kept.
  package var lastDrainDate: Date? { status?.lastDrainAt.flatMap(Timestamp.date) }

  /// `complete 09:40:02 (3 min ago)`, `none`; `short`: `3 min` (the age only).
  package func lastDrainText(now: Date, short: Bool) -> String {
    guard let ending = lastDrainEnding else { return status == nil ? "-" : "none" }
    guard let at = lastDrainDate else { return ending }
    let age = WriterText.ago(at, now: now)
    if short { return age.replacing(" ago", with: "") }
    return "\(ending) \(WriterText.clock(at)) (\(age))"
  }

  /// The words `/` matches besides the host: the trouble's word, the link, the fill, the writer's state.
  package func stateWords(now: Date) -> [String] {
    var words = [trouble(now: now).word, isDown ? "unreachable" : "reachable", storeText]
    if let w = status?.writer { words.append(w.state.rawValue) }
    return words
  }

  /// The row as `--plain` says it, with clock times and no ages (a line is printed when it changes):
  /// `d1: waiting · reachable · store complete · writer none · instance - · waiting 3 · answered 0 ·
  /// blocked 0 · dead 0 · last drain none`.
  package func plainLine(now: Date) -> String {
    var parts = [
      trouble(now: now).word, linkText + (downReason.map { " (\($0))" } ?? ""), "store " + storeText,
      "writer " + writerText(now: now, plain: true),
      "instance " + instanceText,
      "waiting " + count(.waiting), "answered " + count(.answered), "blocked " + blockedText(short: false),
      "dead " + count(.dead),
    ]
    if let ending = lastDrainEnding {
      parts.append("last drain " + ending + (lastDrainDate.map { " " + WriterText.clock($0) } ?? ""))
    } else {
      parts.append("last drain " + (status == nil ? "-" : "none"))
    }
    return Sanitizer.clean(host) + ": " + parts.joined(separator: " · ")
  }
}

/// What is wrong with a device, worst first: the fleet's sort key.
package enum FleetTrouble: Int, Sendable, Hashable, Comparable, CaseIterable {
  /// The link is down, or the device does not answer.
  case unreachable
  /// Not read yet.
  case connecting
  /// The writer's drain stopped moving (or its heartbeat stopped) while writes wait.
  case writerStalled
  /// The writer ended without closing while writes wait.
  case writerGone
  /// The writer last met its instance unreachable.
  case instanceDown
  /// Dead writes are held.
  case dead
  /// Blocked writes are held.
  case blocked
  /// Writes wait to be sent.
  case waiting
  /// Nothing waits, nothing is held.
  case fine

  package static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

  /// The word the screen, `--plain` and `/` use.
  package var word: String {
    switch self {
    case .unreachable: return "unreachable"
    case .connecting: return "connecting"
    case .writerStalled: return "stalled"
    case .writerGone: return "writer-gone"
    case .instanceDown: return "instance-down"
    case .dead: return "dead"
    case .blocked: return "blocked"
    case .waiting: return "waiting"
    case .fine: return "fine"
    }
  }

  /// The role its word is drawn in.
  var role: Role {
    switch self {
    case .unreachable, .writerStalled, .writerGone, .instanceDown: return .statusError
    case .connecting: return .dim
    case .dead: return .dead
    case .blocked: return .blocked
    case .waiting: return .waiting
    case .fine: return .statusOK
    }
  }
}
