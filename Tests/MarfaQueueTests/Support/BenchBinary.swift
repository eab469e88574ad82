import Foundation

/// The built `verdicts-bench` executable, for the tests that need a second process running the
/// engine (its hidden `queue-child` mode).
enum BenchBinary {
  /// Beside the test bundle (`.build/<triple>/debug/`), else in `.build/debug`.
  static let path: String? = {
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let candidates = [
      bundle.appendingPathComponent("verdicts-bench").path,
      Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("verdicts-bench").path,
      root.appendingPathComponent(".build/debug/verdicts-bench").path,
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
  }()

  /// The executable's path; a clear failure when it was not built (`swift build --build-tests`
  /// builds it with the tests).
  static func require() throws -> String {
    guard let path else { throw Missing() }
    return path
  }

  /// The executable was not built.
  struct Missing: Error, CustomStringConvertible {
    var description: String {
      "verdicts-bench was not found beside the test bundle or in .build/debug; run `swift build`"
    }
  }
}
