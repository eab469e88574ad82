import MarfaQueue

/// A Marfa core store shown with the same panes, detail and line mode as this project's stores.
/// It is only read: each action is refused with the `marfa` command that does it.
extension CoreStore: QueueSource {
  /// The instance the core filled the copy from (never a key: the core keeps none).
  public var instanceURL: String? { origin }

  /// A page in `order`: the core's store is read in send order and sorted here (it has no
  /// `environmental_streak`, so the streak order is the send order).
  public func page(_ pane: QueuePane, offset: Int, limit: Int, filter: String?, order: PaneOrder) async throws
    -> QueuePage
  {
    try readPage(pane, offset: offset, limit: limit, filter: filter, order: order)
  }

  public func status() async throws -> Status { try readStatus() }
  public func write(_ id: String) async throws -> QueuedWrite { try readWrite(id: id) }

  public func release(_ id: String) async throws -> Bool { throw refusal("release", [id]) }
  public func release(reason: BlockedReason) async throws -> Int {
    throw refusal("release", ["--reason", reason.wireName])
  }
  public func release(ids: [String]) async throws -> [ReleaseOutcome] { throw refusal("release", ids) }
  public func withdraw(_ id: String) async throws -> Bool { throw refusal("withdraw", [id]) }
  public func discard(_ id: String) async throws -> Bool { throw refusal("discard", [id]) }
  public func undo(_ id: String) async throws -> UndoOutcome {
    throw QueueError.readingHandle(reason: "a Marfa core store keeps no archive of writes that left")
  }
  public func takeAnswered() async throws -> [QueuedWrite] { throw refusal("forget") }
  public func forgetAnswered(ids: [String]) async throws -> Int { throw refusal("forget", ids) }
  public func drain() async throws -> DrainReport { throw refusal("drain") }
  public func useKey(_ key: String) async throws { throw refusal("drain") }
  public func fill() async throws { throw refusal("drain") }

  /// The core store has no `updates()`: its owner drains it.
  public func updates() -> AsyncStream<Update> { AsyncStream { $0.finish() } }
}
