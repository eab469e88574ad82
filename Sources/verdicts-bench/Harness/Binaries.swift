import Foundation
import MarfaWire

/// The built binaries beside this one, and the environment the bench starts them in.
enum Binaries {
  /// `verdicts`, built in the same configuration as this bench, or the one `VERDICTS_BENCH_BINARY`
  /// names (to measure another build with the same bench).
  static func verdicts() throws -> String {
    if let other = ProcessInfo.processInfo.environment["VERDICTS_BENCH_BINARY"], !other.isEmpty {
      guard FileManager.default.isExecutableFile(atPath: other) else {
        throw BenchFailure(message: "VERDICTS_BENCH_BINARY=\(other) is not an executable file")
      }
      return other
    }
    let folder = (PanesBenchmark.selfPath as NSString).deletingLastPathComponent
    let path = folder + "/verdicts"
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw BenchFailure(message: "\(path) is not built: swift build -c release --product verdicts")
    }
    return path
  }

  /// The `verdicts` binary's modification time: which build a cached figure came from.
  static func stamp() -> String {
    guard let path = try? verdicts(),
      let date = try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    else { return "unknown" }
    return Timestamp.text(date)
  }

  /// A person's terminal (`TERM=xterm-256color`, UTF-8, the built-in theme) with a fresh home in
  /// `home`, the drain's key in `MARFA_API_KEY`, and no store, instance or theme from outside.
  static func environment(home: String) -> [String: String] {
    var env = ProcessInfo.processInfo.environment
    for key in ["NO_COLOR", "VERDICTS_THEME", "MARFA_DB", "MARFA_API_URL", "MARFA_API_KEY", "XDG_STATE_HOME"] {
      env.removeValue(forKey: key)
    }
    env["TERM"] = "xterm-256color"
    env["LANG"] = "C.UTF-8"
    env["LC_ALL"] = "C.UTF-8"
    env["HOME"] = home
    env["XDG_CONFIG_HOME"] = home + "/config"
    env["XDG_STATE_HOME"] = home + "/state"
    env["MARFA_API_KEY"] = DrainBenchmark.key
    return env
  }
}
