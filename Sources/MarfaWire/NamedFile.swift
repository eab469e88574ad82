#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A file the person names for the program to write (`--log FILE`), opened so that it never
/// writes where the name did not say, and never waits: a symbolic link as the last part of the
/// name is not followed (`O_NOFOLLOW`), and the file is opened without blocking (`O_NONBLOCK`: a
/// FIFO with no reader, a device) and refused unless it is a regular file.
public enum NamedFile {
  /// Why a named file was refused, in words that follow its name ("is a symbolic link…").
  public struct Refusal: Error, Sendable {
    public let reason: String
  }

  /// Opens `path` to append to, made owner-only (0600) when absent; the descriptor blocks as
  /// usual once it is known to be a regular file's.
  public static func openForAppending(_ path: String) -> Result<Int32, Refusal> {
    let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      let number = errno
      var info = stat()
      if lstat(path, &info) == 0, let kind = notRegular(info.st_mode) { return .failure(Refusal(reason: kind)) }
      return .failure(Refusal(reason: "cannot be opened (\(String(cString: strerror(number))))"))
    }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let number = errno
      close(fd)
      return .failure(Refusal(reason: "cannot be read for its kind (\(String(cString: strerror(number))))"))
    }
    if let kind = notRegular(info.st_mode) {
      close(fd)
      return .failure(Refusal(reason: kind))
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    return .success(fd)
  }

  /// Why a file of `mode` is not taken; nil for a regular file.
  static func notRegular(_ mode: mode_t) -> String? {
    let taken = "only a regular file is taken"
    switch mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFLNK: return "is a symbolic link, which is not followed: name the file itself"
    case S_IFIFO: return "is a FIFO (a named pipe), which could block: \(taken)"
    case S_IFCHR, S_IFBLK: return "is a device: \(taken)"
    case S_IFDIR: return "is a folder: \(taken)"
    case S_IFSOCK: return "is a socket: \(taken)"
    default: return "is not a regular file: \(taken)"
    }
  }
}
