import MarfaQueue

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// A new file that takes a command's output whole before the command lets go of what it holds
/// (`take-answered --output FILE`): written beside its path under a hidden name, synced, linked
/// into place (never over a file that is there), then its folder synced; owner-only (0600).
///
/// A failure at any step removes the hidden file and leaves no file at the path.
struct DeliveryFile: Sendable {
  /// The path as given (after `~/`).
  let path: String
  /// The folder the file goes in.
  let folder: String

  /// Checks the path before anything is opened: nothing may be there (an earlier output is never
  /// written over: its writes may have no other copy), and its folder must be one.
  init(path: String, option: String, command: String = "take-answered") throws {
    self.path = path
    let slash = path.lastIndex(of: "/")
    folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    let name = path.lastPathPart
    // A usage message is cut into lines where it breaks; the path is shown on one.
    let shown = Sanitizer.clean(path, ascii: false)
    guard !name.isEmpty, name != ".", name != "..", !path.hasSuffix("/") else {
      throw Self.usage(command, "\(option) needs the path of a file, not '\(shown)'")
    }
    var info = stat()
    if lstat(path, &info) == 0 {
      throw Self.usage(
        command,
        "\(option) \(shown) already exists; it is never written over "
          + "(it may hold the only copy of writes taken before): name a new file")
    }
    guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      throw Self.usage(command, "the folder of \(option) \(shown) does not exist")
    }
  }

  static func usage(_ command: String, _ message: String) -> CommandFailure {
    CommandFailure(usage: UsageError(path: [command], message: message))
  }

  /// Writes `text` as the file's whole content, synced to its disk, with the folder's entry.
  ///
  /// - Throws: a `write_error` ``CommandFailure`` (exit 3) saying which step failed; nothing is
  ///   left at the path, and the hidden file is removed.
  func write(_ text: String) throws {
    let hidden = (folder == "/" ? "" : folder) + "/.\(path.lastPathPart).\(getpid()).partial"
    let fd = open(hidden, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw failure("cannot be made", errno) }
    var linked = false
    defer { if !linked { unlink(hidden) } }
    try Self.writeSyncAndClose(text, fd, failure)
    guard link(hidden, path) == 0 else { throw failure("could not be put in place", errno) }
    linked = true
    unlink(hidden)
    let dir = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if dir >= 0 {
      defer { close(dir) }
      // A folder whose file system cannot sync it (EINVAL) has the entry as well as it can.
      while fsync(dir) != 0 {
        if errno == EINTR { continue }
        if errno == EINVAL || errno == EROFS { break }
        let number = errno
        unlink(path)
        throw failure("could not be synced into its folder", number)
      }
    }
  }

  /// Writes `text` to `fd`, syncs it to its disk and closes it; a failure closes it too and is
  /// thrown as `failure` words it (a file made new beside its place: a report, a textfile).
  static func writeSyncAndClose(
    _ text: String, _ fd: Int32, _ failure: (String, Int32) -> CommandFailure
  ) throws {
    if let number = StandardStreams.write(text, to: fd) {
      close(fd)
      throw failure("could not be written", number)
    }
    while fsync(fd) != 0 {
      if errno == EINTR { continue }
      let number = errno
      close(fd)
      throw failure("could not be synced to its disk", number)
    }
    if close(fd) != 0, errno != EINTR { throw failure("could not be written", errno) }
  }

  func failure(_ what: String, _ number: Int32) -> CommandFailure {
    CommandFailure(
      output: OutputFailure(errorNumber: number),
      note: "\(path) \(what); nothing was taken, the store is as it was")
  }
}
