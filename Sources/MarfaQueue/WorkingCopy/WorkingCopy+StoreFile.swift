#if canImport(Glibc)
  import Glibc
#endif

extension WorkingCopy {
  /// Whether the store file this copy opened is still the one at its path (one `stat`; reads
  /// and writes nothing). A watcher asks it to notice a store deleted, moved or replaced under it.
  public func storeFileState() -> StoreFileState {
    guard let opened = store.identity else { return .same }
    guard let now = StorePath.identity(store.path) else { return .removed }
    return now == opened ? .same : .replaced
  }

  /// One element each time a store file is closed after writing, made, deleted or moved (a writer
  /// came or went, the store was removed or replaced), so a watcher asks then and not on a
  /// timer; nil where the files cannot be watched (no inotify, or a writer's copy).
  public func storeFileEvents() -> AsyncStream<Void>? {
    fileWatchers.available.withLock { $0 } ? fileWatchers.stream() : nil
  }

  /// The wait after the back-off with inotify: none (-1), the reader waits for an event. Every
  /// commit writes the WAL, which wakes it; events the kernel could not queue say so
  /// (`IN_Q_OVERFLOW`, heard as a write). A look once a minute, the safety net it was, woke an
  /// idle watcher's threads every minute for nothing.
  static let idlePollMs = -1
  /// The same without inotify: the timer is all there is.
  static let timerPollMs = 200
  /// With inotify, polls back off by doubling up to this, then wait for an event alone
  /// (``idlePollMs``). A commit shows a moment after its WAL write (the index is in shared
  /// memory, which inotify does not see): well within a second, which the looks of the back-off
  /// cover. An idle watcher is then woken by nothing of its own.
  static let pollRampMs = 1_600

  /// The wait before the next poll at `PRAGMA data_version` when the last one found nothing
  /// (-1: none, wait for an event).
  static func nextPoll(after ms: Int, inotify: Bool) -> Int {
    guard inotify else { return min(max(ms, 1) * 2, timerPollMs) }
    return ms < 0 || ms >= pollRampMs ? idlePollMs : min(ms * 2, pollRampMs)
  }

  /// The back-off of ``followSaves(from:)``: 50 ms after a save, then ``nextPoll(after:inotify:)``.
  static let savePace = SavePace(afterSave: { _ in 50 }, next: { nextPoll(after: $0, inotify: $1) })

  /// Follows the writer's commits into `.saved` changes (a ``SaveFollower`` looking at
  /// `PRAGMA data_version`, backing off by ``savePace``) and tells ``storeFileEvents()``
  /// listeners of the other events.
  func followSaves(from start: Int) -> Task<Void, Never> {
    let store = self.store
    let hub = self.hub
    let watchers = self.fileWatchers
    let saveWatch = SaveWatch(storePath: store.path)
    watchers.available.withLock { $0 = saveWatch != nil }
    let follower = SaveFollower(
      watch: saveWatch, pace: Self.savePace, start: start,
      poll: { (try? await store.run { try $0.dataVersion() }).map { .seen($0) } ?? .unread },
      tell: { hub.send(.saved(dataVersion: $0)) },
      heardFiles: { watchers.tell() })
    return Task.detached {
      defer { watchers.finish() }
      await follower.run()
    }
  }
}
