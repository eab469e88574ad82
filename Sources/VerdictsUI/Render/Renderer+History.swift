import MarfaQueue

extension Renderer {
  /// The width of a drain's bar of counts in the history view: 20 cells, 10 on a screen
  /// narrower than 120 columns.
  var historyBarWidth: Int { state.width >= 120 ? 20 : 10 }

  /// The history view (`H`): the drains the store keeps, newest first, each with a bar of its
  /// counts (answered, held, undelivered, unsent, unmade) and why it ended, under a chart of
  /// writes a second across them (oldest left). Scrolls as help does; any other key closes it.
  func drawHistory(_ drains: [DrainRecord], into grid: inout Grid) {
    let boxWidth = min(150, state.width - 2)
    let head = historyHead(drains, width: boxWidth - 4)
    let bottom = 1
    let boxHeight = min(head.count + max(1, drains.count) + bottom + 2, state.height - 2)
    var title = TextLine("History", .titleFocus)
    title.append(" \(drains.count) drain\(drains.count == 1 ? "" : "s") kept", .dim)
    let inner = overlayBox(into: &grid, width: boxWidth, height: boxHeight, title: title)
    guard inner.height > 0, inner.width > 2 else { return }
    var y = inner.y
    for line in head where y < inner.y + inner.height - bottom {
      line.draw(into: &grid, x: inner.x + 1, y: y, limit: inner.width - 2, ellipsis: glyphs.ellipsis)
      y += 1
    }
    let rows =
      drains.isEmpty
      ? [TextLine("no drain kept yet (a drain with nothing to do is not kept)", .dim)]
      : drains.map(historyRow)
    let shown = max(0, inner.y + inner.height - bottom - y)
    let scroll = min(state.historyScroll, max(0, rows.count - shown))
    for line in rows.dropFirst(scroll).prefix(shown) {
      line.draw(into: &grid, x: inner.x + 1, y: y, limit: inner.width - 2, ellipsis: glyphs.ellipsis)
      y += 1
    }
    var foot = TextLine(
      rows.count > shown
        ? "\(scroll + 1)\(glyphs.dash)\(min(rows.count, scroll + shown)) of \(rows.count) \(glyphs.separator) j/k scroll \(glyphs.separator) "
        : "",
      .dim)
    foot.append("other keys close \(glyphs.separator) verdicts history lists them too", .dim)
    foot.draw(
      into: &grid, x: inner.x + 1, y: inner.y + inner.height - 1, limit: inner.width - 2, ellipsis: glyphs.ellipsis)
  }

  /// The lines above the drains: the bar's legend and the chart of writes a second.
  func historyHead(_ drains: [DrainRecord], width: Int) -> [TextLine] {
    var legend = TextLine("bar: ", .dim)
    for (i, part) in Self.barParts.enumerated() {
      if i > 0 { legend.append(" ") }
      legend.append(String(repeating: barGlyph(i), count: 2), part.role)
      legend.append(" " + part.name, .dim)
    }
    let rates = drains.reversed().map { $0.writesPerSecond ?? 0 }
    let room = max(0, width - 28)
    var chart = TextLine("writes/s, oldest to newest ", .label)
    chart.append(Sparkline.draw(Array(rates.suffix(room)), ascii: state.ascii), .answered)
    if let top = rates.max(), top > 0 { chart.append(" max \(top.fixed(1))", .dim) }
    return [legend, chart]
  }

  /// The parts of a drain's bar, in order, with their roles.
  static let barParts: [(name: String, role: Role)] = [
    ("answered", .answered), ("held", .waiting), ("undelivered", .streak), ("unsent", .refused), ("unmade", .dead),
  ]

  /// The glyph of the bar's `i`-th part (told apart without colour too).
  func barGlyph(_ i: Int) -> String {
    state.ascii ? ["#", "=", ":", ".", ","][i] : ["█", "▓", "▒", "░", "·"][i]
  }

  /// One drain: its number, when it began, its bar, its counts, its pace and why it ended.
  func historyRow(_ d: DrainRecord) -> TextLine {
    let sep = " \(glyphs.separator) "
    let at = Timestamp.text(d.startedAt)
    let when = String(at.dropFirst(5).prefix(14)).replacing("T", with: " ")
    var line = TextLine("#\(d.number)".padding(6), .label)
    line.append(when + "  ", .dim)
    line = line + bar(d)
    line.append("  ")
    switch d.ending {
    case .finished: line.append("finished", .answered)
    case .unavailable: line.append("unavailable", .streak)
    case .stopped: line.append("stopped", .blocked)
    case .failed: line.append("failed", .dead)
    case .interrupted: line.append("interrupted", .streak)
    case .cutShort: line.append("cut short", .dead)
    case .open: line.append(d.endedAt == nil ? "running" : "open", .dim)
    }
    line.append(sep + "\(d.answered) answered")
    for (n, word) in [(d.held, "held"), (d.undelivered, "undelivered"), (d.unsent, "unsent"), (d.unmade, "unmade")]
    where n > 0 {
      line.append(", \(n) \(word)")
    }
    if let rate = d.writesPerSecond { line.append(sep + "\(rate.fixed(1)) w/s", .dim) }
    if let wait = d.retryAfterSeconds { line.append(sep + "retry after \(wait) s", .dim) }
    if let why = d.why, !why.isEmpty { line.append(sep + Sanitizer.clean(why, ascii: state.ascii), .dim) }
    line.append(sep + "by " + Sanitizer.clean(d.program.isEmpty ? "?" : d.program, ascii: state.ascii), .dim)
    if !d.mode.isEmpty { line.append(" " + Sanitizer.clean(d.mode, ascii: state.ascii), .dim) }
    return line
  }

  /// A drain's counts as a bar of ``historyBarWidth`` cells, each part its share (at least a
  /// cell for a part above zero); empty cells for a drain that came to nothing.
  func bar(_ d: DrainRecord) -> TextLine {
    let counts = [d.answered, d.held, d.undelivered, d.unsent, d.unmade]
    let total = counts.reduce(0, +)
    let width = historyBarWidth
    guard total > 0 else { return TextLine(String(repeating: " ", count: width)) }
    var cells = counts.map { $0 == 0 ? 0 : max(1, Int((Double($0) / Double(total) * Double(width)).rounded())) }
    // Fit to the width: the largest part gives or takes the difference.
    while cells.reduce(0, +) != width, let big = cells.indices.max(by: { cells[$0] < cells[$1] }) {
      let over = cells.reduce(0, +) - width
      if over > 0, cells[big] > 1 { cells[big] -= 1 } else if over < 0 { cells[big] += 1 } else { break }
    }
    var line = TextLine()
    for (i, n) in cells.enumerated() where n > 0 {
      line.append(String(repeating: barGlyph(i), count: n), Self.barParts[i].role)
    }
    let drawn = cells.reduce(0, +)
    if drawn < width { line.append(String(repeating: " ", count: width - drawn)) }
    return line
  }
}
