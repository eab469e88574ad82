import MarfaQueue

/// Blocked grouped by reason (Blocked ordered by reason): the first row of each group carries
/// the reason and how many writes it holds (`┌ key_spent 12`), the rows after it a bar
/// (`│ key_spent`). One row per write, so selection, scrolling, paging and clicks count rows as
/// in every other order.
extension Renderer {
  /// The right-hand text of a row of a grouped pane; nil when the pane is not grouped.
  func groupText(_ pane: QueuePane, _ w: QueuedWrite, at index: Int) -> TextLine? {
    guard state.grouped(pane), let reason = w.verdict?.blockedReason else { return nil }
    let p = state[pane]
    // The row before is read with the page (``UIState/readOffset(_:)``); unknown, it is taken
    // as the same group.
    let first = index == 0 || p.write(at: index - 1).map { $0.verdict?.blockedReason != reason } ?? false
    var t = TextLine()
    if first {
      let n = state.reasonCounts?[reason].map(count) ?? unknownCount
      t.append(glyphs.topLeft + " ", .border)
      t.append(reason.wireName, .blocked, .bold)
      t.append(" \(n)", .label)
    } else {
      t.append(glyphs.vertical + " ", .border)
      t.append(reason.wireName, .blocked)
    }
    if w.environmentalStreak > 0 { t.append(" streak \(w.environmentalStreak)", .streak) }
    if let f = w.lastFailure, let status = f.status { t.append(" \(status)", Role.http(status)) }
    return t
  }
}
