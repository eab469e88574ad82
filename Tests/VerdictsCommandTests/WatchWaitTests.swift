import Foundation
import MarfaQueue
import TestSupport
import Testing

/// `verdicts watch --wait` on a store that does not exist yet: says so, creates nothing, and
/// follows the store once it is made.
@Suite struct WatchWaitTests {
  @Test func watchPlainWaitWaitsForAMissingStoreCreatingNothingThenFollowsIt() async throws {
    let folder = TempFolder()
    let store = folder.store
    let watch = try Spawned(
      ["watch", "--plain", "--wait"], environment: Binary.environment(store: store, home: folder.path, [:]))
    defer { watch.kill() }
    await eventually(within: .seconds(10)) { watch.stderr.contains("waiting for it") }
    #expect(watch.stderr.contains("no store at \(store) yet; waiting for it"))
    // A fixed pause: that another process makes no file has no event to wait on; 600 ms is
    // more than its looks for the store take to come round.
    try await Task.sleep(for: .milliseconds(600))
    #expect(watch.process.isRunning)
    #expect(!FileManager.default.fileExists(atPath: store), "the watcher made the store")
    let writer = try await WorkingCopy.open(store: URL(fileURLWithPath: store), server: nil)
    let queued = try await writer.createItem(type: "note", properties: .object([]))
    writer.close()
    // On two cores shared with the other suites' spawned processes the watcher may take seconds to
    // notice the store and print (alone: under 2 s for the whole test).
    // (seen once: over 45 s while CrashSafetyTests spawned drains beside it).
    await eventually(within: .seconds(120)) { watch.stdout.contains(queued.id) }
    #expect(
      watch.stdout.contains("\(queued.id) create_item"),
      "stdout: \(watch.stdout)\nstderr: \(watch.stderr)\nrunning: \(watch.process.isRunning)")
  }

  @Test func watchWithoutWaitOnAMissingStoreStillEndsAtOnce() async throws {
    let folder = TempFolder()
    let watch = try Spawned(
      ["watch", "--plain"], environment: Binary.environment(store: folder.store, home: folder.path, [:]))
    defer { watch.kill() }
    #expect(try await WriterRecordBinaryTests.ended(watch, timeout: 20))
    let r = watch.result()
    #expect(r.code == 2 || r.code == 4, "\(r)")
    #expect(!FileManager.default.fileExists(atPath: folder.store))
  }
}
