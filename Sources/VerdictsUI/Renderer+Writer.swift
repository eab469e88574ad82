import Foundation
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
    return file
      + WriterText.parts(w, now: now, lastAlive: state.writerLastAlive, ascii: state.ascii).map { part in
        let ok = part.text.hasPrefix("writer:") && w.state == .live
        return TextLine(part.text, part.isError ? .statusError : ok ? .statusOK : .status)
      }
  }

  /// Whether the writer is draining now (its progress replaces the last drain's summary).
  var writerDraining: Bool { state.writer?.state == .live && state.writer?.drain != nil }
}
