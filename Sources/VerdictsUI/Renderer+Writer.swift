import FoundationEssentials
import MarfaQueue

extension Renderer {
  /// The writer's published record on the status line (nothing when none was read), after the
  /// store file's fate when it was removed or replaced under this screen.
  func writerParts() -> [TextLine] {
    var file: [TextLine] = []
    if let text = WriterText.storeFile(state.storeFile, at: state.storeFileChangedAt, following: state.readOnly) {
      file.append(TextLine(text, .statusError))
    }
    guard let w = state.writer else { return file }
    let now = state.now ?? w.updatedAt
    var parts = file
    for part in WriterText.parts(w, now: now, lastAlive: state.writerLastAlive, ascii: state.ascii) {
      let ok = part.text.hasPrefix("writer:") && w.state == .live
      parts.append(TextLine(part.text, part.isError ? .statusError : ok ? .statusOK : .status))
      if writerDraining, part.text.hasSuffix("/s"), let spark = sparkline(now: now) { parts[parts.count - 1] = spark }
    }
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
