import MarfaQueue

/// Blocked grouped by reason (Blocked ordered by reason): the first row of each group carries
/// the reason and how many writes it holds (`key_spent (12) ┐`), the rows after it a bar at the
/// right edge (`key_spent │`), so each group reads as one bracket. One row per write, so
/// selection, scrolling, paging and clicks count rows as in every other order.
extension Renderer {
  /// The right-hand text of a row of a grouped pane; nil when the pane is not grouped.
  func groupText(_ pane: QueuePane, _ w: QueuedWrite, at index: Int) -> TextLine? {
    guard state.grouped(pane), let reason = w.verdict?.blockedReason else { return nil }
    let p = state[pane]
    // The row before is read with the page (``UIState/readOffset(_:)``); unknown, it is taken
    // as the same group.
    let first = index == 0 || p.write(at: index - 1).map { $0.verdict?.blockedReason != reason } ?? false
    var t = TextLine()
    t.append(reason.wireName, .blocked, first ? .bold : [])
    if first { t.append(" (\(state.reasonCounts?[reason].map(count) ?? unknownCount))", .label) }
    if w.environmentalStreak > 0 { t.append(" streak \(w.environmentalStreak)", .streak) }
    if let f = w.lastFailure, let status = f.status { t.append(" \(status)", Role.http(status)) }
    t.append(" " + (first ? glyphs.topRight : glyphs.vertical), .border)
    return t
  }
}
