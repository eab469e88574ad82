import FoundationEssentials
import Glibc

/// The bytes this thread has passed to `write(2)` so far, from `/proc/thread-self/io` (`wchar`):
/// what the terminal layer actually wrote, whatever curses buffered or optimised.
enum ThreadWrites {
  /// The count now, or nil where the kernel does not say.
  static func now() -> Int? {
    let fd = open("/proc/thread-self/io", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 512)
    let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard n > 0 else { return nil }
    return value(of: "wchar", in: buffer[0..<n])
  }

  /// The number after `name: ` in a `/proc/…/io` text.
  static func value(of name: String, in text: ArraySlice<UInt8>) -> Int? {
    let key = Array((name + ": ").utf8)
    var i = text.startIndex
    while i < text.endIndex {
      let lineEnd = text[i...].firstIndex(of: 10) ?? text.endIndex
      let line = text[i..<lineEnd]
      if line.starts(with: key) {
        var v = 0
        for b in line.dropFirst(key.count) {
          guard b >= 48, b <= 57 else { break }
          v = v * 10 + Int(b - 48)
        }
        return v
      }
      i = lineEnd + 1
    }
    return nil
  }
}
