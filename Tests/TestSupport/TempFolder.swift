import Foundation

/// A folder of its own for one test, removed when the test is done: the one temporary folder
/// (and store path) the suites make. Keep it alive to the test's end (`defer { _ = folder }` where
/// only a path taken from it is used afterwards).
public final class TempFolder: Sendable {
  /// The folder's path.
  public let path: String

  public init() {
    let base = FileManager.default.temporaryDirectory.path
    path = base + "/verdicts-test-" + UUID().uuidString.lowercased()
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// The folder as a URL.
  public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

  /// A store path inside the folder (not created).
  public var store: String { path + "/queue.store" }

  /// ``store`` as a URL.
  public var storeURL: URL { URL(fileURLWithPath: store) }

  /// A path inside the folder.
  public func file(_ name: String) -> String { path + "/" + name }

  /// Whether a file exists at `path`.
  public func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

  /// The bytes of the store and of its write-ahead log when that holds any, for "changes
  /// nothing" checks (the shared-memory index and an empty log come and go with connections).
  public func storeBytes() -> [String: Data] {
    var out: [String: Data] = [:]
    for suffix in ["", "-wal"] {
      if let data = FileManager.default.contents(atPath: store + suffix), !data.isEmpty { out[suffix] = data }
    }
    return out
  }
}
