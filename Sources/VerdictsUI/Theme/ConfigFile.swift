import FoundationEssentials
import MarfaWire

#if canImport(Glibc)
  import Glibc
#endif

/// Reads a small file a person wrote (a key file, a theme, a keys file, a config): only a
/// regular file, never more than a bound, UTF-8 checked line by line.
///
/// A FIFO would wait forever and `/dev/zero` never ends: each is refused by what it is, at once.
package enum ConfigFile {
  /// Why a file could not be taken, in one sentence that names it.
  package struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sentence.
    package var message: String
    /// The sentence, as the error's description.
    package var description: String { message }
  }

  /// The bound for a theme, a keys file or a config: far more than any hand-written one.
  package static let textLimit = 65_536

  /// The file as text, nil when there is no file at `path` (a config that is optional); a
  /// file that is there but cannot be taken is a ``Problem``.
  package static func optionalText(_ path: String, limit: Int = textLimit, what: String) throws -> String? {
    var st = stat()
    if stat(path, &st) != 0 && errno == ENOENT { return nil }
    return try text(path, limit: limit, what: what)
  }

  /// The file's bytes; refuses anything but a regular file, and a file over `limit` bytes.
  ///
  /// - Parameter what: what the file is, for the sentence ("key file", "theme").
  package static func read(_ path: String, limit: Int, what: String) throws -> [UInt8] {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      throw Problem(message: "the \(what) \(path) cannot be read: \(String(cString: strerror(errno)))")
    }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else {
      throw Problem(message: "the \(what) \(path) cannot be read: \(String(cString: strerror(errno)))")
    }
    let type = st.st_mode & S_IFMT
    guard type == S_IFREG else {
      throw Problem(message: "the \(what) \(path) is \(FileType.describe(type)), not a file")
    }
    guard Int(st.st_size) <= limit else {
      throw Problem(message: "the \(what) \(path) is \(st.st_size) bytes; it may be at most \(limit)")
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let n = Glibc.read(fd, &chunk, chunk.count)
      if n < 0 {
        if errno == EINTR { continue }
        throw Problem(message: "the \(what) \(path) cannot be read: \(String(cString: strerror(errno)))")
      }
      if n == 0 { break }
      bytes.append(contentsOf: chunk[0..<n])
      if bytes.count > limit {
        throw Problem(message: "the \(what) \(path) grew past \(limit) bytes while it was read")
      }
    }
    return bytes
  }

  /// The file as text; refuses what ``read(_:limit:what:)`` refuses, and names the first line
  /// that is not UTF-8.
  package static func text(_ path: String, limit: Int = textLimit, what: String) throws -> String {
    try text(of: read(path, limit: limit, what: what), path: path, what: what)
  }

  /// `bytes` as text, or a problem naming the first line of them that is not UTF-8.
  package static func text(of bytes: [UInt8], path: String, what: String) throws -> String {
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    var line = 1
    for part in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      if String(validating: part, as: UTF8.self) == nil {
        throw Problem(message: "the \(what) \(path): line \(line) is not UTF-8 text")
      }
      line += 1
    }
    throw Problem(message: "the \(what) \(path) is not UTF-8 text")
  }
}
