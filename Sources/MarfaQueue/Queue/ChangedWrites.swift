/// The writes that changed since a mark in the store's change log (``Queue/changed(since:)``).
public struct ChangedWrites: Sendable, Hashable {
  /// The changed writes the queue still holds, in send order, without bodies or answers (each
  /// read as empty), as ``Queue/summaries(_:cursor:limit:)`` reads them.
  public var writes: [QueuedWrite]
  /// The ids of changed writes the queue no longer holds (taken, forgotten, withdrawn,
  /// discarded).
  public var gone: [String]
  /// Where the log stood when it was read: pass it to the next call.
  public var mark: Int
  /// Why each gone write left, where the store recorded it.
  public var departures: [String: Departure]

  /// Creates a reading of the log.
  public init(writes: [QueuedWrite], gone: [String], mark: Int, departures: [String: Departure] = [:]) {
    self.writes = writes
    self.gone = gone
    self.mark = mark
    self.departures = departures
  }
}
