import MarfaWire
import Foundation

/// Appends timestamped lines to the `--log` file; never the screen, never a key.
final class AppLog: @unchecked Sendable {
  private let handle: FileHandle?
  private let lock = NSLock()

  init(path: String?) {
    guard let path else {
      handle = nil
      return
    }
    if !FileManager.default.fileExists(atPath: path) {
      _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
    }
    handle = FileHandle(forWritingAtPath: path)
    handle?.seekToEndOfFile()
  }

  func log(_ text: String) {
    guard let handle else { return }
    let line = "\(Timestamp.now()) \(Sanitizer.clean(text))\n"
    lock.lock()
    handle.write(Data(line.utf8))
    lock.unlock()
  }

  deinit { try? handle?.close() }
}
