import FoundationEssentials
import MarfaQueue

/// The panes' pages: what is read, when a read comes back, where the selection lands, and the
/// layout after a resize.
extension UIState {
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
}
