import Foundation
import TestSupport
import Testing

@testable import MarfaQueue

#if canImport(Glibc)
  import Glibc
#endif

/// A group commit that fails (the disk full for a moment) is never dropped: the verdicts it
/// held were rolled back, so the next call on the store, and the end of the group, throw it.
@Suite(.serialized) struct GroupFailureTests {
  @Test(
    "a group commit that fails on a full disk is thrown to the next call and to the group's end even once there is room",
    .enabled(if: Tmpfs.canMount, "needs mount for a small tmpfs"))
  func aGroupCommitThatFailsOnAFullDiskIsThrownToTheNextCallAndToTheGroupsEndEvenOnceThereIsRoom() async throws {
    let dir = FileManager.default.temporaryDirectory.path + "/verdicts-group-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    #expect(Tmpfs.mount(dir, kilobytes: 4096))
    defer {
      Tmpfs.unmount(dir)
      try? FileManager.default.removeItem(atPath: dir)
    }
    let store = try Store.open(path: dir + "/queue.store", create: true, wantWriter: true)
    defer { store.shutdown() }
    // The disk fills first: on a loaded machine the group's timer could otherwise commit the
    // group before the filler is done, and nothing would be left to lose.
    let filler = Tmpfs.fill(dir, leaving: 0)
    try await store.run { try $0.beginGroup() }
    // A verdict's worth of bookkeeping in the open group (in memory until the group commits).
    try await store.run { try $0.setMeta(.lastDrain, String(repeating: "v", count: 200_000)) }
    // The group's timer commits it within its span, and that commit finds the disk full: from
    // then on every call is refused (waited for, up to 10 s: a loaded machine delays the timer).
    await eventually(within: .seconds(10), every: .nanoseconds(Int64(SQLite.groupSpan))) {
      (try? await store.run { try $0.meta(MetaKey.schemaVersion) }) == nil
    }
    unlink(filler)
    // Room again, but what the group held is gone: the store says so, it does not go on.
    await #expect(throws: QueueError.self) { try await store.run { try $0.setMeta(.lastDrainAt, "1") } }
    do {
      try await store.run { try $0.commitGroup() }
      Issue.record("the end of a group that lost its work did not throw")
    } catch let error as QueueError {
      #expect(error.code == "storage_full", "\(error)")
    }
    try? await store.endGroup()
    #expect(try await store.run { try $0.meta(.lastDrain) } == nil)
    // After the group's end is told, the store works again.
    try await store.run { try $0.setMeta(.lastDrainAt, "1") }
    #expect(try await store.run { try $0.meta(.lastDrainAt) } == "1")
  }
}
