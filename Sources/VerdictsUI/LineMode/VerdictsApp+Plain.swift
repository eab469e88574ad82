import MarfaQueue

#if os(Linux)
  /// glibc's `malloc_trim` (in `<malloc.h>`, which the Glibc module leaves out).
  @_silgen_name("malloc_trim")
  private func mallocTrim(_ pad: Int) -> Int32
#endif

extension VerdictsApp {
  /// `watch --plain`: prints every write once (or, `from`, those after a write, or none), then a
  /// line for each write that changed, appeared or left, on every change (at most ten reads a
  /// second), until the stream ends or the task is cancelled. No curses.
  ///
  /// Its memory does not grow with the queue when the source keeps a change log (a verdicts
  /// store): the listing is printed page by page, and only what the last lines printed showed
  /// (``PlainMemory``) is kept to leave out a line that did not change.
  ///
  /// After the first read, each read asks the source what changed since the last
  /// (``QueueSource/changed(since:)``), so it costs what changed, not the queue; where the source
  /// cannot say, the whole queue is read and compared again.
  ///
  /// - Parameters:
  ///   - emit: called with each line (no newline).
  ///   - clock: the time printed on each line.
  ///   - ascii: every line in ASCII only (`--ascii`, or a locale that is not UTF-8).
  ///   - storeLines: whether the writer's task also says what became of the store file (false
  ///     under ``followPlain(source:emit:clock:ascii:json:from:interval:)``, which says it).
  public static func watchPlain(
    source: QueueSource, emit: @escaping @Sendable (String) -> Void,
    clock: @escaping @Sendable () -> String = Timestamp.now, ascii: Bool = false, json: Bool = false,
    writerLines: Bool = true, storeLines: Bool = true, from start: PlainStart = .everything, filter: WriteFilter? = nil
  ) async {
    let keepsFailures = (try? await source.status())?.kind.isOwned ?? true
    // Where the change log stands before the first read: whatever changes from here is read again.
    var mark = (try? await source.changed(since: nil))?.mark
    // A source with a change log is followed without keeping the queue: the first listing
    // streams in pages, and only the most recent lines are remembered. One without keeps every
    // line, to tell what changed by comparing.
    let streams = mark != nil
    var memory = PlainMemory()
    var known: [String: PlainMemory.Entry] = [:]
    var order: [String] = []
    func printed(_ id: String) -> PlainMemory.Entry? { streams ? memory[id] : known[id] }
    /// Prints the write's line when it differs from the one printed last (or `quiet`: only notes it).
    func show(_ w: QueuedWrite, time: String, quiet: Bool = false) {
      if let filter, !filter.matches(w) { return }
      // Compared by what the line shows, not by making the line (a watcher of a drain does
      // this for every write the drain answers).
      let look = PlainLook(w)
      let before = printed(w.id)
      guard before?.look != look else { return }
      let entry = PlainMemory.Entry(look: look, hadVerdict: w.verdict != nil)
      if streams {
        memory.remember(w.id, entry)
      } else {
        if before == nil { order.append(w.id) }
        known[w.id] = entry
      }
      if quiet { return }
      emit(
        json
          ? PlainJSON.write(
            w, event: PlainJSON.event(w, hadVerdict: before?.hadVerdict), time: time, ascii: ascii,
            keepsFailures: keepsFailures)
          : PlainFormatter.line(w, time: time, ascii: ascii, keepsFailures: keepsFailures))
    }
    /// The write with its body, read only when the filter looks at bodies (a listing reads none).
    func withBody(_ w: QueuedWrite) async -> QueuedWrite {
      guard filter?.looksAtBodies == true else { return w }
      return (try? await source.write(w.id)) ?? w
    }
    /// Prints that the writes left (the log's gone writes; when comparing, those printed before).
    func leave(_ ids: [String], time: String, departures: [String: Departure] = [:]) async {
      // Under a filter, only the writes it let through are said to leave.
      for id in ids where filter == nil || printed(id) != nil {
        if streams { memory.forget(id) } else { known[id] = nil }
        // The archive says how it left and who took it out (one read a departure).
        let departed = try? await source.departedWrite(id)
        emit(
          json
            ? PlainJSON.gone(id, departure: departures[id] ?? departed?.departure, time: time, ascii: ascii)
            : PlainFormatter.gone(id, time: time, ascii: ascii, departed: departed))
      }
      if !streams {
        let left = Set(ids)
        order.removeAll { left.contains($0) }
      }
    }
    /// Lists the queue pane by pane, a batch at a time from `cursor`, each line compared as it is
    /// read: bodies and answers are never read (the line does not show them), and streaming, the
    /// queue is never held whole. Returns the ids seen when comparing (nil on a failed read).
    func list(from cursor: Int, quiet: Bool = false) async -> Set<String>? {
      let time = clock()
      var seen = Set<String>()
      for pane in QueuePane.allCases {
        var cursor = cursor
        while true {
          guard let batch = try? await source.summaries(pane, cursor: cursor, limit: listingPage) else { return nil }
          for w in batch.writes {
            if !streams { seen.insert(w.id) }
            show(await withBody(w), time: time, quiet: quiet)
          }
          if batch.writes.count < listingPage || batch.next == cursor { break }
          cursor = batch.next
          returnFreedMemory()
        }
      }
      return seen
    }
    func compareAll(quiet: Bool = false) async {
      guard let seen = await list(from: 0, quiet: quiet), !streams else { return }
      // The panes are read one after another, so a write moving between them can be missed
      // by one read: it is gone only when the queue no longer holds it.
      var gone: [String] = []
      for id in order where !seen.contains(id) {
        do {
          _ = try await source.write(id)
        } catch QueueError.notFound {
          gone.append(id)
        } catch {}
      }
      await leave(gone, time: clock())
    }
    func compare() async {
      if let since = mark {
        do {
          // A backlog (a watcher stopped, a slow link) comes a page at a time, each printed
          // before the next is read: what the watcher holds does not grow with it.
          var from = since
          while let changed = try await source.changed(since: from) {
            let time = clock()
            for w in changed.writes { show(await withBody(w), time: time) }
            await leave(changed.gone, time: time, departures: changed.departures)
            mark = changed.mark
            guard changed.more else { return }
            from = changed.mark
          }
        } catch {
          return
        }
      }
      // The log cannot say (pruned past the mark, or more changed than a listing costs): list
      // again; lines still remembered are not printed twice.
      mark = (try? await source.changed(since: nil))?.mark
      if case .after(let cursor) = start { _ = await list(from: cursor) } else { await compareAll() }
    }
    // Bursts of changes collapse into one pending read (a buffer of one tick).
    let (ticks, tick) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let changes = source.changes()
    let listener = Task {
      for await change in changes where change.touchesQueue { tick.yield() }
      tick.finish()
    }
    defer { listener.cancel() }
    // The writer's lines (and the store file's), unless the caller is the writer itself (the demo).
    let writer =
      writerLines
      ? Task {
        await followWriter(source: source, emit: emit, clock: clock, ascii: ascii, json: json, storeLines: storeLines)
      } : nil
    defer { writer?.cancel() }
    switch start {
    case .everything: await compareAll()
    // Without a log, what is there now is read (not printed) so what changes can be seen.
    case .now: if !streams { await compareAll(quiet: true) }
    case .after(let cursor): _ = await list(from: cursor)
    }
    var last = ContinuousClock.now
    for await _ in ticks {
      if Task.isCancelled { break }
      let since = ContinuousClock.now - last
      if since < .milliseconds(100) { try? await Task.sleep(for: .milliseconds(100) - since) }
      last = ContinuousClock.now
      await compare()
    }
  }

  /// How many writes a listing reads at a time.
  static let listingPage = 1_000

  /// Hands the heap's free pages back to the kernel. A listing frees each page's writes and lines
  /// as it goes, but glibc keeps what the threads freed in their arenas (on a 1M-write store, ~28 MB
  /// of the watcher's peak); this keeps the peak near what is held, not what was ever allocated.
  static func returnFreedMemory() {
    #if os(Linux)
      _ = mallocTrim(0)
    #endif
  }
}
