import Digest
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The folder beside the store that holds uploaded bytes, each file named by its SHA-256:
/// opened as the store's own, never through a symbolic link.
///
/// The folder is opened `O_NOFOLLOW | O_DIRECTORY` and must be this user's; every file in it is
/// reached from that descriptor (`openat`, `renameat`, `fstatat`), opened `O_NOFOLLOW`, and must
/// be a regular file of this user's whose bytes hash to its name. A file planted there (a link to
/// a secret, other bytes under a hash's name) is never queued over and never sent.
struct BlobFolder {
  /// The folder's path (`<resolved store path>.blobs`).
  let path: String

  /// What an upload names its bytes by, as the contract does: `sha256:` and the 64 lowercase hex
  /// digits of their SHA-256.
  static func name(hex: String) -> String { "sha256:" + hex }

  /// The hex digits a name of bytes carries (``name(hex:)``), which is the file's name in the
  /// folder; a name of an earlier build (bare hex) is its own.
  static func hex(of name: String) -> String { name.hasPrefix("sha256:") ? String(name.dropFirst(7)) : name }

  /// What a check of one file of the folder found.
  enum Check: Equatable {
    /// Nothing under that name (or no folder).
    case missing
    /// The bytes are there and hash to their name: the file's identity and size, as checked.
    case intact(FileIdentity, size: Int)
    /// Something else is there; why, in words.
    case damaged(String)
  }

  /// The bytes could not be taken or kept as the store's own.
  struct Refusal: Error {
    var message: String
  }

  /// Opens the folder, making it (mode 0700) when asked; nil when it is not there and not made.
  /// Throws when it is not the store's own (a link, not a folder, another user's).
  func open(creating: Bool) throws -> Int32? {
    if creating, mkdir(path, 0o700) != 0, errno != EEXIST {
      throw WorkingCopy.writeFailure(errno, path: path)
    }
    let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else {
      let code = errno
      if code == ENOENT && !creating { return nil }
      throw Refusal(message: Self.notOwn(path, code: code))
    }
    var st = stat()
    guard fstat(fd, &st) == 0, st.st_uid == geteuid() else {
      let owner = st.st_uid
      Glibc.close(fd)
      throw Refusal(
        message: "the blob folder \(path) belongs to another user (uid \(owner)); it is not used (remove it)")
    }
    return fd
  }

  /// Why `path` could not be opened as the store's own folder.
  private static func notOwn(_ path: String, code: Int32) -> String {
    if code == ELOOP || code == ENOTDIR {
      var st = stat()
      let link = lstat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFLNK
      let target = link ? StorePath.linkTarget(path).map { " to \($0)" } ?? "" : ""
      let what = link ? "a symbolic link\(target)" : StorePath.describe(st.st_mode & S_IFMT)
      return
        "the blob folder \(path) is \(what), not a folder of the store's own; the files a store owns are never followed through a link (remove it)"
    }
    return "the blob folder \(path) cannot be opened: \(String(cString: strerror(code)))"
  }

  /// Checks the file named `hash`: there, a regular file of this user's, its bytes hashing to
  /// its name (read whole, a chunk at a time).
  func check(_ hash: String) -> Check {
    let folder: Int32
    do {
      guard let fd = try open(creating: false) else { return .missing }
      folder = fd
    } catch let refusal as Refusal {
      return .damaged(refusal.message)
    } catch {
      return .damaged(String(describing: error))
    }
    defer { Glibc.close(folder) }
    return check(hash, in: folder)
  }

  /// ``check(_:)`` from the folder's descriptor.
  func check(_ hash: String, in folder: Int32) -> Check {
    let fd = openat(folder, hash, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    guard fd >= 0 else {
      let code = errno
      if code == ENOENT { return .missing }
      if code == ELOOP {
        let target = StorePath.linkTarget(path + "/" + hash).map { " to \($0)" } ?? ""
        return .damaged("it is a symbolic link\(target), and the files a store owns are never followed through a link")
      }
      return .damaged("it cannot be opened: \(String(cString: strerror(code)))")
    }
    defer { Glibc.close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else { return .damaged("it cannot be read: \(String(cString: strerror(errno)))") }
    let type = st.st_mode & S_IFMT
    guard type == S_IFREG else { return .damaged("it is \(StorePath.describe(type)), not a file") }
    guard st.st_uid == geteuid() else { return .damaged("it belongs to another user (uid \(st.st_uid))") }
    var hasher = SHA256Hasher()
    var chunk = [UInt8](repeating: 0, count: WorkingCopy.blobChunk)
    var size = 0
    while true {
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        return .damaged("it cannot be read: \(String(cString: strerror(errno)))")
      }
      if n == 0 { break }
      chunk.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
      size += n
    }
    let found = hasher.finishHex()
    guard found == hash else { return .damaged("its \(size) bytes hash to \(found), not to its name") }
    return .intact(FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino)), size: size)
  }

  /// Keeps the bytes just written to `incoming` (a file in the folder) under their hash: moved
  /// into place when nothing is there, dropped when the same bytes already are. Refuses, leaving
  /// what is there as it is, when another file holds the name (a link, other bytes, another
  /// user's); `incoming` is removed in every case.
  func keep(incoming: String, as hash: String, in folder: Int32) throws {
    defer { unlinkat(folder, incoming, 0) }
    switch check(hash, in: folder) {
    case .intact:
      return
    case .damaged(let why):
      throw Refusal(
        message:
          "\(path)/\(hash) is already there and is not these bytes: \(why); it was left as it is and nothing was queued (remove it and put the file again)"
      )
    case .missing:
      // `renameat` never follows a link at the new name; one planted since is replaced, not followed.
      guard renameat(folder, incoming, folder, hash) == 0 else {
        throw WorkingCopy.writeFailure(errno, path: path + "/" + hash)
      }
      fsync(folder)
    }
  }

  /// Makes a new file in the folder for bytes about to be kept; its name and descriptor.
  func makeIncoming(in folder: Int32) throws -> (name: String, descriptor: Int32) {
    let name = ".incoming-\(getpid())-\(UUID().uuidString)"
    let fd = openat(folder, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw WorkingCopy.writeFailure(errno, path: path + "/" + name) }
    return (name, fd)
  }
}
