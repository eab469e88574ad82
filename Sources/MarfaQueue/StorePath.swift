import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Checks on a store's path made before anything is opened or created there.
enum StorePath {
  /// The folder part of `path`, as `dirname` has it but "" for a bare name: `/a/b` → `/a`,
  /// `/b` → `/`, `a/b/` → `a`, `b` → "".
  static func folder(of path: String) -> String {
    var bytes = Array(path.utf8)
    while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
    guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
    var end = slash
    while end > 0, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
    return end == 0 ? "/" : String(decoding: bytes[..<end], as: UTF8.self)
  }

  /// Whether something is at `path` (a dangling link counts as nothing).
  static func exists(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0
  }

  /// Refuses a path that names something other than a regular file (a folder, a FIFO, a
  /// device, a socket: opening a FIFO would wait forever for a writer), and a path whose `..`
  /// follows a folder that does not exist (creating the folders would make that one, then fail).
  static func refuseUnusable(_ path: String) throws {
    guard !path.isEmpty else { throw QueueError.store(path: path, message: "the store path is empty") }
    var st = stat()
    if stat(path, &st) == 0 {
      let type = st.st_mode & S_IFMT
      guard type == S_IFREG else {
        throw QueueError.store(path: path, message: "it is \(describe(type)), not a store file")
      }
      return
    }
    var prefix = path.hasPrefix("/") ? "/" : ""
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
      if part == ".." && !prefix.isEmpty {
        var isFolder = stat()
        guard stat(prefix, &isFolder) == 0, isFolder.st_mode & S_IFMT == S_IFDIR else {
          throw QueueError.store(
            path: path, message: "the folder \(prefix) named before '..' does not exist; nothing was created")
        }
      }
      prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
    }
  }

  /// The identity of the file at `path` now, nil when nothing is there.
  static func identity(_ path: String) -> FileIdentity? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    return FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
  }

  /// Makes the folder that will hold the store, with its parents, private to the user.
  static func makeFolder(of path: String) throws {
    let folder = folder(of: path)
    guard !folder.isEmpty, !exists(folder) else { return }
    var prefix = folder.hasPrefix("/") ? "/" : ""
    for part in folder.split(separator: "/", omittingEmptySubsequences: true) {
      prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
      if mkdir(prefix, 0o700) == 0 || errno == EEXIST { continue }
      let code = errno
      let reason = "its folder \(prefix) cannot be made: \(String(cString: strerror(code)))"
      if code == ENOSPC || code == EDQUOT { throw QueueError.storageFull(message: reason) }
      throw QueueError.store(path: path, message: reason)
    }
  }

  /// Flushes the folder holding `path`, so a file just linked there survives a power cut.
  static func syncFolder(of path: String) {
    var folder = folder(of: path)
    if folder.isEmpty { folder = "." }
    let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    fsync(fd)
    close(fd)
  }

  /// What a file of this type is, in words.
  static func describe(_ type: mode_t) -> String { ConfigFile.kind(type) }
}
