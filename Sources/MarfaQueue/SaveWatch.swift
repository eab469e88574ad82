import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Wakes a reader when another process writes the store: inotify on the store's folder,
/// events for the store's own files only (`queue.store`, `-wal`, `-shm`, `-journal`).
///
/// A writer's commit writes the WAL, so a reader polling `PRAGMA data_version` hears of it at
/// once instead of on its next timer tick (which backs off to 200 ms when idle). The timer
/// stays, for file systems without inotify.
final class SaveWatch: Sendable {
  private let fd: Int32
  private let prefix: [UInt8]
  private let queue = DispatchQueue(label: "verdicts.save-watch")

  /// Watches the folder of `storePath`; nil where inotify is not to be had.
  init?(storePath: String) {
    let url = URL(fileURLWithPath: storePath)
    let folder = url.deletingLastPathComponent().path
    let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard fd >= 0 else { return nil }
    let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO)
    guard inotify_add_watch(fd, folder, mask) >= 0 else {
      close(fd)
      return nil
    }
    self.fd = fd
    self.prefix = Array(url.lastPathComponent.utf8)
  }

  deinit { close(fd) }

  /// Waits up to `timeoutMs` for a write to one of the store's files; true when one came.
  /// Blocks a thread of its own, never a task's.
  func wait(timeoutMs: Int) async -> Bool {
    await withCheckedContinuation { continuation in
      queue.async {
        var p = pollfd(fd: self.fd, events: Int16(POLLIN), revents: 0)
        let n = poll(&p, 1, Int32(timeoutMs))
        continuation.resume(returning: n > 0 && self.drainEvents())
      }
    }
  }

  /// Reads every pending event; true when one names the store or its WAL.
  private func drainEvents() -> Bool {
    var ours = false
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n <= 0 { return ours }
      var offset = 0
      let header = MemoryLayout<inotify_event>.size
      while offset + header <= n {
        let length = Int(buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) })
        let name = buffer[(offset + header)..<min(n, offset + header + length)].prefix { $0 != 0 }
        if name.starts(with: prefix) { ours = true }
        offset += header + length
      }
    }
  }
}
