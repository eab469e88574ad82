import FoundationEssentials
import MarfaQueue

extension VerdictsApp {
  /// `watch --plain`'s writer lines: one when a writer comes, starts or ends a drain, and goes
  /// (closes, or dies without closing), e.g.
  /// `2026-05-01T09:40:46.000Z writer: verdicts tui (pid 4211) · auto-drain on · draining 0 of 300`.
  /// Asks every second (the writer's lock says whether it lives); prints nothing while nothing changes.
  static func followWriter(
    source: QueueSource, emit: @escaping @Sendable (String) -> Void, clock: @escaping @Sendable () -> String,
    ascii: Bool, json: Bool = false, storeLines: Bool = true, interval: Duration = .seconds(1)
  ) async {
    var last = WriterText.phase(nil)
    var lastAlive: Date?
    var first = true
    var lastFile = StoreFileState.same
    while !Task.isCancelled {
      let file = source.storeFileState()
      if storeLines, file != lastFile {
        lastFile = file
        emit(
          json
            ? PlainJSON.store(file, time: clock())
            : clock() + " " + (WriterText.storeFile(file, at: Date()) ?? "store back as it was opened"))
      }
      let w = try? await source.writer()
      let now = Date()
      if w?.state == .live { lastAlive = now }
      let phase = WriterText.phase(w)
      if phase != last || first {
        if json {
          // A change of the drain in progress, or of the last drain's end, is a `drain` event.
          let drainMoved =
            phase.split(separator: " ").suffix(2) != last.split(separator: " ").suffix(2) && !first && w?.state == .live
          if w != nil { emit(PlainJSON.writer(w, event: drainMoved ? "drain" : "writer", time: clock(), ascii: ascii)) }
        } else if let line = writerLine(w, now: now, lastAlive: lastAlive, ascii: ascii) {
          emit(clock() + " " + line)
        }
        last = phase
        first = false
      }
      do { try await Task.sleep(for: interval) } catch { return }
    }
  }

  /// The writer's line, with the last drain's end when no drain runs; nil when no writer is known.
  static func writerLine(_ w: WriterRecord?, now: Date, lastAlive: Date?, ascii: Bool) -> String? {
    guard let w else { return nil }
    var parts = WriterText.parts(w, now: now, lastAlive: lastAlive, ascii: ascii).map(\.text)
    if w.state == .live, w.drain == nil, let d = w.lastDrain, let ended = d.endedAt {
      let verdicts = d.verdicts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: " ")
      parts.append(
        "drain ended \(WriterText.clock(ended)): \(d.sent) of \(d.total)" + (verdicts.isEmpty ? "" : ", " + verdicts))
    }
    let text = parts.joined(separator: ascii ? " | " : " · ")
    return ascii ? String(text.unicodeScalars.map { $0.isASCII ? Character($0) : "?" }) : text
  }
}
