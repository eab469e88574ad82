import Dispatch
import Foundation
import TestSupport

/// The built `verdicts` executable, and ways to run it.
enum Binary {
  /// The executable beside the test bundle (`.build/<triple>/debug/verdicts`), else where
  /// `.build/debug` points; nil when it was not built.
  static let path: String? = {
    let fm = FileManager.default
    var candidates: [String] = []
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    candidates.append(bundle.appendingPathComponent("verdicts").path)
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("verdicts").path)
    candidates.append(packageRoot.appendingPathComponent(".build/debug/verdicts").path)
    return candidates.first { fm.isExecutableFile(atPath: $0) }
  }()

  /// The package's root folder.
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The executable's path; fails the test with a clear message when it was not built.
  ///
  /// (`swift test` builds and relinks it with the tests; `swift test --skip-build` needs a
  /// `swift build` first.)
  static func require() throws -> String {
    guard let path else {
      throw BinaryMissing(
        message:
          "the verdicts executable was not found beside the test bundle or in .build/debug; run `swift build` first")
    }
    return path
  }

  /// A clear failure for a missing binary.
  struct BinaryMissing: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  /// The environment a spawned `verdicts` gets: only what the test names, plus PATH and a HOME of its own.
  static func environment(store: String?, home: String, _ extra: [String: String]) -> [String: String] {
    // A person's terminal: UTF-8 unless the test names another locale.
    var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8"]
    if let store { env["MARFA_DB"] = store }
    env.merge(extra) { _, new in new }
    return env
  }

  /// Runs `verdicts` to its end (at most `timeout` seconds, times ``SanitizerRun/boundScale``:
  /// a guard against a hang, not a claim about speed) and returns what it did.
  static func run(
    _ arguments: [String], store: String?, home: String, environment extra: [String: String] = [:],
    timeout: Double = 30, directory: String? = nil, through: [String] = []
  ) throws -> CommandResult {
    let process = try Spawned(
      arguments, environment: environment(store: store, home: home, extra), directory: directory, through: through)
    let timeout = timeout * Double(SanitizerRun.boundScale)
    guard process.wait(timeout: timeout) else {
      process.kill()
      throw SpawnFailure(message: "verdicts \(arguments.joined(separator: " ")) ran past \(timeout) s")
    }
    return process.result()
  }

  /// A spawn that went wrong.
  struct SpawnFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }
}
