import FoundationEssentials
import MarfaQueue

/// Moving to a write by ID: `:` (a typed ID), `J` (the write the selected one waits on) and
/// `backspace` (back along the trail those left).
extension UIState {
  /// Goes to the write a typed ID names (full, shown, or a unique part of 6+ characters).
  mutating func goto(_ typed: String) -> [UIEffect] {
    let id = typed.trimmingSpaces()
    guard !id.isEmpty else { return refuse("go to: no ID was typed") }
    gotoFrom = selectedWrite?.id
    message = StatusMessage("going to \(id)…")
    return [.goto(id)]
  }

  /// Goes to the write the selected one waits on (`follows`, else its first dependency).
  mutating func jump() -> [UIEffect] {
    guard let w = selectedWrite else { return refuse("jump: nothing selected") }
    guard let on = w.follows ?? w.dependsOn.first else {
      return refuse("jump: \(ShortID.of(w.id)) waits on no write")
    }
    gotoFrom = w.id
    message = StatusMessage("jumping to \(ShortID.of(on))…")
    return [.goto(on)]
  }

  /// Returns to the write the last jump or go-to left.
  mutating func back() -> [UIEffect] {
    guard let id = trail.popLast() else { return refuse("back: no jump or go-to to return from") }
    gotoFrom = nil
    message = StatusMessage("back to \(ShortID.of(id))…")
    return [.goto(id)]
  }

  /// Selects the write a go-to found, focusing its pane; says so when the filter hides it.
  mutating func wentTo(id: String, pane: QueuePane?, index: Int?) -> [UIEffect] {
    let from = gotoFrom
    gotoFrom = nil
    guard let pane, let index else {
      return refuse("\(ShortID.of(id)) is hidden by the filter (\(keyMap.hint(.clear) ?? "esc") clears it)")
    }
    if let from, from != id { trail.append(from) }
    endDetailHold()
    focus = pane
    detailFocused = false
    detailScroll = 0
    self[pane].selected = index
    var effects = relayout()
    keepSelectionVisible(pane)
    let back = trail.isEmpty ? "" : " (\(keyMap.hint(.back) ?? "backspace") returns)"
    message = StatusMessage("at \(ShortID.of(id)) in \(pane.title)\(back)")
    let reading = effects.contains { if case .reload(pane, _, _) = $0 { return true } else { return false } }
    if self[pane].selectedWrite?.id != id, !reading {
      effects.append(.reload(pane, offset: readOffset(pane), limit: pageLimit(pane)))
    }
    return effects
  }

  /// A go-to's ID named a row, not a write: one write naming it is selected; several are the
  /// choice, shown as the filter `row:<id>` (every pane narrowed to them, the first pane holding
  /// one focused), `esc` clearing it.
  mutating func rowNamed(_ row: String, writes: Int, first pane: QueuePane, id: String) -> [UIEffect] {
    if writes == 1 {
      // Its pane and index under the filter are asked of the store, as for a write's ID.
      message = StatusMessage("\(row) is a row; going to the one write naming it, \(ShortID.of(id))…")
      return [.goto(id)]
    }
    gotoFrom = nil
    if let from = selectedWrite?.id { trail.append(from) }
    var effects = applyFilter("row:\(row)")
    effects += focusPane(pane)
    let more = writes >= 200 ? "200 or more" : "\(writes)"
    message = StatusMessage(
      "\(row) is a row; \(more) writes name it: filter row:\(row) shows them (\(keyMap.hint(.clear) ?? "esc") clears it)"
    )
    return effects
  }
}
