import FoundationEssentials

/// The two figures of a pane that a count does not give: when its longest-standing write entered
/// it, and the longest environmental streak among its writes. Read along the pane's order indexes
/// (``PaneOrder/age``, ``PaneOrder/streak``): one step down an index each, whatever the pane's size.
public struct PaneExtremes: Sendable, Hashable {
  /// When the write longest in the pane entered it, as the age order reads it: its answer (the
  /// verdict that put it in Answered, Blocked or Dead; a write blocked again by a later drain is
  /// as old as that drain's verdict), else its queueing (Waiting); nil for an empty pane or a time
  /// the store holds that is not a clock text.
  public var oldest: Date?
  /// The longest environmental streak among the pane's writes (0 for an empty pane).
  public var largestStreak: Int

  /// Creates the figures.
  public init(oldest: Date? = nil, largestStreak: Int = 0) {
    self.oldest = oldest
    self.largestStreak = largestStreak
  }
}

extension Queue {
  /// The pane's oldest write and largest streak (``PaneExtremes``), read without loading the
  /// pane: at a million writes it costs what an empty pane does.
  public func extremes(of pane: QueuePane) async throws -> PaneExtremes {
    _ = try copy
    return try await store.run { try $0.extremes(of: pane) }
  }
}
