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

  /// The longest wait between two polls at `PRAGMA data_version` while nothing happens, with
  /// inotify (a poll is a safety net: every commit writes the WAL, which wakes the reader).
  static let idlePollMs = 60_000
  /// The same without inotify: the timer is all there is.
  static let timerPollMs = 200
  /// With inotify, polls back off by doubling only up to this; the next is ``idlePollMs`` away.
  /// A commit shows a moment after its WAL write (the index is in shared memory, which inotify
  /// does not see): well within a second, so polls further apart than that would only catch a
  /// lost event, and one a minute does. An idle watcher is then woken by nothing of its own.
  static let pollRampMs = 1_600

  /// The wait before the next poll at `PRAGMA data_version` when the last one found nothing.
  static func nextPoll(after ms: Int, inotify: Bool) -> Int {
    guard inotify else { return min(ms * 2, timerPollMs) }
    return ms >= pollRampMs ? idlePollMs : min(ms * 2, pollRampMs)
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
