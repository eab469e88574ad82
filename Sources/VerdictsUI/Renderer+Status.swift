import FoundationEssentials
import MarfaQueue

extension Renderer {
  /// The status line: who we are, where we drain to, how the last drain went.
  func drawStatus(into grid: inout Grid) {
    let r = layout.status
    grid.fill(r, role: .status)
    let (first, second) = statusParts()
    if r.height >= 2 {
      joined(first).draw(into: &grid, x: r.x, y: r.y, limit: r.width, ellipsis: glyphs.ellipsis)
      joined(second).draw(into: &grid, x: r.x, y: r.y + 1, limit: r.width, ellipsis: glyphs.ellipsis)
    } else {
      joined(first + second).draw(into: &grid, x: r.x, y: r.y, limit: r.width, ellipsis: glyphs.ellipsis)
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

  /// The status line's parts: what matters most (role, reachability, drains), then the rest
  /// (fill, instance, store, pause, follow, filter, marks).
  func statusParts() -> ([TextLine], [TextLine]) {
    var parts: [TextLine] = []
    if state.paused {
      parts.append(
        TextLine("PAUSED" + (state.pendingChanges > 0 ? " (\(state.pendingChanges) waiting)" : ""), .statusError))
    }
    // With the writer's record shown, its line comes first and read-only (with its reason where
    // there is a second row) after it.
    var readOnly: TextLine?
    if let reason = state.readOnlyReason {
      let line = TextLine(
        layout.status.height < 2 && state.writer != nil ? "read-only" : "read-only (\(reason))", .statusError)
      if state.writer == nil || layout.status.height < 2 { parts.append(line) } else { readOnly = line }
    } else if state.writer == nil {
      parts.append(TextLine("writer", .statusOK))
    }
    parts += writerParts()  // the published writer, its auto-drain and its drain in progress
    // The writer's own words about its instance (on its record) stand for reachability when it has them.
    switch state.writer?.instance == nil ? state.reachable : nil {
    case true?: parts.append(TextLine("reachable", .statusOK))
    case false?: parts.append(TextLine("unreachable", .statusError))
    case nil: break
    }
    // A store another program owns is drained by its owner: no auto-drain there.
    if state.writer == nil, state.status?.kind.isOwned != false {
      parts.append(TextLine("auto-drain " + (state.autoDrain ? "on" : "off"), state.autoDrain ? .statusOK : .status))
    }
    // A writer that died during a drain says how far it got: the drain before is not the last.
    let diedDraining = state.writer?.state == .gone && state.writer?.drain != nil
    if let d = state.lastDrain, !writerDraining, !diedDraining { parts.append(drainSummary(d)) }
    let first = parts
    parts = readOnly.map { [$0] } ?? []
    if let s = state.status {
      switch s.fill {
      case .never: parts.append(TextLine("never filled", .statusError))
      case .underway: parts.append(TextLine("fill under way", .statusError))
      case .complete: parts.append(TextLine("filled", .status))
      case .expired: parts.append(TextLine("expired (\(s.expiredReason ?? "?"))", .statusError))
      }
    }
    if let url = state.instanceURL ?? state.status?.origin {
      let instance =
        state.status?.instanceId.map { " (\(ShortID.instance(Sanitizer.clean($0), ellipsis: glyphs.ellipsis)))" } ?? ""
      parts.append(TextLine(abbreviate(url, 40) + instance, .status))
    } else {
      parts.append(TextLine("no instance", .status))
    }
    if let s = state.status {
      parts.append(TextLine("store " + abbreviate(s.store.lastPathPart, 24), .status))
    }
    if state.tailing { parts.append(TextLine("tailing Answered", .status)) }
    if let f = state.following {
      parts.append(TextLine("following \(ShortID.of(f, ellipsis: glyphs.ellipsis))", .status))
    }
    if let f = state.filter { parts.append(TextLine("filter \"\(f)\"", .status)) }
    if !state.marks.isEmpty { parts.append(TextLine("\(state.marks.count) marked", .status)) }
    return (first, parts)
  }

  /// The last drain in a few words: `drain 3 answered 1 held 2 undelivered · unavailable: …`.
  func drainSummary(_ d: DrainReport) -> TextLine {
    var counts: [String] = []
    if d.answered > 0 { counts.append("\(d.answered) answered") }
    if d.held > 0 { counts.append("\(d.held) held") }
    if d.undelivered > 0 { counts.append("\(d.undelivered) undelivered") }
    if d.unsent > 0 { counts.append("\(d.unsent) unsent") }
    if d.unmade > 0 { counts.append("\(d.unmade) unmade") }
    let at = state.status?.lastDrainAt.flatMap(clockTime).map { " at \($0)" } ?? ""
    var t = TextLine("drain\(at): " + (counts.isEmpty ? "nothing to send" : counts.joined(separator: " ")), .status)
    if let u = d.unavailable { t.append(" \(glyphs.separator) unavailable: \(u)", .statusError) }
    if let s = d.stopped { t.append(" \(glyphs.separator) stopped: \(s)", .statusError) }
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
    line = line + hints()
    line.draw(into: &grid, x: r.x, y: r.y, limit: r.width, ellipsis: glyphs.ellipsis)
  }

  /// The actions that apply to what is selected now, then the general ones.
  func applicableActions() -> [Action] {
    var actions: [Action] = []
    if state.detailFocused {
      if let w = state.selectedWrite, w.waiting, w.follows ?? w.dependsOn.first != nil {
        return [.down, .up, .jump, .clear, .help, .quit]
      }
      return [.down, .up, .focusDetail, .help, .quit]
    }
    // The engine's rule says which of the four write actions apply (QueuedWrite.allows).
    let ruled: [(WriteAction, Action)] = [
      (.release, .release), (.withdraw, .withdraw), (.discard, .discard), (.forget, .forget),
    ]
    if !state.marks.isEmpty {
      // An action the rule allows for some marked write (one not loaded may be any).
      let marked = state.marks.map { state.loadedWrite($0) }
      actions += ruled.filter { rule in marked.contains { $0?.allows(rule.0).isAllowed ?? true } }.map(\.1)
      actions.append(.clear)
    } else if let w = state.selectedWrite {
      actions += ruled.filter { w.allows($0.0).isAllowed }.map(\.1)
      if w.verdict?.blockedReason == .credentialRefused { actions.append(.useKey) }
      if w.verdict?.blockedReason != nil { actions.append(.releaseReason) }
      if w.allows(.forget).isAllowed, w.verdict?.refusal == nil { actions.append(.take) }
      actions = clearingFirst(actions, w)
      actions.append(.focusDetail)
    }
    for a in [Action.drain, .autoDrain, .filter, .sort, .mark, .follow, .pause, .help, .quit] where !actions.contains(a)
    {
      actions.append(a)
    }
    return actions
  }

  func hints(_ actions: [Action]? = nil) -> TextLine {
    var t = TextLine()
    for action in actions ?? applicableActions() {
      // In the detail of a held write, `enter` is the jump (the key map's own jump key works too).
      let detailJump = state.detailFocused && action == .jump
      guard let key = detailJump ? state.keyMap.hint(.focusDetail) : state.keyMap.hint(action) else { continue }
      let greyed = action.writes && state.readOnly
      if !t.spans.isEmpty { t.append(" ") }
      t.append(key, greyed ? .dim : .key)
      // In the detail, `esc` leaves it: the word is "back", not "clear".
      let word = state.detailFocused && action == .clear ? "back" : action.hint
      t.append(" " + word, greyed ? .dim : .text)
    }
    return t
  }
}
