import MarfaQueue

extension Renderer {
  /// A box centred on the screen, cleared, in the dialog role.
  func overlayBox(into grid: inout Grid, width: Int, height: Int, title: TextLine, danger: Bool = false) -> Rect {
    let w = min(width, state.width - 2)
    let h = min(height, state.height - 2)
    let r = Rect(x: (state.width - w) / 2, y: max(0, (state.height - 2 - h) / 2), width: w, height: h)
    grid.fill(r, role: danger ? .dialogDanger : .dialog)
    drawBox(into: &grid, r, title: title, focused: true)
    return r.inner
  }

  /// The help overlay: the keys for what is selected first, then every key, the glyph legend
  /// and the drain report's words; fits any screen from 40×10 (it scrolls), wraps rather than cuts.
  func drawHelp(into grid: inout Grid) {
    let twoColumns = state.width >= 120
    let boxWidth = twoColumns ? min(150, state.width - 2) : min(72, state.width - 2)
    let columnWidth = twoColumns ? (boxWidth - 2) / 2 : boxWidth - 2
    let lines = helpLines(width: columnWidth - 2)
    let rowsNeeded = twoColumns ? (lines.count + 1) / 2 : lines.count
    let boxHeight = min(rowsNeeded + 3, state.height - 2)
    let shown = max(1, boxHeight - 3)
    let scroll = min(state.helpScroll, max(0, rowsNeeded - shown))
    let position = TextLine("\(scroll + 1)\(glyphs.dash)\(min(rowsNeeded, scroll + shown)) of \(rowsNeeded)", .dim)
    let inner = overlayBox(into: &grid, width: boxWidth, height: boxHeight, title: TextLine("Keys", .titleFocus))
    // The position goes on the top border, right-aligned, when there is room.
    let frame = Rect(x: inner.x - 1, y: inner.y - 1, width: inner.width + 2, height: inner.height + 2)
    if frame.width > position.width + 10 {
      position.draw(into: &grid, x: frame.x + frame.width - 2 - position.width, y: frame.y, limit: position.width)
    }
    for (i, line) in lines.enumerated() {
      let column = twoColumns ? i / rowsNeeded : 0
      let row = (twoColumns ? i % rowsNeeded : i) - scroll
      guard row >= 0, row < shown else { continue }
      line.draw(
        into: &grid, x: inner.x + 1 + column * columnWidth, y: inner.y + row, limit: columnWidth - 1,
        ellipsis: glyphs.ellipsis)
    }
    if inner.height > shown {
      TextLine("j/k scroll \(glyphs.separator) other keys close", .dim).draw(
        into: &grid, x: inner.x + 1, y: inner.y + inner.height - 1, limit: inner.width - 1, ellipsis: glyphs.ellipsis)
    }
  }

  /// The help's lines wrapped to `width`: the keys that apply now, every other key, the glyph
  /// legend, and the words of a drain report.
  func helpLines(width: Int) -> [TextLine] {
    let keyWidth = width < 50 ? 10 : 15
    var lines: [TextLine] = []
    func text(_ t: TextLine) {
      for (i, part) in Self.wordWrap(t.plain, width: width - 2).enumerated() {
        lines.append(TextLine((i == 0 ? "" : "  ") + part, t.spans.first?.role ?? .dialog))
      }
    }
    /// A term in the left column and its meaning word-wrapped beside it; a term too long for
    /// the column gets a line of its own.
    func term(_ left: String, _ leftRole: Role, _ meaning: String, _ role: Role, column: Int) {
      var first = true
      if CharWidth.of(left) >= column {
        lines.append(TextLine(left, leftRole))
        first = false
      }
      for part in Self.wordWrap(meaning, width: max(8, width - column)) {
        var t = TextLine((first ? left : "").padding(column), leftRole)
        t.append(part, role)
        lines.append(t)
        first = false
      }
    }
    func entry(_ action: Action) {
      let keys = (state.keyMap.keys[action] ?? []).map(\.spelling).joined(separator: " ")
      let greyed = action.writes && state.readOnly
      term(
        keys.isEmpty ? "(none)" : keys, greyed ? .dim : .key, action.summary, greyed ? .dim : .dialog, column: keyWidth)
    }
    if let reason = state.readOnlyReason {
      text(TextLine("read-only: \(reason); greyed keys are refused", .statusError))
    }
    let now = writeActions()
    if !now.isEmpty {
      let what: String
      if state.detailFocused {
        what = "In the detail"
      } else if !state.marks.isEmpty {
        what = "For the \(state.marks.count) marked"
      } else if let w = state.selectedWrite {
        what = "For \(ShortID.of(w.id, ellipsis: glyphs.ellipsis)) (\(w.stateWords))"
      } else {
        what = "Now"
      }
      text(TextLine(what, .label))
      now.forEach(entry)
      lines.append(TextLine())
    }
    text(TextLine("Every key", .label))
    for action in Action.allCases where !now.contains(action) { entry(action) }
    lines.append(TextLine())
    text(TextLine("Glyphs", .label))
    let g = glyphs
    let legend: [(String, String, Role)] = [
      (g.waiting, "queued or sent, no verdict yet", .waiting), (g.held, "held: waiting on another write", .waiting),
      (g.accepted, "accepted", .answered), (g.merged, "merged (fields named)", .merged),
      (g.conflicted, "conflicted: the instance made a copy", .conflicted), (g.refused, "refused", .refused),
      (g.blocked, "blocked: needs a person (the reason says what)", .blocked),
      (g.dead, "dead: refused \(QueueLimits.ceiling) times", .dead), (g.mark, "marked for a bulk action", .key),
    ]
    for (glyph, words, role) in legend { term(glyph, role, words, .dialog, column: 3) }
    lines.append(TextLine())
    text(TextLine("A drain's report", .label))
    let words: [(String, String)] = [
      ("answered", "the instance answered, whatever the verdict"),
      ("held", "waited behind a write it depends on or follows that did not go this pass"),
      ("undelivered", "met an environmental failure (5xx, 408, 425, 429, no answer), or came after one"),
      (
        "unsent",
        "settled without a request: refused unsent by the drain (behind a refused or dead write, bytes gone, a delete with no version)"
      ),
      ("unmade", "its request could not be built (no URL for it); counted as a failure, tried again next drain"),
    ]
    for (word, meaning) in words { term(word, .key, meaning, .dialog, column: keyWidth) }
    return lines
  }

  func drawDialog(_ dialog: Dialog, into grid: inout Grid) {
    switch dialog {
    case .confirm(let pending): drawConfirm(pending, into: &grid)
    case .releaseReason(let selected): drawReasonMenu(selected, into: &grid)
    }
  }

  /// A confirmation: how many, the first few (as read from the store where the engine chooses
  /// them), then `and N more` only after them, what the action does and the keys.
  func drawConfirm(_ pending: PendingAction, into grid: inout Grid) {
    let n = pending.count
    let verb = pending.verb
    let listed = PendingAction.listedInDialog
    let role: Role = pending.destructive ? .dialogDanger : .dialog
    // What the action does and the keys always show, word-wrapped to the box: on a short screen
    // fewer writes are listed, never fewer words.
    var about: [String]
    // What can be put back says how (the archive keeps it whole); a withdraw cannot be.
    let undo = state.keyMap.hint(.undo) ?? "verdicts undo ID"
    switch pending {
    case .withdraw:
      about = [
        "Its row goes back as the instance holds it;", "writes waiting on it are refused.",
        "It cannot be put back; verdicts departed keeps its content.",
      ]
    case .discard: about = ["The write and the content it carried leave the queue;", "\(undo) puts it back."]
    case .release, .releaseReason: about = ["Each goes again on the next drain,", "under a fresh key."]
    case .forget: about = ["Their verdicts leave the queue;", "\(undo) puts them back."]
    case .fill:
      about = [
        "The copy is read again from the instance, every row;", "the queue is kept, and d drains after.",
      ]
    case .take(let answered):
      about = [
        "Every answered write that may be cleared", "(of the \(count(answered)) in Answered) leaves the queue;",
        "refused ones with content stay; \(undo) puts them back.",
      ]
    }
    about.append("y \(verb) \(glyphs.separator) any other key cancels")
    let textWidth = max(10, state.width - 5)
    about = about.flatMap { CharWidth.of($0) > textWidth ? Self.wordWrap($0, width: textWidth) : [$0] }
    var lines: [TextLine] = []
    // A screen too short for the words as well lists the writes and the keys alone.
    let room = max(1, state.height - 4 - (state.height - 4 >= about.count + 2 ? about.count : 1))
    let all = pending.engineChooses ? state.dialogExamples : Array(pending.ids.prefix(listed))
    if let all {
      let shown = Array(all.prefix(max(1, min(listed, room - (n > min(all.count, room) ? 1 : 0)))))
      for id in shown { lines.append(TextLine("  " + Sanitizer.clean(id), .dialogDanger)) }
      let more = n - shown.count
      if !shown.isEmpty, more > 0 {
        if case .take = pending {
          lines.append(TextLine("  and up to \(count(more)) more", .dialogDanger))
        } else {
          lines.append(TextLine("  and \(count(more)) more", .dialogDanger))
        }
      }
      if shown.isEmpty, case .take = pending {
        lines.append(TextLine("  none of the first answered may be cleared", .dialogDanger))
      }
    } else {
      lines.append(TextLine("  reading the first \(listed)\(glyphs.ellipsis)", .dim))
    }
    // Where even that is too tall (40×10), the words of what it does give way, whole, to the
    // list and the keys (help says what the action does).
    if lines.count + about.count > state.height - 4 { about = Array(about.suffix(1)) }
    lines += about.map { TextLine($0, role) }
    lines = lines.map { line in TextLine(line.spans.map { Span($0.text, role, $0.attributes) }) }
    let what = n == 1 ? "write" : "writes"
    var title = "\(verb.capitalized) \(count(n)) \(what)?"
    switch pending {
    case .take: title = "Take up to \(count(n)) answered \(what)?"
    case .fill(let from):
      let at = state.status?.fill == .expired ? "The copy expired" : "The copy's fill did not end"
      title = "\(at): fill it again" + (from.map { " from \(Sanitizer.clean($0))" } ?? "") + "?"
    case .releaseReason(let reason, let counted):
      title =
        counted == nil
        ? "Release every write blocked \(reason.wireName)?" : "Release \(count(n)) \(what) blocked \(reason.wireName)?"
    default: break
    }
    let width = min(state.width - 2, max(46, (lines.map(\.width).max() ?? 0) + 4, CharWidth.of(title) + 8))
    let inner = overlayBox(
      into: &grid, width: width, height: lines.count + 2,
      title: TextLine(title, role), danger: pending.destructive)
    for (i, l) in lines.enumerated() where i < inner.height {
      l.draw(into: &grid, x: inner.x + 1, y: inner.y + i, limit: inner.width - 1, ellipsis: glyphs.ellipsis)
    }
  }

  /// The `R` menu: the reasons that hold blocked writes, each with its count (every reason,
  /// `counting…`, until the counts arrive); fits from 40×10.
  func drawReasonMenu(_ selected: Int, into grid: inout Grid) {
    let reasons = state.reasonMenu
    let counts = state.reasonCounts
    let nameWidth = reasons.map { $0.wireName.count }.max() ?? 0
    let countWidth = counts.map { c in reasons.map { "\(c[$0] ?? 0)".count }.max() ?? 1 } ?? 0
    let rows: [String] = reasons.map { reason in
      let n = counts.map { "\($0[reason] ?? 0)" } ?? ""
      return
        "\(reason.menuKey) \(reason.wireName.padding(nameWidth))  \(String(repeating: " ", count: countWidth - n.count))\(n)"
    }
    let footer =
      counts == nil
      ? "counting\(glyphs.ellipsis)" : "enter/digit releases \(glyphs.separator) esc cancels"
    let width = max(rows.map(\.count).max() ?? 0, footer.count, 28) + 4
    let inner = overlayBox(
      into: &grid, width: width, height: reasons.count + 3, title: TextLine("Release blocked by reason", .titleFocus))
    let shown = max(1, inner.height - (reasons.count < inner.height ? 1 : 0))
    let top = max(0, min(selected - shown + 1, reasons.count - shown))
    for (i, text) in rows.enumerated().dropFirst(top).prefix(shown) {
      let y = inner.y + i - top
      TextLine(text, .dialog).draw(into: &grid, x: inner.x + 1, y: y, limit: inner.width - 1, ellipsis: glyphs.ellipsis)
      if i == selected { grid.paint(Rect(x: inner.x, y: y, width: inner.width, height: 1), role: .selected) }
    }
    if reasons.count < inner.height {
      grid.put(footer, x: inner.x + 1, y: inner.y + inner.height - 1, role: .dim, limit: inner.width - 1)
    }
  }
}
