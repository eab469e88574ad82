#if canImport(Glibc)
  import Glibc
#endif

/// The words for what a path names when it is not the regular file a reader wanted: the store,
/// its lock and blobs (the engine) and the files a person writes (the screen and the command
/// line) say it alike.
public enum FileType {
  /// What a file of this type (`st_mode & S_IFMT`) is, in words: "a folder", "a FIFO (named pipe)", …
  public static func describe(_ type: mode_t) -> String {
    switch type {
    case S_IFDIR: return "a folder"
    case S_IFIFO: return "a FIFO (named pipe)"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFSOCK: return "a socket"
    default: return "not a regular file"
    }
  }
}
