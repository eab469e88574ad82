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
    func snapshot() async -> [(String, QueuedWrite)]? {
      var out: [(String, QueuedWrite)] = []
      for pane in QueuePane.allCases {
        var offset = 0
        while true {
          guard let page = try? await source.page(pane, offset: offset, limit: 2_000, filter: nil) else { return nil }
          out += page.writes.map { ($0.id, $0) }
          if page.writes.count < 2_000 { break }
          offset += page.writes.count
        }
      }
      return out
    }
    func compare() async {
      guard let now = await snapshot() else { return }
      let time = clock()
      var seen = Set<String>()
      for (id, w) in now {
        seen.insert(id)
        let print = PlainFormatter.line(w, time: "")
        if known[id] != print {
          if known[id] == nil { order.append(id) }
          known[id] = print
          emit(PlainFormatter.line(w, time: time))
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
