import FoundationEssentials
import MarfaQueue

extension Renderer {
  /// The writer's published record on the status line (nothing when none was read), after the
  /// store file's fate when it was removed or replaced under this screen. Its words are
  /// ``WriterText``'s; the order puts what a watcher is there for first: who the writer is, the
  /// drain's progress, rate and time left, then its auto-drain.
  func writerParts() -> [StatusPart] {
    var file: [StatusPart] = []
    if let text = WriterText.storeFile(state.storeFile, at: state.storeFileChangedAt, following: state.readOnly) {
      // Above the writer itself: with the file gone, who wrote it last matters less (at 80 columns
      // `writer: none since …` and the last drain pushed `store removed at …` off the line).
      file.append(StatusPart(TextLine(text, .statusError), priority: 101))
    }
    guard let w = state.writer else { return file }
    let now = state.now ?? w.updatedAt
    var parts = file
    var autoDrain: StatusPart?
    for part in WriterText.parts(w, now: now, lastAlive: state.writerLastAlive, ascii: state.ascii) {
      let ok = part.text.hasPrefix("writer:") && w.state == .live
      let line = TextLine(part.text, part.isError ? .statusError : ok ? .statusOK : .status)
      let text = part.text
      if text.hasPrefix("auto-drain ") {
        autoDrain = StatusPart(line, priority: 50)
      } else if text.hasPrefix("writer: "), w.state == .live, !w.unpublished, w.pid > 0 {
        // `writer: verdicts tui (pid 4211)`, else `writer pid 4211`.
        parts.append(StatusPart(line, priority: 100, short: TextLine("writer pid \(w.pid)", line.spans[0].role)))
      } else if text.hasPrefix("writer") || text.hasPrefix("stalled") {
        parts.append(StatusPart(line, priority: 100))
      } else if text.hasPrefix("draining ") {
        parts.append(StatusPart(line, priority: 96))
      } else if text.hasSuffix("/s") {
        let spark = writerDraining ? sparkline(now: now) : nil
        parts.append(StatusPart(spark ?? line, priority: 80, short: spark == nil ? nil : line))
      } else if text.hasPrefix("about ") {
        parts.append(StatusPart(line, priority: 75, short: TextLine(String(text.dropFirst(6)), .status)))
      } else if text.hasPrefix("instance ") {
        parts.append(StatusPart(line, priority: 85))
      } else if part.isError {
        parts.append(StatusPart(line, priority: 92))
      } else {
        parts.append(StatusPart(line, priority: 45))
      }
    }
    if let autoDrain { parts.append(autoDrain) }
    return parts
  }

  /// The rate followed by the last minute's rates as a sparkline (`212/s ▂▃▅▇`), nil before any.
  func sparkline(now: Date) -> TextLine? {
    guard !state.throughput.isEmpty(now: now), let rate = parts(ofRateAt: now) else { return nil }
    return TextLine(rate + " ", .status)
      + TextLine(Sparkline.draw(state.throughput.rates(now: now), ascii: state.ascii), .statusOK)
  }

  private func parts(ofRateAt now: Date) -> String? {
    guard let d = state.writer?.drain else { return nil }
    return WriterText.progress(d, now: now).first { $0.text.hasSuffix("/s") }?.text
  }

  /// Whether the writer is draining now (its progress replaces the last drain's summary).
  var writerDraining: Bool { state.writer?.state == .live && state.writer?.drain != nil }
}
