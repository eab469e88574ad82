import FoundationEssentials
import MarfaQueue

/// The state machine's one entry: an event in (a key, a page read, a status, a writer's record),
/// the effects out.
extension UIState {
  /// Applies one event and returns what the app should do; pure, so every key is testable.
  ///
  /// When the event changed the rows the panes are drawn on (a long message came or went), each
  /// selection is brought back on screen.
  public mutating func handle(_ event: UIEvent) -> [UIEffect] {
    let before = layout
    var effects = apply(event)
    if layout != before {
      for e in relayout() where !effects.contains(e) { effects.append(e) }
    }
    return effects
  }

  private mutating func apply(_ event: UIEvent) -> [UIEffect] {
    switch event {
    case .key(let key): return handleKey(key)
    case .resize(let w, let h): return resize(width: w, height: h)
    case .mouse(let m): return mouse(m)
    case .changed:
      if paused {
        pendingChanges += 1
        return []
      }
      changeReads = Set(QueuePane.allCases)
      return reloadAll()
    case .loaded(let page): return load(page)
    case .status(let s):
      status = s
      if let d = s.lastDrain { lastDrain = d }
      // A store another program owns says, with each status, whether its writer is there now.
      if !s.kind.isOwned, case .reader(let reason) = s.handle { readOnlyReason = reason }
      // A damaged store is said once (the first number out of range met); the panes draw on
      // from what can be read.
      if let damage = s.damage, damageSaid == nil {
        damageSaid = damage
        message = StatusMessage(Sanitizer.clean(damage.message), isError: true)
      }
      return []
    case .reachable(let r):
      reachable = r
      return []
    case .writer(let w, let at):
      noteWriter(w, at: at)
      // `auto-drain: next try in 1s` is no longer true once a drain runs.
      if w?.drain != nil, message?.text.hasPrefix(Self.nextTryWords) == true { message = nil }
      fadeMessage(at: at)
      return []
    case .tick(let at):
      now = at
      fadeMessage(at: at)
      return []
    case .detailRested(let moves):
      detailRested(moves: moves)
      return []
    case .storeFile(let state, let at):
      storeFile = state
      storeFileChangedAt = at
      now = at
      return []
    case .drained(let report):
      lastDrain = report
      if message?.text.hasPrefix(Self.nextTryWords) == true { message = nil }
      return []
    case .outcome(let text, let isError):
      var said = StatusMessage(
        Self.withNextStep(text, after: lastDrain, keyHint: keyHint, keys: keyMap), isError: isError)
      if let note = skipNote, !Self.isDrainReport(text) {
        said = StatusMessage(text + "; " + note, isError: isError)
        skipNote = nil
      }
      message = Self.outcome(said, after: message)
      return []
    case .undoable(let offer):
      undoOffer = offer
      if let said = message {
        let key = keyMap.hint(.undo) ?? "u"
        message = StatusMessage(said.text + " · \(key) undoes the \(offer.action)", isError: said.isError)
      }
      return []
    case .located(let id, let pane, let index): return located(id: id, pane: pane, index: index)
    case .reordered(let id, let pane, let order, let index):
      // Only for the pane's order now (`s` pressed twice quickly: the first answer is stale).
      guard self[pane].order == order else { return [] }
      return reordered(id: id, pane: pane, index: index)
    case .attempts(let id, let attempts):
      detailAttemptsID = id
      detailAttempts = attempts
      return []
    case .detailWhole(let w):
      detailWhole = w
      return []
    case .history(let drains):
      // Read for a view that is up; one closed since stays closed.
      if history != nil { history = drains }
      return []
    case .reasonCounts(let counts):
      let chosen = reasonMenu.indices.contains(menuIndex) ? reasonMenu[menuIndex] : nil
      reasonCounts = counts
      if case .releaseReason = dialog {
        let menu = reasonMenu
        if menu.isEmpty {
          dialog = nil
          message = StatusMessage("release by reason: no write is blocked", isError: true)
        } else {
          dialog = .releaseReason(selected: chosen.flatMap(menu.firstIndex(of:)) ?? 0)
        }
      }
      return []
    case .rowNamed(let row, let writes, let pane, let id): return rowNamed(row, writes: writes, first: pane, id: id)
    case .examples(let ids, let pending):
      // Only for the confirmation still up (one cancelled meanwhile leaves nothing to list).
      if dialog == .confirm(pending) { dialogExamples = ids }
      return []
    case .wentTo(let id, let pane, let index): return wentTo(id: id, pane: pane, index: index)
    case .marked(let ids):
      marks.formUnion(ids)
      message = StatusMessage("marked \(marks.count)")
      return []
    }
  }

  /// What the app does first: read every pane and the status.
  public mutating func start() -> [UIEffect] { reloadAll() }

  mutating func noteWriter(_ w: WriterRecord?, at: Date) {
    writer = w
    now = at
    if w?.state == .live { throughput.note(w?.drain, at: at) }
    if w?.state == .live { writerLastAlive = at }
  }
}
