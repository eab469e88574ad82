import Foundation
import MarfaQueue
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
    let deadline = Date().addingTimeInterval(10)
    while !watch.stderr.contains("waiting for it"), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
    #expect(watch.stderr.contains("no store at \(store) yet; waiting for it"))
    try await Task.sleep(for: .milliseconds(600))
    #expect(watch.process.isRunning)
    #expect(!FileManager.default.fileExists(atPath: store), "the watcher made the store")
    let writer = try await WorkingCopy.open(store: URL(fileURLWithPath: store), server: nil)
    let queued = try await writer.createItem(type: "note", properties: .object([]))
    writer.close()
    // On two cores shared with the other suites' spawned processes the watcher may take seconds to
    // notice the store and print (alone: under 2 s for the whole test).
    // (seen once: over 45 s while CrashSafetyTests spawned drains beside it).
    let followed = Date().addingTimeInterval(120)
    while !watch.stdout.contains(queued.id), Date() < followed {
      try await Task.sleep(for: .milliseconds(20))
    }
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
