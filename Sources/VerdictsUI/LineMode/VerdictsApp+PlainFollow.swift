import FoundationEssentials
import MarfaQueue

extension VerdictsApp {
  /// `watch --plain` as the command runs it: ``watchPlain(source:emit:clock:ascii:json:writerLines:from:)``
  /// on the store, following the file at its path as the screen's watcher does. A store deleted
  /// is said (`store removed at 09:41:02; waiting for it`); when a file is at the path again (made
  /// anew, or another moved over it) it is said (`store made again at 09:41:05; reading it from
  /// the start`) and the new file is read as a fresh reader, every write of it listed from its
  /// first, then its changes and its writer followed; the old file is let go. On the Marfa core's
  /// store it also prints a line when an app takes or lets go of the core's writer lock
  /// (``followCoreWriter(_:emit:clock:ascii:json:interval:)``).
  public static func followPlain(
    source: QueueSource, emit: @escaping @Sendable (String) -> Void,
    clock: @escaping @Sendable () -> String = Timestamp.now, ascii: Bool = false, json: Bool = false,
    from start: PlainStart = .everything, interval: Duration = .seconds(1), filter: WriteFilter? = nil
  ) async {
    var source = source
    var start = start
    // The old file is let go once the new one is read (closing twice is harmless); a reader this
    // made is let go at the end.
    var opened = false
    defer { if opened { source.close() } }
    while !Task.isCancelled {
      let current = source
      let first = start
      let watcher = Task {
        await watchPlain(
          source: current, emit: emit, clock: clock, ascii: ascii, json: json, storeLines: false, from: first,
          filter: filter)
      }
      let coreWriter = (current as? CoreStore).map { core in
        Task { await followCoreWriter(core, emit: emit, clock: clock, ascii: ascii, json: json, interval: interval) }
      }
      let fresh = await nextFile(after: current, emit: emit, clock: clock, json: json, interval: interval)
      watcher.cancel()
      coreWriter?.cancel()
      await watcher.value
      await coreWriter?.value
      guard let fresh else { return }
      current.close()
      opened = true
      source = fresh
      start = .everything
    }
  }

  /// Says what becomes of the file at `source`'s path and, once a new readable file is there,
  /// says so and returns a reader of it; nil when cancelled. Looks on every event of the
  /// store's files (and once a second while the file is not the one opened); a source that
  /// cannot say when its files are touched is asked every `interval`.
  static func nextFile(
    after source: QueueSource, emit: @escaping @Sendable (String) -> Void, clock: @escaping @Sendable () -> String,
    json: Bool, interval: Duration
  ) async -> QueueSource? {
    let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let events = source.storeFileEvents()
    let relay = events.map { events in
      Task.detached {
        for await _ in events { wake.yield() }
      }
    }
    // While the path holds another file or none (and always without events), a check a second.
    let ticker = Task.detached {
      while !Task.isCancelled {
        do { try await Task.sleep(for: interval) } catch { return }
        wake.yield()
      }
    }
    defer {
      relay?.cancel()
      ticker.cancel()
      wake.finish()
    }
    var last = StoreFileState.same
    for await _ in wakes {
      if Task.isCancelled { return nil }
      let state = source.storeFileState()
      if state == .replaced, let fresh = await source.reopen() {
        let at = Date()
        let line =
          last == .removed
          ? "store made again at \(WriterText.clock(at)); reading it from the start"
          : "store replaced at \(WriterText.clock(at)); reading the new one from the start"
        emit(json ? PlainJSON.store(.replaced, time: clock()) : clock() + " " + line)
        return fresh
      }
      guard state != last else { continue }
      // A file at the path that cannot be read yet is said once it is read.
      if state == .replaced, last == .removed { continue }
      last = state
      let line = WriterText.storeFile(state, at: Date(), following: true) ?? "store back as it was opened"
      emit(json ? PlainJSON.store(state, time: clock()) : clock() + " " + line)
    }
    return nil
  }
}
