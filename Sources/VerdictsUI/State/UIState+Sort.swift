import MarfaQueue

/// Ordering a pane (`s`) and Blocked grouped by reason: each pane keeps its own order for the
/// session; the selection stays on the same write after a re-sort, found again in the new order.
extension UIState {
  /// Whether a pane is drawn grouped by blocked reason: Blocked ordered by reason.
  public func grouped(_ pane: QueuePane) -> Bool { pane == .blocked && self[pane].order == .reason }

  /// The index a pane's page reads from: its first shown row, or the row before it when grouped
  /// (a row starts a group when the one before holds another reason).
  func readOffset(_ pane: QueuePane) -> Int { grouped(pane) ? max(0, self[pane].top - 1) : self[pane].top }

  /// `s`: the focused pane's next order; the selected write is found again in it.
  mutating func cycleOrder() -> [UIEffect] {
    let pane = focus
    let order = self[pane].order.next
    self[pane].order = order
    message = StatusMessage(
      "\(pane.title) by \(order.title)" + (grouped(pane) ? ", in groups" : "")
        + " (\(keyMap.hint(.sort) ?? "s") for the next order)")
    var effects: [UIEffect] = grouped(pane) ? [.countReasons] : []
    if let id = self[pane].selectedWrite?.id {
      effects.append(.reorder(pane, id))
    } else {
      effects += reordered(id: nil, pane: pane, index: nil)
    }
    return effects
  }

  /// Where the selected write sits in its pane's new order (nil: it left the pane, or nothing
  /// was selected): selected there, and the page read again in the new order.
  mutating func reordered(id: String?, pane: QueuePane, index: Int?) -> [UIEffect] {
    var p = self[pane]
    // The loaded rows are in the old order: dropped, so no key acts on a write the screen no
    // longer shows at that place.
    p.writes = []
    p.offset = 0
    p.selected = index ?? 0
    if index == nil { p.top = 0 }
    self[pane] = p
    clampSelection(pane)
    keepSelectionVisible(pane)
    if pane == focus { detailScroll = 0 }
    return [.reload(pane, offset: readOffset(pane), limit: pageLimit(pane))]
  }
}
