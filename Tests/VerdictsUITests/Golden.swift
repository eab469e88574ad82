import Foundation
import Testing

/// Golden files under `Snapshots/`: compared as text; recorded only on purpose.
///
/// `VERDICTS_RECORD=1` writes goldens that are missing; `VERDICTS_RECORD=all` also rewrites
/// those that differ. Otherwise a missing or differing golden fails.
enum Golden {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

  static func check(_ name: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let url = directory.appendingPathComponent(name + ".txt")
    let mode = ProcessInfo.processInfo.environment["VERDICTS_RECORD"] ?? ""
    let body = text.hasSuffix("\n") ? text : text + "\n"
    guard let existing = try? String(contentsOf: url, encoding: .utf8) else {
      if mode == "1" || mode == "all" {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? body.write(to: url, atomically: true, encoding: .utf8)
        return
      }
      Issue.record("golden \(name).txt is missing (run with VERDICTS_RECORD=1 to record it)\n\(body)", sourceLocation: sourceLocation)
      return
    }
    if existing == body { return }
    if mode == "all" {
      try? body.write(to: url, atomically: true, encoding: .utf8)
      return
    }
    Issue.record("golden \(name).txt differs:\n--- expected\n\(existing)--- got\n\(body)", sourceLocation: sourceLocation)
  }
}
