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

  /// The longest wait between two looks at `PRAGMA data_version` while nothing happens, with
  /// inotify (a look is a safety net: every commit writes the WAL, which wakes the reader).
  static let idleLookMs = 60_000
  /// The same without inotify: the timer is all there is.
  static let timerLookMs = 200
  /// With inotify, looks back off by doubling only up to this; the next is ``idleLookMs`` away.
  /// A commit shows a moment after its WAL write (the index is in shared memory, which inotify
  /// does not see): well within a second, so looks further apart than that would only catch a
  /// lost event, and one a minute does. An idle watcher is then woken by nothing of its own.
  static let lookRampMs = 1_600

  /// The wait before the next look at `PRAGMA data_version` when the last one found nothing.
  static func nextLook(after ms: Int, inotify: Bool) -> Int {
    guard inotify else { return min(ms * 2, timerLookMs) }
    return ms >= lookRampMs ? idleLookMs : min(ms * 2, lookRampMs)
  }

  /// Follows the writer's commits into `.saved` changes: woken by ``SaveWatch`` when a store
  /// file is written, with a few quick looks after (a commit is visible a moment after its
  /// bytes) and looks backing off from 25 ms after each write heard, and otherwise on a timer that
  /// backs off from 50 ms to ``lookRampMs`` and then waits ``idleLookMs`` (to
  /// ``timerLookMs`` without inotify); it looks no sooner than ``SaveWatch/savedGap`` after telling of a save. Tells ``storeFileEvents()`` listeners of the other events.
  func followSaves(from start: Int) -> Task<Void, Never> {
    let store = self.store
    let hub = self.hub
    let watchers = self.fileWatchers
    let saveWatch = SaveWatch(storePath: store.path)
    watchers.available.withLock { $0 = saveWatch != nil }
    return Task.detached {
      var watch = saveWatch
      defer { watchers.finish() }
      var last = start
      var idleMs = 50
      var quickLooks = 0
      var lastTold: ContinuousClock.Instant?
      while !Task.isCancelled {
        if let w = watch {
          let heard = await withTaskCancellationHandler {
            await w.wait(timeoutMs: quickLooks > 0 ? 5 : idleMs)
          } onCancel: {
            w.stop()
          }
          if heard.contains(.files) { watchers.tell() }
          if heard.contains(.lost) { watch = nil }
          if !heard.isEmpty {
            // A commit is visible once the writer updates the WAL index (shared memory, which
            // inotify does not see): look again soon, backing off from 25 ms, not from where the
            // idle backoff had got to.
            quickLooks = 4
            idleMs = 25
          } else if quickLooks > 0 {
            quickLooks -= 1
          }
        } else {
          try? await Task.sleep(nanoseconds: UInt64(idleMs) * 1_000_000)
          // Without inotify, a listener asks on this timer.
          watchers.tell()
        }
        if Task.isCancelled { break }
        await SaveWatch.rest(after: lastTold)
        guard let now = try? await store.run({ try $0.dataVersion() }) else { continue }
        if now != last {
          last = now
          hub.send(.saved(dataVersion: now))
          idleMs = 50
          quickLooks = 0
          lastTold = .now
        } else if quickLooks == 0 {
          idleMs = Self.nextLook(after: idleMs, inotify: watch != nil)
        }
      }
    }
  }
}
