import Foundation

/// A folder of its own for one test, removed when the test is done.
final class TempFolder: Sendable {
  /// The folder's path.
  let path: String

  init() {
    let base = FileManager.default.temporaryDirectory.path
    path = base + "/verdicts-cli-" + UUID().uuidString.lowercased()
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// A store path inside the folder (not created).
  var store: String { path + "/queue.store" }

  /// A path inside the folder.
  func file(_ name: String) -> String { path + "/" + name }

  /// Whether a file exists at `path`.
  func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

  /// The bytes of the store and of its write-ahead log when that holds any, for "changes
  /// nothing" checks (the shared-memory index and an empty log come and go with connections).
  func storeBytes() -> [String: Data] {
    var out: [String: Data] = [:]
    for suffix in ["", "-wal"] {
      if let data = FileManager.default.contents(atPath: store + suffix), !data.isEmpty { out[suffix] = data }
    }
    return out
  }
}
