import Foundation
import Testing

/// Golden text files in one folder: a test's output compared with the file as text, recorded
/// only on purpose.
///
/// `VERDICTS_RECORD=1` writes goldens that are missing; `VERDICTS_RECORD=all` also rewrites those
/// that differ. Otherwise a missing or differing golden fails the test that checked it.
public struct GoldenFiles: Sendable {
  /// The folder the goldens live in, one `<name>.txt` each.
  public let directory: URL

  /// Goldens in `directory`.
  public init(directory: URL) { self.directory = directory }

  /// Goldens in the folder `folder` beside the source file `filePath` (pass `#filePath`).
  public init(folder: String, besides filePath: String) {
    directory = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent(folder)
  }

  /// What `VERDICTS_RECORD` asks for: nothing, record missing goldens, or record every golden.
  public enum RecordMode: Sendable, Equatable {
    case never, missing, all

    /// The mode a value of `VERDICTS_RECORD` names (unset or anything else: never).
    public init(environment value: String?) {
      switch value {
      case "1": self = .missing
      case "all": self = .all
      default: self = .never
      }
    }
  }

  /// Compares `text` (a final newline added if missing) with the golden `name`, recording it
  /// when the mode says so; records an issue at `sourceLocation` when they differ.
  public func check(
    _ name: String, _ text: String,
    mode: RecordMode = RecordMode(environment: ProcessInfo.processInfo.environment["VERDICTS_RECORD"]),
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    if let problem = compare(name, text, mode: mode) {
      Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation)
    }
  }

  /// What is wrong with `text` against the golden `name` (nil when it matches or was recorded).
  public func compare(_ name: String, _ text: String, mode: RecordMode) -> String? {
    let url = directory.appendingPathComponent(name + ".txt")
    let body = text.hasSuffix("\n") ? text : text + "\n"
    guard let existing = try? String(contentsOf: url, encoding: .utf8) else {
      if mode != .never {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? body.write(to: url, atomically: true, encoding: .utf8)
        return nil
      }
      return "golden \(name).txt is missing (run with VERDICTS_RECORD=1 to record it)\n\(body)"
    }
    if existing == body { return nil }
    if mode == .all {
      try? body.write(to: url, atomically: true, encoding: .utf8)
      return nil
    }
    return "golden \(name).txt differs:\n--- expected\n\(existing)--- got\n\(body)"
  }
}
