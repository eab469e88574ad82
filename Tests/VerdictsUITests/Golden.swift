import TestSupport
import Testing

/// The golden screens under `Snapshots/` beside this file (see ``GoldenFiles`` for recording).
enum Golden {
  static let screens = GoldenFiles(folder: "Snapshots", besides: #filePath)

  /// Compares a screen with its golden; a missing or differing golden fails the calling test.
  static func check(_ name: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    screens.check(name, text, sourceLocation: sourceLocation)
  }
}
