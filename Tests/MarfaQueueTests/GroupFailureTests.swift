import Foundation
import Testing

@testable import MarfaQueue

#if canImport(Glibc)
  import Glibc
#endif

/// A group commit that fails (the disk full for a moment) is never dropped: the verdicts it
/// held were rolled back, so the next call on the store, and the end of the group, throw it.
@Suite(.serialized) struct GroupFailureTests {
  /// Runs a tool to its end; true when it exits 0.
  static func tool(_ path: String, _ arguments: [String]) -> Bool {
    guard FileManager.default.isExecutableFile(atPath: path) else { return false }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = arguments
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    do { try p.run() } catch { return false }
    p.waitUntilExit()
    return p.terminationStatus == 0
  }

  static let mount =
    ["/usr/bin/mount", "/bin/mount"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/bin/mount"
  static let umount =
    ["/usr/bin/umount", "/bin/umount"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/bin/umount"

  /// Whether a small tmpfs can be mounted here (root in this sandbox).
  static let canMount: Bool = {
    let dir = FileManager.default.temporaryDirectory.path + "/verdicts-group-probe-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    guard tool(mount, ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir]) else { return false }
    return tool(umount, [dir])
  }()

  /// Fills the file system holding `dir` to the last byte; returns the filler's path.
  static func fill(_ dir: String) -> String {
    let path = dir + "/filler"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    defer { close(fd) }
    let chunk = [UInt8](repeating: 0, count: 4096)
    while write(fd, chunk, chunk.count) > 0 {}
    let one: [UInt8] = [0]
    while write(fd, one, 1) > 0 {}
    return path
  }

  @Test(.enabled(if: canMount, "needs mount for a small tmpfs"))
  func aGroupCommitThatFailsOnAFullDiskIsThrownToTheNextCallAndToTheGroupsEndEvenOnceThereIsRoom() async throws {
    let dir = FileManager.default.temporaryDirectory.path + "/verdicts-group-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    #expect(Self.tool(Self.mount, ["-t", "tmpfs", "-o", "size=4096k", "tmpfs", dir]))
    defer {
      _ = Self.tool(Self.umount, [dir])
      try? FileManager.default.removeItem(atPath: dir)
    }
    let store = try Store.open(path: dir + "/queue.store", create: true, wantWriter: true)
    defer { store.shutdown() }
    // The disk fills first: on a loaded machine the group's timer could otherwise commit the
    // group before the filler is done, and nothing would be left to lose.
    let filler = Self.fill(dir)
    try await store.run { try $0.beginGroup() }
    // A verdict's worth of bookkeeping in the open group (in memory until the group commits).
    try await store.run { try $0.setMeta("answered", String(repeating: "v", count: 200_000)) }
    // The group's timer commits it within its span, and that commit finds the disk full: from
    // then on every call is refused (waited for, up to 10 s: a loaded machine delays the timer).
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline, (try? await store.run { try $0.meta("schema_version") }) != nil {
      try await Task.sleep(nanoseconds: UInt64(SQLite.groupSpan))
    }
    unlink(filler)
    // Room again, but what the group held is gone: the store says so, it does not go on.
    await #expect(throws: QueueError.self) { try await store.run { try $0.setMeta("later", "1") } }
    do {
      try await store.run { try $0.commitGroup() }
      Issue.record("the end of a group that lost its work did not throw")
    } catch let error as QueueError {
      #expect(error.code == "storage_full", "\(error)")
    }
    try? await store.endGroup()
    #expect(try await store.run { try $0.meta("answered") } == nil)
    // After the group's end is told, the store works again.
    try await store.run { try $0.setMeta("later", "1") }
    #expect(try await store.run { try $0.meta("later") } == "1")
  }
}
