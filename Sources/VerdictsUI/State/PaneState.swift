import MarfaQueue

/// One pane's place in the store: its total, the loaded page, the selection and the scroll.
package struct PaneState: Sendable, Hashable {
  /// Which pane.
  public var pane: QueuePane
  /// How many writes the pane holds (under the filter).
  public var total = 0
  /// The index of `writes[0]` within the pane.
  public var offset = 0
  /// The loaded page (only the visible rows and a little more; never the whole pane).
  public var writes: [QueuedWrite] = []
  /// The selected write's index within the pane.
  public var selected = 0
  /// The first visible index.
  public var top = 0
  /// Whether a page was ever loaded.
  public var loaded = false
  /// How the pane is ordered (`s` cycles it; kept for the session, not saved).
  public var order: PaneOrder = .sendOrder
  /// The order the loaded rows were read in. Until a page in ``order`` comes after `s`, the rows
  /// are not drawn (the title must never name an order its rows are not in); the selection still
  /// names the same write, so keys act on it.
  public var rowsOrder: PaneOrder = .sendOrder

  /// Whether the loaded rows are in the pane's order.
  public var rowsInOrder: Bool { rowsOrder == order }

  /// Creates an empty pane.
  public init(pane: QueuePane) { self.pane = pane }

  /// The selected write, when it is loaded.
  public var selectedWrite: QueuedWrite? { write(at: selected) }

  /// The write at an index within the pane, when it is loaded.
  public func write(at index: Int) -> QueuedWrite? {
    let i = index - offset
    return writes.indices.contains(i) ? writes[i] : nil
  }

  /// Whether every index from `top` for `rows` rows is loaded.
  func covers(top: Int, rows: Int) -> Bool {
    let end = min(total, top + rows)
    return loaded && top >= offset && end <= offset + writes.count
  }
}
