import MarfaQueue

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// `metrics --textfile DIR`: `DIR/verdicts.prom` replaced whole, for node_exporter's textfile
/// collector. Written beside it under a hidden name that does not end in `.prom` (the collector
/// reads only `*.prom`), 0644, synced, renamed over the file, the folder synced: a reader finds
/// the old text or the new, never a part. A failure at any step removes the hidden file and
/// leaves `verdicts.prom` as it was.
struct MetricsTextfile: Sendable {
  /// The file's name in the folder.
  static let name = "verdicts.prom"
  /// The folder as given (after `~/`).
  let folder: String

  /// The file's path.
  var path: String { (folder.hasSuffix("/") ? folder : folder + "/") + Self.name }

  /// Checks the folder before the store is opened: it must be a folder (a link to one is taken)
  /// this process may write in; else a usage error (exit 2) and nothing is written.
  init(folder: String) throws {
    self.folder = folder
    let shown = Sanitizer.clean(folder, ascii: false)
    guard !folder.isEmpty else { throw Self.usage("--textfile needs a folder, not an empty path") }
    var info = stat()
    guard stat(folder, &info) == 0 else {
      throw Self.usage("--textfile \(shown): \(String(cString: strerror(errno))); nothing was written")
    }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      throw Self.usage("--textfile \(shown) is not a folder; nothing was written")
    }
    guard access(folder, W_OK | X_OK) == 0 else {
      throw Self.usage(
        "--textfile \(shown) cannot be written in (\(String(cString: strerror(errno)))); nothing was written")
    }
  }

  static func usage(_ message: String) -> CommandFailure {
    CommandFailure(usage: UsageError(path: ["metrics"], message: message))
  }

  /// Replaces the file with `text`, synced to its disk.
  ///
  /// - Throws: a `write_error` ``CommandFailure`` (exit 3) saying which step failed; the hidden
  ///   file is removed and the file is as it was.
  func write(_ text: String) throws {
    let hidden = (folder.hasSuffix("/") ? folder : folder + "/") + ".\(Self.name).\(getpid()).partial"
    unlink(hidden)
    let fd = open(hidden, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw failure("could not be made", errno) }
    var renamed = false
    defer { if !renamed { unlink(hidden) } }
    // Readable by the collector whatever the umask (node_exporter often runs as its own user).
    if fchmod(fd, 0o644) != 0 {
      let number = errno
      close(fd)
      throw failure("could not be made readable", number)
    }
    try DeliveryFile.writeSyncAndClose(text, fd, failure)
    guard rename(hidden, path) == 0 else { throw failure("could not be put in place", errno) }
    renamed = true
    let dir = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if dir >= 0 {
      defer { close(dir) }
      // The new file is in place; a folder whose file system cannot sync it has the entry as well as it can.
      while fsync(dir) != 0, errno == EINTR {}
    }
  }

  func failure(_ what: String, _ number: Int32) -> CommandFailure {
    CommandFailure(
      output: OutputFailure(errorNumber: number),
      note: "\(Sanitizer.clean(path, ascii: false)) \(what); it is as it was")
  }
}
