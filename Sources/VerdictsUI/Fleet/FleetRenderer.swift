import FoundationEssentials
import MarfaQueue

/// Draws ``FleetState`` into a ``Grid``: a title, a header, one row a device, and a line of keys
/// (or the filter being typed). Under 140 columns the narrow table (the trouble or the link in
/// one column, counts, the last drain's age); from 140 the wide one (the link, the store, the
/// writer, the instance, blocked by reason, the last drain's end).
package enum FleetRenderer {
  /// One column: its title, its width (nil: what is left), and whether it is a number.
  struct Column {
    var title: String
    var width: Int?
    var number = false
    var text: (FleetRow, Date) -> String
    var role: (FleetRow, Date) -> Role = { _, _ in .text }
  }

  /// A device as its column names it: the host and the store's file name
  /// (`device1:queue.store`, `ann@device:2222:queue.store`), the folders left out.
  static func shortHost(_ spec: String) -> String {
    guard spec.hasPrefix("ssh://") else { return Renderer.storeName(spec) }
    let rest = spec.dropFirst("ssh://".count)
    guard let slash = rest.firstIndex(of: "/") else { return String(rest) + ":" }
    return String(rest[..<slash]) + ":" + String(rest[slash...]).lastPathPart
  }

  /// The width from which the wide table is drawn.
  package static let wideFrom = 140

  static func columns(width: Int) -> [Column] {
    let troubleRole: (FleetRow, Date) -> Role = { r, now in r.trouble(now: now).role }
    if width >= wideFrom {
      var cols = [
        Column(title: "HOST", width: 0) { r, _ in shortHost(r.host) },
        Column(title: "STATE", width: 13, text: { r, now in r.trouble(now: now).word }, role: troubleRole),
        Column(title: "LINK", width: 20) { r, _ in
          if case .down(let since, _) = r.link { return "unreachable " + WriterText.clock(since) }
          return r.linkText
        },
        Column(title: "STORE", width: 8) { r, _ in r.storeText },
        Column(title: "WRITER", width: 22) { r, now in r.writerText(now: now) },
        Column(title: "INSTANCE", width: 19) { r, _ in r.instanceText },
        Column(title: "WAIT", width: 6, number: true) { r, _ in r.count(.waiting) },
        Column(title: "ANS", width: 6, number: true) { r, _ in r.count(.answered) },
        Column(title: "BLOCKED", width: 16) { r, _ in r.blockedText(short: false) },
        Column(title: "DEAD", width: 5, number: true) { r, _ in r.count(.dead) },
        Column(title: "LAST DRAIN", width: nil) { r, now in
          guard let ending = r.lastDrainEnding else { return r.lastDrainText(now: now, short: true) }
          return ending + (r.lastDrainDate.map { " " + WriterText.ago($0, now: now) } ?? "")
        },
      ]
      let fixed = cols.compactMap(\.width).reduce(0, +) + cols.count - 1
      let left = max(0, width - fixed)
      cols[0].width = max(8, left / 2)
      return cols
    }
    var cols = [
      Column(title: "HOST", width: 0) { r, _ in shortHost(r.host) },
      Column(
        title: "STATE", width: 20,
        text: { r, now in
          if case .down(let since, _) = r.link { return "unreachable " + WriterText.clock(since) }
          return r.trouble(now: now).word
        }, role: troubleRole),
      Column(title: "WRITER", width: 12) { r, now in r.writerText(now: now, short: true) },
      Column(title: "WAIT", width: 5, number: true) { r, _ in r.count(.waiting) },
      Column(title: "ANS", width: 5, number: true) { r, _ in r.count(.answered) },
      Column(title: "BLK", width: 5, number: true) { r, _ in r.blockedText(short: true) },
      Column(title: "DEAD", width: 4, number: true) { r, _ in r.count(.dead) },
      Column(title: "LAST", width: nil) { r, now in r.lastDrainText(now: now, short: true) },
    ]
    let fixed = cols.compactMap(\.width).reduce(0, +) + cols.count - 1
    cols[0].width = max(6, min(32, width - fixed - 8))
    return cols
  }

  /// The frame for `state`.
  package static func render(_ state: FleetState) -> Grid {
    var grid = Grid(width: state.width, height: state.height)
    guard state.width > 0, state.height > 0 else { return grid }
    let now = state.now
    let dot = state.ascii ? " | " : " · "
    // Title: how many devices, how many in trouble.
    let tally = state.tally()
    var title = "verdicts fleet\(dot)\(state.rows.count) device\(state.rows.count == 1 ? "" : "s")"
    let down = tally[.unreachable, default: 0]
    if down > 0 { title += "\(dot)\(down) unreachable" }
    let attention = [FleetTrouble.writerStalled, .writerGone, .instanceDown, .dead, .blocked].reduce(0) {
      $0 + tally[$1, default: 0]
    }
    if attention > 0 { title += "\(dot)\(attention) need\(attention == 1 ? "s" : "") attention" }
    if !state.filter.isEmpty { title += "\(dot)filter: \(state.filter)" }
    grid.fill(Rect(x: 0, y: 0, width: state.width, height: 1), role: .title)
    grid.put(title, x: 0, y: 0, role: .title)
    guard state.height > 1 else { return grid }
    // Header.
    let cols = columns(width: state.width)
    var x = 0
    for c in cols {
      let w = c.width ?? max(0, state.width - x)
      put(c.title, into: &grid, x: x, y: 1, width: w, number: c.number, role: .label)
      x += w + 1
    }
    // Rows.
    let shown = state.visible
    let first = 2
    let rows = max(0, state.height - 3)
    for (line, index) in shown.dropFirst(state.top).prefix(rows).enumerated() {
      let y = first + line
      let row = state.rows[index]
      var x = 0
      for c in cols {
        let w = c.width ?? max(0, state.width - x)
        put(c.text(row, now), into: &grid, x: x, y: y, width: w, number: c.number, role: c.role(row, now))
        x += w + 1
      }
      if index == state.selected { grid.paint(Rect(x: 0, y: y, width: state.width, height: 1), role: .selected) }
    }
    if shown.isEmpty, state.height > 3 {
      grid.put(
        state.rows.isEmpty ? "no devices" : "no device matches \"\(state.filter)\" (esc clears the filter)", x: 0,
        y: first, role: .dim)
    }
    // Bottom line: the filter being typed, a message, or the keys.
    let bottom = state.height - 1
    guard bottom > 1 else { return grid }
    grid.fill(Rect(x: 0, y: bottom, width: state.width, height: 1), role: .status)
    if state.editingFilter {
      grid.put("/" + state.filter + "_", x: 0, y: bottom, role: .status)
    } else if let message = state.message {
      grid.put(message, x: 0, y: bottom, role: .statusError)
    } else {
      let selectedDown = state.selected.map { state.rows[$0].downReason } ?? nil
      let keys = "enter open\(dot)/ filter\(dot)j/k move\(dot)q quit"
      if let why = selectedDown {
        grid.put(why, x: 0, y: bottom, role: .statusError)
      } else {
        grid.put(keys, x: 0, y: bottom, role: .status)
      }
    }
    return grid
  }

  private static func put(_ text: String, into grid: inout Grid, x: Int, y: Int, width: Int, number: Bool, role: Role) {
    guard width > 0 else { return }
    let shown = CharWidth.of(text)
    let start = number && shown < width ? x + width - shown : x
    grid.put(text, x: start, y: y, role: role, limit: width - (start - x))
  }
}
