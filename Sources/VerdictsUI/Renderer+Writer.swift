import Foundation
import MarfaQueue

extension Renderer {
  /// The writer's published record on the status line (nothing when none was read).
  func writerParts() -> [TextLine] {
    guard let w = state.writer else { return [] }
    let now = state.now ?? w.updatedAt
    return WriterText.parts(w, now: now, lastAlive: state.writerLastAlive, ascii: state.ascii).map { part in
      let ok = part.text.hasPrefix("writer:") && w.state == .live
      return TextLine(part.text, part.isError ? .statusError : ok ? .statusOK : .status)
    }
  }

  /// Whether the writer is draining now (its progress replaces the last drain's summary).
  var writerDraining: Bool { state.writer?.state == .live && state.writer?.drain != nil }
}
