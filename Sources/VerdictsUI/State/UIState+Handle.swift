import FoundationEssentials
import MarfaQueue

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
      var told = StatusMessage(
        Self.withNextStep(text, after: lastDrain, keyHint: keyHint, keys: keyMap), isError: isError)
      if let note = skipNote, !Self.isDrainReport(text) {
        told = StatusMessage(text + "; " + note, isError: isError)
        skipNote = nil
      }
      message = Self.outcome(told, after: message)
      return []
    case .undoable(let offer):
      undoOffer = offer
      if let told = message {
        let key = keyMap.hint(.undo) ?? "u"
        message = StatusMessage(told.text + " · \(key) undoes the \(offer.action)", isError: told.isError)
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

  /// A drain's own report (`auto-drain: …`, `drain stopped: …`) often arrives in the same frame
  /// as the outcome of the action that woke it (a release, a new key); it is put after that
  /// outcome rather than over it, so the action still says what it did (docs/tui.md). Progress
  /// messages (`releasing 1…`) and earlier drain reports are replaced.
  static func outcome(_ new: StatusMessage, after old: StatusMessage?) -> StatusMessage {
    guard isDrainReport(new.text), let old, !old.text.hasSuffix("…") else { return new }
    var action = old.text
    for p in drainPrefixes {
      if let r = action.firstRange(of: " · " + p) { action = String(action[..<r.lowerBound]) }
    }
    if action.isEmpty || action.hasPrefix("auto-drain") || drainPrefixes.contains(where: action.hasPrefix) {
      return new
    }
    return StatusMessage(action + " · " + new.text, isError: new.isError || old.isError)
  }

  /// The prefixes of a drain's own report, told apart from an action's outcome.
  static let drainPrefixes = ["auto-drain: ", "drain stopped: "]

  /// Whether an outcome is a drain's own report rather than an action's.
  static func isDrainReport(_ text: String) -> Bool { drainPrefixes.contains(where: text.hasPrefix) }

  /// What the app does first: read every pane and the status.
  public mutating func start() -> [UIEffect] { reloadAll() }

  /// Reads every pane at its scroll position, and the status.
  mutating func reloadAll() -> [UIEffect] {
    var effects = QueuePane.allCases.map { UIEffect.reload($0, offset: readOffset($0), limit: pageLimit($0)) }
    effects.append(.loadStatus)
    // Blocked grouped by reason counts each group again.
    if grouped(.blocked) { effects.append(.countReasons) }
    return effects
  }

  mutating func resize(width w: Int, height h: Int) -> [UIEffect] {
    width = max(0, w)
    height = max(0, h)
    return relayout()
  }

  /// After the layout changed: every selection back on screen, and the rows now shown read.
  mutating func relayout() -> [UIEffect] {
    var effects: [UIEffect] = []
    for pane in QueuePane.allCases {
      keepSelectionVisible(pane)
      if let e = reloadIfNeeded(pane) { effects.append(e) }
    }
    return effects
  }

  mutating func load(_ page: QueuePage) -> [UIEffect] {
    let pane = page.pane
    // The write whose detail was drawn (rows not in the pane's order are not drawn).
    let shown = self[pane].rowsInOrder ? self[pane].selectedWrite : nil
    let before = self[pane].selectedWrite?.id
    let afterChange = noteFresh(page)
    var p = self[pane]
    p.total = page.total
    p.offset = page.offset
    p.writes = page.writes
    // The app applies only pages read in the pane's order (``AppCore``): these rows are in it.
    p.rowsOrder = p.order
    p.loaded = true
    self[pane] = p
    var effects: [UIEffect] = []
    tailNewest(pane)
    if let followed = following, pane == focus {
      if let i = page.writes.firstIndex(where: { $0.id == followed }) {
        self[pane].selected = page.offset + i
      } else if !page.writes.isEmpty || page.total == 0 {
        effects.append(.locate(followed))
      }
    }
    clampSelection(pane)
    keepSelectionVisible(pane)
    if page.total > 0, let e = reloadIfNeeded(pane) { effects.append(e) }
    if pane == focus { holdDetail(before: shown, afterChange: afterChange) }
    refreshHeld(from: page)
    if pane == focus, detailHold == nil, self[pane].selectedWrite?.id != before { detailScroll = 0 }
    return effects
  }

  /// Marks the writes of a page read after a change that changed, or arrived, since last seen;
  /// returns whether the page was read because of a change.
  @discardableResult
  mutating func noteFresh(_ page: QueuePage) -> Bool {
    let pane = page.pane
    let afterChange = changeReads.remove(pane) != nil && self[pane].loaded
    let grew = page.total > self[pane].total
    if afterChange && changeReads.count == QueuePane.allCases.count - 1 { fresh = [] }  // a new round of reads
    for w in page.writes {
      let print = Self.fingerprint(w)
      if afterChange {
        if let old = seen[w.id] {
          if old != print { fresh.insert(w.id) }
        } else if grew {
          fresh.insert(w.id)
        }
      }
      seen[w.id] = print
    }
    // Forget writes no page holds any more, so the map stays as small as the screen.
    if seen.count > 4 * panes.reduce(0, { $0 + $1.writes.count }) + 64 {
      let loaded = Set(panes.flatMap { $0.writes.map(\.id) } + page.writes.map(\.id))
      seen = seen.filter { loaded.contains($0.key) }
      fresh = fresh.filter { loaded.contains($0) }
    }
    return afterChange
  }

  /// What about a write is worth highlighting when it changes.
  static func fingerprint(_ w: QueuedWrite) -> String {
    "\(VerdictText.word(w))|\(w.waiting)|\(w.environmentalStreak)|\(w.refusals)|\(w.lastFailure?.status ?? -1)"
  }

  mutating func located(id: String, pane: QueuePane?, index: Int?) -> [UIEffect] {
    guard following == id else { return [] }
    guard let pane, let index else {
      following = nil
      message = StatusMessage("\(ShortID.of(id)) left the queue; follow is off")
      return []
    }
    if focus != pane { message = StatusMessage("following \(ShortID.of(id)) into \(pane.title)") }
    focus = pane
    self[pane].selected = index
    keepSelectionVisible(pane)
    if self[pane].selectedWrite?.id == id { return [] }
    return [.reload(pane, offset: readOffset(pane), limit: pageLimit(pane))]
  }

  /// Keeps the selection inside the pane.
  mutating func clampSelection(_ pane: QueuePane) {
    let total = self[pane].total
    self[pane].selected = min(max(0, self[pane].selected), max(0, total - 1))
  }

  /// Scrolls so the selection is on screen, and no further than the last page.
  mutating func keepSelectionVisible(_ pane: QueuePane) {
    let rows = max(1, layout.rows(pane))
    var p = self[pane]
    if p.selected < p.top { p.top = p.selected }
    if p.selected >= p.top + rows { p.top = p.selected - rows + 1 }
    p.top = max(0, min(p.top, max(0, p.total - rows)))
    self[pane] = p
  }

  /// A page read when the visible rows are not all loaded.
  func reloadIfNeeded(_ pane: QueuePane) -> UIEffect? {
    let p = self[pane]
    guard p.loaded else { return nil }
    let from = readOffset(pane)
    if p.covers(top: from, rows: layout.rows(pane) + p.top - from) { return nil }
    return .reload(pane, offset: from, limit: pageLimit(pane))
  }

  /// Keeps the writer's record and when it was last seen live.
  /// How auto-drain's wait for its next try begins (AppCore's words): said until a drain runs.
  static let nextTryWords = "auto-drain: next try"

  /// How long a fading message stays once a clock saw it.
  static let fadeSeconds: Double = 5

  /// Lets a fading message go once ``fadeSeconds`` have passed since a clock first saw it.
  mutating func fadeMessage(at: Date) {
    guard let clock = fadeClock, let m = message, clock.message == m else {
      fadeClock = nil
      return
    }
    guard let since = clock.since else {
      fadeClock?.since = at
      return
    }
    if at.timeIntervalSince(since) >= Self.fadeSeconds {
      message = nil
      fadeClock = nil
    }
  }

  mutating func noteWriter(_ w: WriterRecord?, at: Date) {
    writer = w
    now = at
    if w?.state == .live { throughput.note(w?.drain, at: at) }
    if w?.state == .live { writerLastAlive = at }
  }
}
