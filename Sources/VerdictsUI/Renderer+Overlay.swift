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

  /// Every action with its keys; write actions greyed in read-only mode, with the reason.
  func drawHelp(into grid: inout Grid) {
    let actions = Action.allCases
    let twoColumns = state.width >= 76
    let rowsNeeded = twoColumns ? (actions.count + 1) / 2 : actions.count
    let extra = state.readOnly ? 2 : 1
    let inner = overlayBox(
      into: &grid, width: twoColumns ? min(100, state.width - 2) : 44, height: rowsNeeded + extra + 2,
      title: TextLine("Keys", .titleFocus) + TextLine(" (j/k scroll, any other key closes)", .dim))
    var y = inner.y
    if let reason = state.readOnlyReason {
      grid.put("read-only: \(reason); greyed keys are refused", x: inner.x + 1, y: y, role: .statusError, limit: inner.width - 1)
      y += 1
    }
    let columnWidth = twoColumns ? inner.width / 2 : inner.width
    let shown = inner.y + inner.height - y
    let scroll = min(state.helpScroll, max(0, rowsNeeded - shown))
    for (i, action) in actions.enumerated() {
      let column = twoColumns ? i / rowsNeeded : 0
      let row = (twoColumns ? i % rowsNeeded : i) - scroll
      guard row >= 0, y + row < inner.y + inner.height else { continue }
      let keys = (state.keyMap.keys[action] ?? []).map(\.spelling).joined(separator: " ")
      let greyed = action.writes && state.readOnly
      let keyWidth = state.width < 60 ? 9 : (twoColumns && state.width < 100 ? 11 : 16)
      var t = TextLine(fit(keys.isEmpty ? "(none)" : keys, keyWidth - 1).padding(keyWidth), greyed ? .dim : .key)
      t.append(action.summary, greyed ? .dim : .dialog)
      t.draw(into: &grid, x: inner.x + 1 + column * columnWidth, y: y + row, limit: columnWidth - 2, ellipsis: glyphs.ellipsis)
    }
  }

  func drawDialog(_ dialog: Dialog, into grid: inout Grid) {
    switch dialog {
    case .confirm(let pending): drawConfirm(pending, into: &grid)
    case .releaseReason(let selected): drawReasonMenu(selected, into: &grid)
    }
  }

  func drawConfirm(_ pending: PendingAction, into grid: inout Grid) {
    let n = pending.ids.count
    let verb = pending.verb
    var lines: [TextLine] = []
    for id in pending.ids.prefix(3) { lines.append(TextLine("  " + id, .dialogDanger)) }
    if n > 3 { lines.append(TextLine("  and \(n - 3) more", .dialogDanger)) }
    switch pending {
    case .withdraw:
      lines.append(TextLine("Its row goes back as the instance holds it;", .dialogDanger))
      lines.append(TextLine("writes waiting on it are refused. No undo.", .dialogDanger))
    case .discard:
      lines.append(TextLine("The write and the content it carried go.", .dialogDanger))
      lines.append(TextLine("No undo.", .dialogDanger))
    }
    lines.append(TextLine("y \(verb) \(glyphs.separator) any other key cancels", .dialogDanger))
    let width = min(state.width - 2, max(46, (lines.map(\.width).max() ?? 0) + 4))
    let inner = overlayBox(
      into: &grid, width: width, height: lines.count + 2,
      title: TextLine("\(verb.capitalized) \(n) write\(n == 1 ? "" : "s")?", .dialogDanger), danger: true)
    for (i, l) in lines.enumerated() where i < inner.height {
      l.draw(into: &grid, x: inner.x + 1, y: inner.y + i, limit: inner.width - 1, ellipsis: glyphs.ellipsis)
    }
  }

  func drawReasonMenu(_ selected: Int, into grid: inout Grid) {
    let reasons = BlockedReason.allCases
    let inner = overlayBox(
      into: &grid, width: 46, height: reasons.count + 3,
      title: TextLine("Release every write blocked…", .titleFocus))
    for (i, reason) in reasons.enumerated() where i < inner.height {
      let y = inner.y + i
      TextLine("\(i + 1) \(reason.wireName)", .dialog).draw(into: &grid, x: inner.x + 1, y: y, limit: inner.width - 1)
      if i == selected { grid.paint(Rect(x: inner.x, y: y, width: inner.width, height: 1), role: .selected) }
    }
    if reasons.count < inner.height {
      grid.put("enter or 1-6 releases · esc cancels", x: inner.x + 1, y: inner.y + reasons.count, role: .dim, limit: inner.width - 1)
    }
  }
}
