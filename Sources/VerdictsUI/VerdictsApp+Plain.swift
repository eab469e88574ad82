import MarfaQueue

extension VerdictsApp {
  /// `watch --plain`: prints every write once, then a line for each write that changed,
  /// appeared or left, on every change (at most ten reads a second), until the stream ends
  /// or the task is cancelled. No curses.
  ///
  /// - Parameters:
  ///   - emit: called with each line (no newline).
  ///   - clock: the time printed on each line.
  public static func watchPlain(
    source: QueueSource, emit: @escaping @Sendable (String) -> Void,
    clock: @escaping @Sendable () -> String = PlainFormatter.now
  ) async {
    var known: [String: String] = [:]
    var order: [String] = []
    func compare() async {
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
            let print = PlainFormatter.line(w, time: "")
            if known[w.id] != print {
              if known[w.id] == nil { order.append(w.id) }
              known[w.id] = print
              emit(PlainFormatter.line(w, time: time))
            }
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
          known[id] = nil
          emit(PlainFormatter.gone(id, time: time))
        } catch {}
      }
      order.removeAll { gone.contains($0) }
    }
    // Bursts of changes collapse into one pending read (a buffer of one tick).
    let (ticks, tick) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let changes = source.changes()
    let listener = Task {
      for await change in changes where change.touchesQueue { tick.yield() }
      tick.finish()
    }
    defer { listener.cancel() }
    await compare()
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
