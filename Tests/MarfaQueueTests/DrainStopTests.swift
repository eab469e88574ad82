import Foundation
import ScriptedInstance
import Testing

@testable import MarfaQueue

/// `Queue.stopDrain()` (Ctrl-C, SIGTERM on the command line) ends a drain at once, even while it
/// still waits on the root, leaving what it did not send queued.
@Suite struct DrainStopTests {
  @Test func aStopEndsADrainStillWaitingOnTheRootAtOnceSendingNothing() async throws {
    let h = try await DrainHarness(timeout: 30)
    let w = try await h.note()
    h.instance.addRule(.once(.route("GET", "/"), ScriptedAnswer(.stall)))
    let roots = h.requests("GET", "/").filter { $0.path == "/" }.count
    let queue = h.copy.queue
    let draining = Task { try await queue.drain() }
    let deadline = Date().addingTimeInterval(10)
    while h.requests("GET", "/").filter({ $0.path == "/" }).count == roots && Date() < deadline {
      try await Task.sleep(nanoseconds: 20_000_000)
    }
    let asked = ContinuousClock.now
    queue.stopDrain()
    await #expect(throws: QueueError.canceled(answered: 0)) { _ = try await draining.value }
    #expect(ContinuousClock.now - asked < .seconds(2), "the drain went on waiting on the root after the stop")
    #expect(h.requests("POST", "/items").isEmpty)
    let after = try await h.write(w.id)
    #expect(after.verdict == nil && !after.sent)
  }

  @Test func aStopAskedBeforeTheDrainStartsEndsItBeforeItSendsAWrite() async throws {
    let h = try await DrainHarness()
    let w = try await h.note()
    h.copy.queue.stopDrain()
    await #expect(throws: QueueError.canceled(answered: 0)) { _ = try await h.copy.queue.drain() }
    #expect(h.requests("POST", "/items").isEmpty)
    #expect(try await h.write(w.id).verdict == nil)
    // The stop was that drain's: the next one sends the write.
    _ = try await h.copy.queue.drain()
    #expect(try await h.write(w.id).verdict == .accepted)
  }
}
