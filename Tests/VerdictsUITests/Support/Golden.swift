import Foundation
import TestSupport
import Testing

/// The golden screens under the target's `Snapshots/` folder (this file sits in its `Support/`;
/// see ``GoldenFiles`` for recording).
enum Golden {
  static let screens = GoldenFiles(
    directory: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Snapshots"))

  /// Compares a screen with its golden; a missing or differing golden fails the calling test.
  static func check(_ name: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    screens.check(name, text, sourceLocation: sourceLocation)
  }
}
