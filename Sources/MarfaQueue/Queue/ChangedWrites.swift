/// The writes that changed since a mark in the store's change log (``Queue/changed(since:)``).
public struct ChangedWrites: Sendable, Codable, Hashable {
  /// The changed writes the queue still holds, in send order, without bodies or answers (each
  /// read as empty), as ``Queue/summaries(_:cursor:limit:)`` reads them.
  public var writes: [QueuedWrite]
  /// The ids of changed writes the queue no longer holds (taken, forgotten, withdrawn,
  /// discarded).
  public var gone: [String]
  /// Where the log was read to: pass it to the next call.
  public var mark: Int
  /// Whether the log holds more after ``mark``: a backlog is read a page at a time, so call
  /// again at once with ``mark``.
  public var more: Bool
  /// Why each gone write left, where the store recorded it.
  public var departures: [String: Departure]

  /// Creates a reading of the log.
  public init(
    writes: [QueuedWrite], gone: [String], mark: Int, departures: [String: Departure] = [:], more: Bool = false
  ) {
    self.writes = writes
    self.gone = gone
    self.mark = mark
    self.departures = departures
    self.more = more
  }
}
