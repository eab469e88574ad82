import MarfaQueue

extension Renderer {
  func paneTitle(_ pane: QueuePane, focused: Bool) -> TextLine {
    let p = state[pane]
    var t = TextLine()
    t.append(pane.title, focused ? .titleFocus : .title)
    // A count not read yet is `…`, never `0`.
    let shown = p.loaded ? count(p.total) : unknownCount
    if state.filter == nil { t.append(" \(shown)", focused ? .titleFocus : .title) }
    // The refused among the answered, which a tail of accepted ones hides: `Answered 601 · 1 refused`.
    if pane == .answered, state.filter == nil, let refused = state.status?.refused, refused > 0 {
      t.append(" \(glyphs.separator) \(count(refused)) refused", .refused)
    }
    if state.filter != nil {
      // How many the filter let through of how many the pane holds: `(12 of 300)`.
      let all = state.status.map { count($0.counts[pane]) } ?? unknownCount
      t.append(" (\(shown) of \(all))", .dim)
    }
    // The order, when not the send order (`s` cycles it).
    if p.order != .sendOrder { t.append(" \(glyphs.separator) by \(p.order.title)", .dim) }
    return t
  }

  func paneRange(_ pane: QueuePane, rows: Int) -> TextLine? {
    let p = state[pane]
    guard p.total > rows, rows > 0 else { return nil }
    let last = min(p.total, p.top + rows)
    return TextLine("\(count(p.top + 1))\(glyphs.dash)\(count(last)) of \(count(p.total))", .dim)
  }

  /// A count not known yet: `…` (`...` in ASCII), never `0`.
  var unknownCount: String { state.ascii ? "..." : "…" }

  /// A count with thousands separated: `1,000,000`.
  func count(_ n: Int) -> String {
    let s = String(n)
    guard s.count > 3 else { return s }
    var out = ""
    for (i, c) in s.reversed().enumerated() {
      if i > 0, i % 3 == 0 { out.append(",") }
      out.append(c)
    }
    return String(out.reversed())
  }

  func drawPane(_ pane: QueuePane, _ frame: Layout.Frame, into grid: inout Grid) {
    let focused = pane == state.focus && !state.detailFocused
    let title = paneTitle(pane, focused: pane == state.focus)
    let range = paneRange(pane, rows: frame.list.height)
    if frame.boxed {
      drawBox(into: &grid, frame.outer, title: title, right: range, focused: focused)
    } else if layout.mode == .stack {
      drawRule(into: &grid, frame.outer, title: title, right: range, focused: focused)
    }
    drawList(pane, frame.list, focused: focused, into: &grid)
  }

  func drawList(_ pane: QueuePane, _ r: Rect, focused: Bool, into grid: inout Grid) {
    let p = state[pane]
    guard r.height > 0, r.width > 0 else { return }
    if !p.loaded {
      grid.put("reading…", x: r.x + 1, y: r.y, role: .dim, limit: r.width - 1)
      return
    }
    if p.total == 0 {
      grid.put(
        state.filter == nil ? "none" : "none match the filter", x: r.x + 1, y: r.y, role: .dim, limit: r.width - 1)
      return
    }
    for row in 0..<r.height {
      let index = p.top + row
      guard index < p.total else { break }
      let y = r.y + row
      guard p.rowsInOrder, let w = p.write(at: index) else {
        grid.put("…", x: r.x + 1, y: y, role: .dim, limit: r.width - 1)
        continue
      }
      let selected = index == p.selected && pane == state.focus
      listRow(w, width: r.width, right: groupText(pane, w, at: index)).draw(
        into: &grid, x: r.x, y: y, limit: r.width, ellipsis: glyphs.ellipsis)
      if selected { grid.paint(Rect(x: r.x, y: y, width: r.width, height: 1), role: .selected) }
    }
  }

  /// One write as a list row: glyph, mark, id, kind, rows, and what the pane says of it.
  func listRow(_ w: QueuedWrite, width: Int, right: TextLine? = nil) -> TextLine {
    var line = TextLine()
    let fresh = state.fresh.contains(w.id)
    line.append(VerdictText.glyph(w, glyphs), VerdictText.role(w), fresh ? .reverse : [])
    line.append(state.marks.contains(w.id) ? glyphs.mark : " ", .marked)
    line.append(ShortID.of(w.id, ellipsis: glyphs.ellipsis).padding(ShortID.width), .text, fresh ? .bold : [])
    line.append(" ")
    let rest = max(0, width - line.width)
    let kindWidth = min(16, max(6, rest / 3))
    line.append(fit(w.kindWords, kindWidth).padding(kindWidth), .label)
    line.append(" ")
    let right = right ?? paneText(w)
    let rowsRoom = max(0, width - line.width - right.width - 1)
    if rowsRoom >= 4 {
      line.append(fit(rowsText(w), rowsRoom).padding(rowsRoom), .dim)
      line.append(" ")
    } else if width - line.width - right.width > 0 {
      line.append(String(repeating: " ", count: width - line.width - right.width))
    }
    return line + right
  }

  /// What a pane says of a write: why it waits, the verdict, the blocked reason and streak, the refusals.
  func paneText(_ w: QueuedWrite) -> TextLine {
    var t = TextLine()
    switch w.verdict {
    case nil:
      if let f = w.lastFailure, !w.waiting {
        t.append("undelivered", .waiting)
        t.append(" " + (f.status.map(String.init) ?? "no answer"), Role.http(f.status))
      } else {
        t.append(VerdictText.waitingText(w, ellipsis: glyphs.ellipsis), .waiting)
      }
      if w.environmentalStreak > 0 { t.append(" streak \(w.environmentalStreak)", .streak) }
    case .accepted: t.append("accepted", .answered)
    case .merged(let fields): t.append("merged" + (fields.isEmpty ? "" : " " + fields.joined(separator: ",")), .merged)
    case .conflicted(let sibling, _):
      t.append("conflicted \(glyphs.arrow) \(ShortID.of(sibling, ellipsis: glyphs.ellipsis))", .conflicted)
    case .refused(let r): t.append("refused: \(r.reason)", .refused)
    case .blocked(let reason, _):
      t.append(reason.wireName, .blocked)
      if w.environmentalStreak > 0 { t.append(" streak \(w.environmentalStreak)", .streak) }
      if let f = w.lastFailure, let status = f.status { t.append(" \(status)", Role.http(status)) }
    case .dead:
      t.append("dead", .dead)
      t.append(" \(w.refusals) refusals", .refused)
    }
    return t
  }

  func httpSpan(_ status: Int?) -> TextLine {
    TextLine(status.map { "HTTP \($0)" } ?? "no answer", Role.http(status))
  }

  /// The rows a write names, with the arrow drawn in the glyph set.
  func rowsText(_ w: QueuedWrite) -> String {
    RowName.words(w.rowNames, arrow: glyphs.arrow)
  }

  /// Text cut to a width with the ellipsis glyph.
  func fit(_ text: String, _ width: Int) -> String {
    let clean = Sanitizer.clean(text)
    guard CharWidth.of(clean) > width else { return clean }
    guard width > 0 else { return "" }
    var out = ""
    var used = 0
    for ch in clean {
      let w = max(0, CharWidth.of(ch))
      if used + w > width - 1 { break }
      out.append(ch)
      used += w
    }
    return out + glyphs.ellipsis
  }

  func drawTabs(into grid: inout Grid, _ r: Rect) {
    let short = ["Wait", "Ans", "Blk", "Dead"]
    func make(_ long: Bool) -> TextLine {
      var t = TextLine()
      for pane in QueuePane.allCases {
        if pane.rawValue > 0 { t.append(" \(glyphs.vertical) ", .border) }
        let name = long ? pane.title : short[pane.rawValue]
        let role: Role = pane == state.focus ? .titleFocus : .title
        let shown = state[pane].loaded ? count(state[pane].total) : unknownCount
        t.append("\(pane.rawValue + 1) \(name) \(shown)", role)
      }
      return t
    }
    let long = make(true)
    (long.width <= r.width ? long : make(false)).draw(
      into: &grid, x: r.x, y: r.y, limit: r.width, ellipsis: glyphs.ellipsis)
  }
}
