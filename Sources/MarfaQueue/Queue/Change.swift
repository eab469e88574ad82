/// Something that happened to the working copy, sent to every `changes()` stream.
public enum Change: Sendable, Codable, Hashable {
  /// A write of this kind was queued.
  case local(WriteKind)
  /// A drain read an answer into a verdict.
  case answered(DrainVerdict)
  /// The queue was changed by a call; streams re-read.
  case refreshed(Refresh)
  /// Another process (the writer) committed; a reader re-reads.
  case saved(dataVersion: Int)
  /// The instance answered again after being unreachable.
  case serverReachable
  /// The instance could not be reached.
  case serverUnreachable
  /// A drain was stopped by a refused key.
  case stopped(String)

  /// Why a stream should re-read.
  public enum Refresh: String, Sendable, Hashable, Codable {
    case forgotten, withdrawn, released, drained, filled, caughtUp = "caught_up", keyChanged = "key_changed"
    /// A departed write was put back (``Queue/undo(_:)``).
    case restored
  }

  /// Whether this change may have touched the queue.
  public var touchesQueue: Bool {
    switch self {
    case .serverReachable, .serverUnreachable: return false
    default: return true
    }
  }
}

/// What a held `updates()` sequence reports.
public enum Update: Sendable, Codable, Hashable {
  /// The instance's reachability changed.
  case reachable(Bool)
  /// A drain ran.
  case drained(DrainReport)
  /// A drain could not run.
  case failed(QueueError)
  /// The next attempt is in this many seconds.
  case retrying(inSeconds: Int)
}

/// A query whose results follow the store.
public enum LiveQuery: Sendable, Hashable {
  /// The whole queue, re-read on every change that touches it.
  case queue
  /// The pane counts, re-read on every change that touches the queue.
  case counts
}

/// One result of a live query.
public enum LiveResult: Sendable, Hashable {
  case queue([QueuedWrite])
  case counts(QueueCounts)
}
