import FoundationEssentials

/// What reaches the fleet screen's state: a key, a resize, a device's new row, the clock.
package enum FleetEvent: Sendable, Hashable {
  case key(Key)
  case resize(width: Int, height: Int)
  /// Device `index` (in the order the hosts were named) was read again.
  case row(Int, FleetRow)
  /// The time now (ages, stalls).
  case tick(Date)
  /// A line for the bottom of the screen (a device that could not be opened).
  case message(String)
}

/// What the fleet screen's state asks of its loop.
package enum FleetEffect: Sendable, Hashable {
  /// Open device `index`'s full screen.
  case open(Int)
  /// End the fleet.
  case quit
}

/// The fleet screen as a value (docs/fleet.md): every device's row, the sort (trouble first),
/// the `/` filter, the selection and the scroll. Events in, effects out; drawn by
/// ``FleetRenderer``.
package struct FleetState: Sendable, Hashable {
  /// Every device's row, in the order the hosts were named.
  package private(set) var rows: [FleetRow]
  /// The filter: a host substring or a state word; empty shows every device.
  package private(set) var filter = ""
  /// Whether `/` is being typed.
  package private(set) var editingFilter = false
  /// The selected device (its index in ``rows``), kept as the sort moves it.
  package private(set) var selected: Int?
  /// The first visible row of the table.
  package private(set) var top = 0
  /// The screen's size.
  package private(set) var width = 80
  package private(set) var height = 24
  /// The clock the rows are judged by.
  package private(set) var now: Date
  /// A line for the bottom of the screen, until the next key.
  package private(set) var message: String?
  /// Whether the screen draws ASCII only.
  package var ascii = false
  /// Whether the person moved the selection: until then it stays on the top row.
  private var chosen = false

  /// A fleet of `hosts`, none reached yet.
  package init(hosts: [String], now: Date = Date()) {
    rows = hosts.map(FleetRow.init(host:))
    self.now = now
    selected = rows.isEmpty ? nil : 0
  }

  /// The devices shown, in order: filtered, then worst trouble first, then by host.
  package var visible: [Int] {
    let needle = filter.lowercased()
    let shown = rows.indices.filter { i in
      guard !needle.isEmpty else { return true }
      let r = rows[i]
      return r.host.lowercased().contains(needle) || r.stateWords(now: now).contains { $0.lowercased() == needle }
    }
    let trouble = shown.map { rows[$0].trouble(now: now) }
    let keyed = zip(shown, trouble).sorted { a, b in
      if a.1 != b.1 { return a.1 < b.1 }
      if rows[a.0].host != rows[b.0].host { return rows[a.0].host < rows[b.0].host }
      return a.0 < b.0
    }
    return keyed.map(\.0)
  }

  /// Table rows the screen has room for (a title, a header and a bottom line around them).
  package var tableHeight: Int { max(1, height - 3) }

  /// Applies one event.
  package mutating func handle(_ event: FleetEvent) -> [FleetEffect] {
    switch event {
    case .resize(let w, let h):
      width = w
      height = h
    case .row(let i, let row):
      guard rows.indices.contains(i) else { return [] }
      rows[i] = row
    case .tick(let date):
      now = date
    case .message(let text):
      message = text
    case .key(let key):
      message = nil
      if editingFilter { return editFilter(key) }
      return press(key)
    }
    keepSelection()
    return []
  }

  private mutating func press(_ key: Key) -> [FleetEffect] {
    switch key {
    case .char("q"), .ctrl("c"): return [.quit]
    case .enter, .char("l"), .right:
      if let s = selected, visible.contains(s) { return [.open(s)] }
    case .char("/"):
      editingFilter = true
    case .escape:
      filter = ""
    case .char("j"), .down: move(by: 1)
    case .char("k"), .up: move(by: -1)
    case .pageDown, .char(" "): move(by: tableHeight)
    case .pageUp: move(by: -tableHeight)
    case .home, .char("g"): move(to: 0)
    case .end, .char("G"): move(to: Int.max)
    default: break
    }
    keepSelection()
    return []
  }

  private mutating func editFilter(_ key: Key) -> [FleetEffect] {
    switch key {
    case .enter: editingFilter = false
    case .escape:
      editingFilter = false
      filter = ""
    case .backspace, .delete: if !filter.isEmpty { filter.removeLast() }
    case .char(let c): if filter.count < 64 { filter.append(c) }
    default: break
    }
    keepSelection()
    return []
  }

  private mutating func move(by step: Int) {
    let shown = visible
    guard !shown.isEmpty else { return }
    let at = selected.flatMap { shown.firstIndex(of: $0) } ?? 0
    move(to: max(0, min(shown.count - 1, at + step)))
  }

  private mutating func move(to position: Int) {
    let shown = visible
    guard !shown.isEmpty else { return }
    selected = shown[max(0, min(shown.count - 1, position))]
    chosen = true
  }

  /// The selection stays on its device while it is shown (on the top row until the person
  /// moves it), else goes to the first shown; the scroll keeps it in view.
  private mutating func keepSelection() {
    let shown = visible
    if shown.isEmpty {
      top = 0
      return
    }
    if !chosen || selected == nil || !shown.contains(selected!) { selected = shown[0] }
    let at = shown.firstIndex(of: selected!) ?? 0
    if at < top { top = at }
    if at >= top + tableHeight { top = at - tableHeight + 1 }
    top = max(0, min(top, max(0, shown.count - tableHeight)))
  }

  /// How many devices have each trouble.
  package func tally() -> [FleetTrouble: Int] {
    var out: [FleetTrouble: Int] = [:]
    for r in rows { out[r.trouble(now: now), default: 0] += 1 }
    return out
  }
}
