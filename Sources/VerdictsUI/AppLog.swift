import MarfaWire
import Foundation
import Synchronization

/// Appends timestamped lines to the `--log` file; never the screen, never a key.
final class AppLog: Sendable {
  /// The open log file (nil: no log), written one line at a time under the lock.
  private let handle: Mutex<FileHandle?>

  init(path: String?) {
    guard let path else {
      handle = Mutex(nil)
      return
    }
    if !FileManager.default.fileExists(atPath: path) {
      _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
    }
    let file = FileHandle(forWritingAtPath: path)
    file?.seekToEndOfFile()
    handle = Mutex(file)
  }

  func log(_ text: String) {
    guard handle.withLock({ $0 != nil }) else { return }
    let line = Data("\(Timestamp.now()) \(Sanitizer.clean(text))\n".utf8)
    handle.withLock { $0?.write(line) }
  }

  deinit { handle.withLock { try? $0?.close() } }
}
