import MarfaQueue

extension VerdictsApp {
  /// `watch --plain`: prints every write once, then a line for each write that changed,
  /// appeared or left, on every change (at most ten reads a second), until the stream ends
  /// or the task is cancelled. No curses.
  ///
  /// After the first read, each read asks the source what changed since the last
  /// (``QueueSource/changed(since:)``), so it costs what changed, not the queue; where the source
  /// cannot say, the whole queue is read and compared again.
  ///
  /// - Parameters:
  ///   - emit: called with each line (no newline).
  ///   - clock: the time printed on each line.
  ///   - ascii: every line in ASCII only (`--ascii`, or a locale that is not UTF-8).
  public static func watchPlain(
    source: QueueSource, emit: @escaping @Sendable (String) -> Void,
    clock: @escaping @Sendable () -> String = PlainFormatter.now, ascii: Bool = false, json: Bool = false,
    writerLines: Bool = true
  ) async {
    let keepsFailures = (try? await source.status())?.kind.isOwned ?? true
    var known: [String: String] = [:]
    var order: [String] = []
    var hadVerdict: [String: Bool] = [:]
    /// Prints the write's line when it differs from the one printed last.
    func show(_ w: QueuedWrite, time: String) {
      let print = PlainFormatter.line(w, time: "", ascii: ascii, keepsFailures: keepsFailures)
      if known[w.id] != print {
        let had = known[w.id].map { _ in hadVerdict[w.id] ?? false }
        if known[w.id] == nil { order.append(w.id) }
        known[w.id] = print
        hadVerdict[w.id] = w.verdict != nil
        emit(
          json
            ? PlainJSON.write(w, event: PlainJSON.event(w, hadVerdict: had), time: time, ascii: ascii)
            : PlainFormatter.line(w, time: time, ascii: ascii, keepsFailures: keepsFailures))
      }
    }
    /// Prints that the writes left, for those printed before.
    func leave(_ ids: Set<String>, time: String) {
      for id in order where ids.contains(id) {
        known[id] = nil
        hadVerdict[id] = nil
        emit(json ? PlainJSON.gone(id, time: time, ascii: ascii) : PlainFormatter.gone(id, time: time, ascii: ascii))
      }
      order.removeAll { ids.contains($0) }
    }
    func compareAll() async {
      let time = clock()
      var seen = Set<String>()
      // Pane by pane, a batch at a time, each line compared as it is read: bodies and answers
      // are never read (the line does not show them) and the queue is never held whole.
      for pane in QueuePane.allCases {
        var cursor = 0
        while true {
          guard let batch = try? await source.summaries(pane, cursor: cursor, limit: 2_000) else { return }
          for w in batch.writes {
            seen.insert(w.id)
            show(w, time: time)
          }
          if batch.writes.count < 2_000 { break }
          cursor = batch.next
        }
      }
      // The panes are read one after another, so a write moving between them can be missed
      // by one read: it is gone only when the queue no longer holds it.
      var gone = Set<String>()
      for id in order where !seen.contains(id) {
        do {
          _ = try await source.write(id)
        } catch QueueError.notFound {
          gone.insert(id)
        } catch {}
      }
      leave(gone, time: time)
    }
    // Where the change log stands before the first read: whatever changes from here is read again.
    var mark = (try? await source.changed(since: nil))?.mark
    func compare() async {
      if let since = mark {
        do {
          if let changed = try await source.changed(since: since) {
            let time = clock()
            for w in changed.writes { show(w, time: time) }
            leave(Set(changed.gone), time: time)
            mark = changed.mark
            return
          }
        } catch {
          return
        }
      }
      mark = (try? await source.changed(since: nil))?.mark
      await compareAll()
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
      ? Task { await followWriter(source: source, emit: emit, clock: clock, ascii: ascii, json: json) } : nil
    defer { writer?.cancel() }
    await compareAll()
    var last = ContinuousClock.now
    for await _ in ticks {
      if Task.isCancelled { break }
      let since = ContinuousClock.now - last
      if since < .milliseconds(100) { try? await Task.sleep(for: .milliseconds(100) - since) }
      last = ContinuousClock.now
      await compare()
    }
  }
}
