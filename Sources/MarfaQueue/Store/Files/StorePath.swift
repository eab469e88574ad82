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

  /// `path` with every symbolic link, `.`, `..` and doubled slash resolved, as SQLite resolves
  /// it to find the store's log: the name the lock and the blob folder are kept beside, the same
  /// for every way of naming one store. A store not made yet resolves its folder (which must be
  /// there) and keeps its own name; a path that cannot be resolved is kept as given.
  static func resolved(_ path: String) -> String {
    if let real = realPath(path) { return real }
    let folder = folder(of: path)
    var name = Substring(path)
    while name.count > 1, name.hasSuffix("/") { name = name.dropLast() }
    if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
    guard let realFolder = realPath(folder.isEmpty ? "." : folder) else { return path }
    return (realFolder.hasSuffix("/") ? realFolder : realFolder + "/") + name
  }

  /// `realpath(3)` of `path`, nil when it cannot be resolved (nothing there).
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Refuses a store path that is a symbolic link to nothing: the store would be made wherever
  /// the link points, and the link was not made by this program.
  static func refuseDanglingLink(_ path: String) throws {
    var st = stat()
    guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFLNK else { return }
    let target = linkTarget(path).map { " to \($0)" } ?? ""
    throw QueueError.store(
      path: path, message: "it is a symbolic link\(target), where no file is; nothing was created (remove the link)")
  }

  /// What the link at `path` points to, as written in the link.
  static func linkTarget(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: 4097)
    let n = readlink(path, &buffer, 4096)
    guard n >= 0 else { return nil }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The files SQLite keeps beside a store (its log, its shared-memory index, a rollback
  /// journal).
  static let companionSuffixes = ["-wal", "-shm", "-journal"]

  /// Refuses a store whose log, index or journal path is anything but a regular file (a
  /// symbolic link above all: the store's own files are never followed through a link). SQLite
  /// itself opens them without following a link, and would only fail "unable to open".
  static func refuseForeignCompanions(of real: String) throws {
    for suffix in companionSuffixes {
      let companion = real + suffix
      var st = stat()
      guard lstat(companion, &st) == 0 else { continue }
      let type = st.st_mode & S_IFMT
      guard type != S_IFREG else { continue }
      let what = type == S_IFLNK ? "a symbolic link\(linkTarget(companion).map { " to \($0)" } ?? "")" : describe(type)
      throw QueueError.store(
        path: real,
        message:
          "\(companion) beside it is \(what), not a file of the store's own; the files a store owns are never followed through a link, so it was not opened (remove it)"
      )
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
  static func describe(_ type: mode_t) -> String { FileType.describe(type) }
}
