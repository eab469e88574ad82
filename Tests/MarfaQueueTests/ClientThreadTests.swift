import Dispatch
import Foundation
import MarfaWire
import TestSupport
import Testing

@testable import MarfaQueue

/// The drain's thread: a task that prefers its client's executor (as the drain runs) sends its
/// requests, reads their answers and does its store work on the client's own thread, with no hop
/// to another; every other task hops to the store's queue as before, and nothing deadlocks.
@Suite struct ClientThreadTests {
  /// What ran on the store's queue, in order.
  final class Trace: Sendable {
    let steps = Mutex<[String]>([])
    func add(_ step: String) { steps.withLock { $0.append(step) } }
  }

  /// A server that answers every request `200 {}` and keeps the connection.
  static func answeringServer() throws -> RawServer {
    try RawServer { peer in
      while let head = peer.readHead() {
        peer.skipBody(of: head)
        guard peer.write(Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}".utf8))
        else { return }
      }
    }
  }

  /// Runs `body` in a task that prefers a fresh client's executor (as the drain runs), with a
  /// fresh store; both are closed afterwards.
  static func onTheClientsThread<T: Sendable>(
    _ body: @Sendable (Store) async throws -> T
  ) async throws -> T {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    let store = copy.store
    let client = try HTTPClient(timeout: 5)
    defer { client.invalidate() }
    return try await withTaskExecutorPreference(client.executor) { try await body(store) }
  }

  @Test func aTaskOnTheClientsThreadDoesItsStoreWorkOnThatThread() async throws {
    let (task, work) = try await Self.onTheClientsThread { store in
      // The task moves to the client's thread at its first wait (the preference's hop).
      await Task.yield()
      let task = pthread_self()
      let work = try await store.run { db in
        _ = try db.scalar("PRAGMA data_version")
        return pthread_self()
      }
      return (task, work)
    }
    #expect(pthread_equal(task, work) != 0, "the store's work hopped to another thread")
  }

  @Test func workFromElsewhereWaitsItsTurnOnTheStoresQueue() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    let store = copy.store
    let trace = Trace()
    store.queueAsync { trace.add("queued earlier") }
    try await store.run { _ in trace.add("run") }
    #expect(trace.steps.withLock { $0 } == ["queued earlier", "run"])
  }

  @Test func workFromTheClientsThreadWaitsForWorkQueuedEarlierOnTheStore() async throws {
    let trace = Trace()
    try await Self.onTheClientsThread { store in
      store.queueAsync {
        usleep(50_000)
        trace.add("queued earlier")
      }
      try await store.run { _ in trace.add("run") }
    }
    #expect(trace.steps.withLock { $0 } == ["queued earlier", "run"])
  }

  @Test func manyTripsFromTheClientsThreadBesideOtherTasksNeverDeadlockAndRunInOrder() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    let store = copy.store
    // Other tasks reach the store at the same time, from the shared pool.
    async let others: Int = withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<4 {
        group.addTask {
          for _ in 0..<100 { try await store.run { db in _ = try db.scalar("SELECT 1") } }
          return 100
        }
      }
      return try await group.reduce(0, +)
    }
    let client = try HTTPClient(timeout: 5)
    defer { client.invalidate() }
    let total = try await withTaskExecutorPreference(client.executor) { () async throws -> Int in
      var n = 0
      for i in 0..<200 {
        let before = n
        n = try await store.run { _ in before + 1 }
        if i % 50 == 0 { try await Task.sleep(for: .milliseconds(1)) }
      }
      return n
    }
    #expect(total == 200)
    #expect(try await others == 400)
  }

  @Test func aRequestStartedOnTheClientsThreadGoesOutBeforeTheTaskNextWaitsAndItsAnswerComesBackThere()
    async throws
  {
    let server = try Self.answeringServer()
    defer { server.stop() }
    let client = try HTTPClient(timeout: 5)
    defer { client.invalidate() }
    let url = server.url.appendingPathComponent("items")
    let (sentWhileBusy, status, sameThread) = try await withTaskExecutorPreference(client.executor) {
      // The first request opens the connection (a connect completes on a later turn); the
      // drain's first request, `GET /`, does the same.
      _ = try await client.send("GET", server.url, key: nil)
      #expect(OwnThread.isOwn, "the task is not on the client's thread")
      let task = pthread_self()
      let inFlight = try client.start("GET", url, key: nil)
      // The task keeps the client's thread busy (as the drain's store work does): the request
      // is out all the same, sent when it was started.
      let busyUntil = Date().addingTimeInterval(5 * Double(SanitizerRun.boundScale))
      while server.received.count < 2, Date() < busyUntil { usleep(1_000) }
      let sentWhileBusy = server.received.count == 2
      let response = try await inFlight.response()
      return (sentWhileBusy, response.status, pthread_equal(task, pthread_self()) != 0)
    }
    #expect(server.received.count == 2)
    #expect(sentWhileBusy, "the request waited for the task to give the thread back")
    #expect(status == 200)
    #expect(sameThread, "the answer resumed the task on another thread")
  }

  @Test func aTaskOnAClientClosedUnderItEndsItsRequestFailingAndGoesOn() async throws {
    // Never answers: the request is still out when the client is closed.
    let server = try RawServer { peer in
      while peer.readHead() != nil, !peer.stopping { usleep(10_000) }
    }
    defer { server.stop() }
    // A deadline three times the test's bound: a task that waited for it fails the test.
    let client = try HTTPClient(timeout: 30 * Double(SanitizerRun.boundScale))
    let url = server.url.appendingPathComponent("items")
    let start = ContinuousClock.now
    let (first, afterwards) = await withTaskExecutorPreference(client.executor) { () async -> (String, String) in
      // Closed from a thread of its own, not a task: under a sanitizer the shared pool can be
      // busy with other tests for longer than the request's deadline.
      DetachedThread.start(name: "test-closer") {
        usleep(100_000)
        client.invalidate()
      }
      func outcome() async -> String {
        do {
          _ = try await client.send("GET", url, key: nil)
          return "answered"
        } catch let e as TransportError {
          return "failed: \(e.message)"
        } catch {
          return "\(error)"
        }
      }
      let first = await outcome()
      // Its thread has ended: the task goes on elsewhere, and a new request fails at once.
      let afterwards = await outcome()
      return (first, afterwards)
    }
    #expect(first.hasPrefix("failed"), "\(first)")
    #expect(afterwards.hasPrefix("failed"), "\(afterwards)")
    #expect(
      ContinuousClock.now - start < .seconds(10 * SanitizerRun.boundScale), "the task waited for the request's deadline"
    )
  }
}
