import Dispatch
import Foundation
import MarfaWire
import Testing

@testable import MarfaQueue

/// The store's async interface: a task on the store's own executor (as the drain runs) has its store
/// work done at once, with no hop and no blocked thread; any other task hops to the store's queue.
@Suite struct StoreExecutorTests {
  /// What ran on the store's queue, in order.
  final class Trace: Sendable {
    let steps = Mutex<[String]>([])
    func add(_ step: String) { steps.withLock { $0.append(step) } }
  }

  @Test func workFromTheStoresOwnExecutorRunsAtOnceBeforeWorkQueuedEarlier() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    let store = copy.store
    let trace = Trace()
    let version = try await withTaskExecutorPreference(store.executor) {
      // Queued on the store's queue while this task holds it: it runs only once this task waits.
      store.executor.queue.async { trace.add("queued earlier") }
      return try await store.run { db in
        trace.add("run")
        return try db.scalar("PRAGMA data_version") ?? -1
      }
    }
    #expect(version >= 0)
    try await store.run { _ in }  // the queued block has run once this returns
    #expect(trace.steps.withLock { $0 } == ["run", "queued earlier"])
  }

  @Test func workFromElsewhereWaitsItsTurnOnTheStoresQueue() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    let store = copy.store
    let trace = Trace()
    store.executor.queue.async { trace.add("queued earlier") }
    try await store.run { _ in trace.add("run") }
    #expect(trace.steps.withLock { $0 } == ["queued earlier", "run"])
  }

  @Test func manyTripsFromTheStoresOwnExecutorNeverDeadlockAndRunInOrder() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    let store = copy.store
    // Many short trips to the store from its own executor, with waits elsewhere between them:
    // none deadlocks (as a `DispatchQueue.sync` from the queue would) and each follows the last.
    let total = try await withTaskExecutorPreference(store.executor) { () async throws -> Int in
      var n = 0
      for i in 0..<200 {
        let before = n
        n = try await store.run { _ in before + 1 }
        if i % 50 == 0 { try await Task.sleep(for: .milliseconds(1)) }
      }
      return n
    }
    #expect(total == 200)
  }
}
