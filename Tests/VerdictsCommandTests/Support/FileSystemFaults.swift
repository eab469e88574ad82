import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Ways to make a store read-only or its disk full in this sandbox, each checked before use.
///
/// Tests run as root here, and root ignores file modes, so `chmod` proves nothing; a read-only
/// bind mount, an immutable file (`chattr +i`) and a tiny tmpfs do stop root. Each is tried
/// once on a scratch folder; a test that needs one that is missing says so and is not run.
enum FileSystemFaults {
  static var isRoot: Bool { getuid() == 0 }

  /// Runs a tool to its end; true when it exits 0 (``Tmpfs/tool(_:_:)``).
  @discardableResult
  static func tool(_ path: String, _ arguments: [String]) -> Bool { Tmpfs.tool(path, arguments) }

  static let chattrTool =
    ["/usr/bin/chattr", "/bin/chattr"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/bin/chattr"

  /// Whether a tmpfs can be mounted (and a bind mount made read-only) on a folder of our own.
  static let canMount: Bool = {
    guard Tmpfs.canMount else { return false }
    let dir = FileManager.default.temporaryDirectory.path + "/verdicts-mount-probe-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    guard tool(Tmpfs.mountTool, ["--bind", dir, dir]) else { return false }
    let ro = tool(Tmpfs.mountTool, ["-o", "remount,bind,ro", dir])
    Tmpfs.unmount(dir)
    return ro
  }()

  /// Whether `chattr +i` works on a file here (and so stops root writing it).
  static let canMakeImmutable: Bool = {
    let file = FileManager.default.temporaryDirectory.path + "/verdicts-chattr-probe-\(UUID().uuidString)"
    guard FileManager.default.createFile(atPath: file, contents: Data("x".utf8)) else { return false }
    defer {
      tool(chattrTool, ["-i", file])
      try? FileManager.default.removeItem(atPath: file)
    }
    guard tool(chattrTool, ["+i", file]) else { return false }
    return open(file, O_WRONLY | O_APPEND) < 0
  }()

  /// Mounts a tmpfs of `kilobytes` on `dir` (which must exist).
  static func mountTmpfs(_ dir: String, kilobytes: Int) -> Bool { Tmpfs.mount(dir, kilobytes: kilobytes) }

  /// Resizes the tmpfs on `dir`.
  static func resizeTmpfs(_ dir: String, kilobytes: Int) -> Bool { Tmpfs.resize(dir, kilobytes: kilobytes) }

  /// Binds `dir` onto itself read-only.
  static func bindReadOnly(_ dir: String) -> Bool {
    guard tool(Tmpfs.mountTool, ["--bind", dir, dir]) else { return false }
    if tool(Tmpfs.mountTool, ["-o", "remount,bind,ro", dir]) { return true }
    Tmpfs.unmount(dir)
    return false
  }

  /// Unmounts whatever is mounted on `dir`.
  static func unmount(_ dir: String) { Tmpfs.unmount(dir) }

  /// Fills the file system holding `dir` until `leaving` bytes are free (``Tmpfs/fill(_:leaving:)``).
  static func fill(_ dir: String, leaving: Int) -> String { Tmpfs.fill(dir, leaving: leaving) }

  /// Runs `verdicts` with `RLIMIT_FSIZE` set to `kilobytes` (and SIGXFSZ ignored, so a write
  /// past it fails with EFBIG instead of killing the process).
  static func runCapped(kilobytes: Int, _ arguments: [String], environment: [String: String]) throws -> CommandResult {
    let binary = try Binary.require()
    let run = try ChildProcess.run(
      "/bin/bash", ["-c", "trap '' XFSZ; ulimit -f \(kilobytes); exec \"$0\" \"$@\"", binary] + arguments,
      environment: environment)
    return CommandResult(code: run.status, stdout: run.output, stderr: run.errors)
  }
}
