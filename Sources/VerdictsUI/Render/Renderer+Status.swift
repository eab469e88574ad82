import FoundationEssentials
import MarfaQueue

extension Renderer {
  /// The status line: who we are, where we drain to, how the last drain went; on a terminal too
  /// narrow for every part, what matters most stays (``fitted(_:width:)``).
  func drawStatus(into grid: inout Grid) {
    let r = layout.status
    grid.fill(r, role: .status)
    let (first, second) = statusParts()
    // One leading blank: the room each row has for its parts.
    let room = r.width - 1
    if r.height >= 2 {
      let top = fitted(first, width: room)
      // What the first row had no room for goes to the second, before the rest.
      let left = first.filter { part in !top.kept.contains(part) }
      let bottom = fitted(left + second, width: room)
      joined(top.lines).draw(into: &grid, x: r.x, y: r.y, limit: r.width, ellipsis: glyphs.ellipsis)
      joined(bottom.lines).draw(into: &grid, x: r.x, y: r.y + 1, limit: r.width, ellipsis: glyphs.ellipsis)
    } else {
      joined(fitted(first + second, width: room).lines).draw(
        into: &grid, x: r.x, y: r.y, limit: r.width, ellipsis: glyphs.ellipsis)
    }
  }

  func joined(_ parts: [TextLine]) -> TextLine {
    var line = TextLine(" ", .status)
    for (i, p) in parts.enumerated() {
      if i > 0 { line.append(" \(glyphs.separator) ", .status) }
      line = line + p
    }
    return line
  }

  /// The parts that fit in `width` columns, in their order: first the least important of those
  /// below ``StatusPart/essential`` go, then the essential ones are said in their short forms,
  /// then the least important of them go; a part that went is put back where it still fits
  /// (most important first). A single part left too long is cut by the draw.
  func fitted(_ parts: [StatusPart], width: Int) -> (lines: [TextLine], kept: [StatusPart]) {
    let separator = CharWidth.of(" \(glyphs.separator) ")
    var keep = Array(repeating: true, count: parts.count)
    var short = false
    func lines(_ keep: [Bool]) -> [TextLine] {
      parts.indices.filter { keep[$0] }.map { short ? (parts[$0].short ?? parts[$0].line) : parts[$0].line }
    }
    func fits(_ keep: [Bool]) -> Bool {
      let l = lines(keep)
      return l.reduce(0) { $0 + $1.width } + max(0, l.count - 1) * separator <= width
    }
    while !fits(keep), keep.filter({ $0 }).count > 1 {
      let kept = parts.indices.filter { keep[$0] }
      let lowest = kept.map { parts[$0].priority }.min() ?? 0
      if lowest >= StatusPart.essential, !short {
        short = true
        continue
      }
      // The last of the least important goes first.
      guard let i = kept.last(where: { parts[$0].priority == lowest }) else { break }
      keep[i] = false
    }
    // The parts kept are said in full where that fits after all.
    if short {
      short = false
      if !fits(keep) { short = true }
    }
    // A part that went is put back where it still fits, most important first; one that would
    // end the line and whose start still says something (a drain's `…: 6 answered 2 held`) is
    // put back cut by the draw's ellipsis, and nothing is put back after it.
    for i in parts.indices.filter({ !keep[$0] }).sorted(by: { parts[$0].priority > parts[$1].priority }) {
      // Where even the essential parts were shortened, the line has no room for the incidental.
      if short, parts[i].priority < 40 { continue }
      keep[i] = true
      if fits(keep) { continue }
      keep[i] = false
      let last = parts.indices.last { keep[$0] } ?? -1
      let used = lines(keep).reduce(0) { $0 + $1.width } + max(0, lines(keep).count - 1) * separator
      if parts[i].priority >= 50, i > last, width - used - separator >= 24 {
        keep[i] = true
        break
      }
    }
    return (lines(keep), parts.indices.filter { keep[$0] }.map { parts[$0] })
  }

  /// The status line's parts: what matters most (role, writer, drain, reachability), then the
  /// rest (fill, instance, store, pause, follow, filter, marks).
  func statusParts() -> ([StatusPart], [StatusPart]) {
    var parts: [StatusPart] = []
    if state.paused {
      // The changes the paused panes do not show yet (not writes: the Waiting pane's word).
      let held = state.pendingChanges
      let text = "PAUSED" + (held > 0 ? " (\(held) change\(held == 1 ? "" : "s") not shown)" : "")
      parts.append(StatusPart(TextLine(text, .statusError), priority: 95, short: TextLine("PAUSED", .statusError)))
    }
    // With the writer's record shown, its line comes first and read-only (with its reason where
    // there is a second row) after it.
    var readOnly: StatusPart?
    if let reason = state.readOnlyReason {
      let line = TextLine(
        layout.status.height < 2 && state.writer != nil ? "read-only" : "read-only (\(reason))", .statusError)
      let short = TextLine("read-only", .statusError)
      if state.writer == nil {
        parts.append(StatusPart(line, priority: 100, short: short))
      } else if layout.status.height < 2 {
        readOnly = StatusPart(line, priority: 60)
      } else {
        readOnly = StatusPart(line, priority: 60, short: short)
      }
    } else if state.writer == nil {
      parts.append(StatusPart(TextLine("writer", .statusOK), priority: 100))
    }
    var writer = writerParts()  // the published writer, its drain in progress, its auto-drain
    // The writer's auto-drain goes after reachability (the screen's own reachable, below).
    let writerAutoDrain = writer.last.flatMap { $0.line.plain.hasPrefix("auto-drain ") ? $0 : nil }
    if writerAutoDrain != nil { writer.removeLast() }
    parts += writer
    // The writer's own words about its instance (on its record) stand for reachability when it has them.
    switch state.writer?.instance == nil ? state.reachable : nil {
    case true?: parts.append(StatusPart(TextLine("reachable", .statusOK), priority: 85))
    case false?: parts.append(StatusPart(TextLine("unreachable", .statusError), priority: 85))
    case nil: break
    }
    if let writerAutoDrain { parts.append(writerAutoDrain) }
    if let readOnly, layout.status.height < 2 { parts.append(readOnly) }
    // A store another program owns is drained by its owner: no auto-drain there. A watcher with
    // no writer's record has no auto-drain to tell: its own setting is not a writer's.
    if state.writer == nil, !state.readOnly, state.status?.kind.isOwned != false {
      parts.append(
        StatusPart(
          TextLine("auto-drain " + (state.autoDrain ? "on" : "off"), state.autoDrain ? .statusOK : .status),
          priority: 50))
    }
    // A writer that died during a drain says how far it got: the drain before is not the last.
    let diedDraining = state.writer?.state == .gone && state.writer?.drain != nil
    if let d = state.lastDrain, !writerDraining, !diedDraining {
      // After a drain, how it went is what a watcher is there for.
      parts.append(StatusPart(drainSummary(d), priority: 70, short: drainSummary(d, at: false)))
    }
    let first = parts
    parts = layout.status.height < 2 ? [] : readOnly.map { [$0] } ?? []
    if let s = state.status {
      switch s.fill {
      case .never: parts.append(StatusPart(TextLine("never filled", .statusError), priority: 65))
      case .underway: parts.append(StatusPart(TextLine("fill under way", .statusError), priority: 65))
      case .complete: parts.append(StatusPart(TextLine("filled", .status), priority: 20))
      case .expired:
        parts.append(StatusPart(TextLine("expired (\(s.expiredReason ?? "?"))", .statusError), priority: 65))
      }
    }
    if let url = state.instanceURL ?? state.status?.origin {
      let instance =
        state.status?.instanceId.map { " (\(ShortID.instance(Sanitizer.clean($0), ellipsis: glyphs.ellipsis)))" } ?? ""
      parts.append(StatusPart(TextLine(abbreviate(url, 40) + instance, .status), priority: 25))
    } else {
      parts.append(StatusPart(TextLine("no instance", .status), priority: 25))
    }
    if let s = state.status {
      parts.append(StatusPart(TextLine("store " + abbreviate(Self.storeName(s.store), 32), .status), priority: 15))
    }
    if state.tailing { parts.append(StatusPart(TextLine("tailing Answered", .status), priority: 30)) }
    if let f = state.following {
      parts.append(StatusPart(TextLine("following \(ShortID.of(f, ellipsis: glyphs.ellipsis))", .status), priority: 40))
    }
    if let f = state.filter { parts.append(StatusPart(TextLine("filter \"\(f)\"", .status), priority: 58)) }
    if !state.marks.isEmpty { parts.append(StatusPart(TextLine("\(state.marks.count) marked", .status), priority: 57)) }
    return (first, parts)
  }

  /// The last drain in a few words: `drain 3 answered 1 held 2 undelivered · unavailable: …`.
  func drainSummary(_ d: DrainReport, at: Bool = true) -> TextLine {
    var counts: [String] = []
    if d.answered > 0 { counts.append("\(d.answered) answered") }
    if d.held > 0 { counts.append("\(d.held) held") }
    if d.undelivered > 0 { counts.append("\(d.undelivered) undelivered") }
    if d.unsent > 0 { counts.append("\(d.unsent) unsent") }
    if d.unmade > 0 { counts.append("\(d.unmade) unmade") }
    let when = at ? state.status?.lastDrainAt.flatMap(clockTime).map { " at \($0)" } ?? "" : ""
    var t = TextLine("drain\(when): " + (counts.isEmpty ? "nothing to send" : counts.joined(separator: " ")), .status)
    // Nothing said twice: the message reporting this drain says why it stopped, so here it is not.
    let said = state.message?.text ?? ""
    if let u = d.unavailable, !said.contains(u) { t.append(" \(glyphs.separator) unavailable: \(u)", .statusError) }
    if let s = d.stopped, !said.contains(s) { t.append(" \(glyphs.separator) stopped: \(s)", .statusError) }
    if let r = d.retryAfterSeconds { t.append(" \(glyphs.separator) retry after \(r)s", .status) }
    return t
  }

  /// `HH:MM:SS` from an ISO-8601 time, as stored (UTC).
  func clockTime(_ iso: String) -> String? {
    guard let t = iso.firstIndex(of: "T") else { return nil }
    let time = iso[iso.index(after: t)...].prefix(8)
    return time.count == 8 ? String(time) : nil
  }

  func abbreviate(_ text: String, _ width: Int) -> String {
    let clean = Sanitizer.clean(text)
    guard clean.count > width else { return clean }
    return glyphs.ellipsis + String(clean.suffix(width - 1))
  }

  /// The bottom line: the open prompt, else the last message and the keys that apply now.
  func drawHints(into grid: inout Grid) {
    let r = layout.hints
    if let p = state.prompt {
      var t = TextLine(p.label, .key)
      t.append(p.shown)
      t.append(state.ascii ? "_" : "▏", .key)
      // A refused filter (said above the prompt) is not applied: enter waits for the word mended.
      let enter =
        state.filterProblem != nil
        ? "not applied" : "enter \(p.kind == .filter ? "applies" : p.kind == .goto ? "goes there" : "uses it")"
      t.append("  \(enter) \(glyphs.separator) esc cancels", .dim)
      t.draw(into: &grid, x: r.x, y: r.y, limit: r.width, ellipsis: glyphs.ellipsis)
      return
    }
    var line = TextLine()
    if let m = state.message, messageOnBottom {  // else drawLongMessage gives it rows of its own
      line.append(" " + fittedMessage(m) + " ", m.isError ? .statusError : .statusOK)
      line.append("  ")
    }
    line = line + fittedHints(width: r.width - line.width)
    line.draw(into: &grid, x: r.x, y: r.y, limit: r.width, ellipsis: glyphs.ellipsis)
  }

  /// A store as the status line names it: its file's name, and the host before it for a store
  /// on another machine (`device:queue.store`).
  static func storeName(_ store: String) -> String {
    if let colon = store.firstIndex(of: ":"), !store[..<colon].contains("/") {
      return String(store[...colon]) + String(store[store.index(after: colon)...]).lastPathPart
    }
    return store.lastPathPart
  }
}
