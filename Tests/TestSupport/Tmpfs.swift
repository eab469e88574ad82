import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A small tmpfs of a test's own (root in this sandbox): the one way tests fill a disk, since
/// root ignores file modes and quotas elsewhere. Checked once (``canMount``) before a test uses it.
public enum Tmpfs {
  /// Runs a tool to its end; true when it exits 0.
  @discardableResult
  public static func tool(_ path: String, _ arguments: [String]) -> Bool {
    guard FileManager.default.isExecutableFile(atPath: path) else { return false }
    return (try? ChildProcess.run(path, arguments))?.shellStatus == 0
  }

  /// `mount`, where this system keeps it.
  public static let mountTool =
    ["/usr/bin/mount", "/bin/mount"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/bin/mount"
  /// `umount`, where this system keeps it.
  public static let umountTool =
    ["/usr/bin/umount", "/bin/umount"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/bin/umount"

  /// Whether a tmpfs can be mounted on a folder of our own here.
  public static let canMount: Bool = {
    let dir = FileManager.default.temporaryDirectory.path + "/verdicts-tmpfs-probe-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    guard tool(mountTool, ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir]) else { return false }
    return tool(umountTool, [dir])
  }()

  /// Mounts a tmpfs of `kilobytes` on `dir` (which must exist).
  public static func mount(_ dir: String, kilobytes: Int) -> Bool {
    tool(mountTool, ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0700", "tmpfs", dir])
  }

  /// Resizes the tmpfs on `dir`.
  public static func resize(_ dir: String, kilobytes: Int) -> Bool {
    tool(mountTool, ["-o", "remount,size=\(kilobytes)k", dir])
  }

  /// Unmounts whatever is mounted on `dir`.
  public static func unmount(_ dir: String) { tool(umountTool, [dir]) }

  /// Fills the file system holding `dir` with a file of zeros until `leaving` bytes are free;
  /// with 0, to the last byte. Returns the filler's path.
  public static func fill(_ dir: String, leaving: Int) -> String {
    let path = dir + "/filler"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    defer { close(fd) }
    var st = statvfs()
    let chunk = [UInt8](repeating: 0, count: 4096)
    while statvfs(dir, &st) == 0, Int(st.f_bavail) * Int(st.f_bsize) > leaving {
      if write(fd, chunk, chunk.count) <= 0 { break }
    }
    if leaving == 0 {
      let one: [UInt8] = [0]
      while write(fd, one, 1) > 0 {}
    }
    return path
  }
}
