import Foundation
import TestSupport
import Testing

@testable import MarfaQueue

#if canImport(Glibc)
  import Glibc
#endif

/// A writer role this process let go a moment ago, whose description survives in a child being
/// started (`posix_spawn` copies every descriptor until the child's `exec`), is waited out: the
/// next open writes instead of reading. Here the child is a `sleep` that inherits the descriptor
/// for a tenth of a second, a slow `exec` made long enough to be sure of.
@Suite struct LingeringLockTests {
  /// Starts `sleep 0.1` inheriting every descriptor not marked close-on-exec.
  static func spawnSleep() throws -> pid_t {
    var pid: pid_t = 0
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup("sleep"), strdup("0.1"), nil]
    defer { for arg in argv { free(arg) } }
    let rc = posix_spawn(&pid, "/bin/sleep", nil, nil, argv, environ)
    guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO) }
    return pid
  }

  static func reap(_ pid: pid_t) {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  }

  /// Opens `path` (the store's file or its lock file) without close-on-exec, locks it with
  /// `lock`, starts a child that inherits it, closes ours, and opens the store.
  static func openAfterLeavingALockInAChild(_ t: TestStore, path: String, lock: (Int32) -> Int32) async throws
    -> WorkingCopy
  {
    try await t.open().close()
    let fd = open(path, O_RDWR)
    #expect(fd >= 0)
    // The store just closed may itself linger a moment in a child another test is starting.
    #expect(await eventually(every: .milliseconds(5)) { lock(fd) == 0 })
    let child = try spawnSleep()
    close(fd)
    let copy = try await t.open()
    reap(child)
    return copy
  }

  @Test func aLockFileLockLingeringInAChildOfThisProcessIsWaitedOutAndTheOpenWrites() async throws {
    let t = TestStore()
    let copy = try await Self.openAfterLeavingALockInAChild(t, path: t.url.path + ".lock") {
      flock($0, LOCK_EX | LOCK_NB)
    }
    defer { copy.close() }
    #expect(copy.handle == .writer)
  }

  @Test func aStoreFileLockLingeringInAChildOfThisProcessIsWaitedOutAndTheOpenWrites() async throws {
    let t = TestStore()
    let copy = try await Self.openAfterLeavingALockInAChild(t, path: t.url.path) { fd in
      var region = WriterLock.region(Int16(F_WRLCK))
      return fcntl(fd, WriterLock.setLock, &region)
    }
    defer { copy.close() }
    #expect(copy.handle == .writer)
  }

  @Test func aLockHeldByAStoreOfThisProcessIsKnownAsItsOwnAndTheSecondOpenReads() async throws {
    let t = TestStore()
    let writer = try await t.open()
    defer { writer.close() }
    let second = try await t.open()
    defer { second.close() }
    #expect(!second.handle.isWriter)
    #expect(StoreFileLock.writerHere(t.url.path))
  }
}
