import ScriptedInstance
import Testing

@testable import MarfaQueue

/// The status counts the refused among the answered writes, so a screen can
/// say `Answered 601 · 1 refused` where one refused write hides among accepted ones.
@Suite struct RefusedCountTests {
  @Test func theStatusCountsTheRefusedAmongTheAnsweredWrites() async throws {
    let h = try await DrainHarness(rules: [ScriptRule(.write("w-bad"), answers: [.validation([("title", "bad")])])])
    _ = try await h.note(id: "w-ok-1")
    _ = try await h.note(id: "w-bad")
    _ = try await h.note(id: "w-ok-2")
    #expect(try await h.copy.status().refused == 0)
    _ = try await h.copy.queue.drain()
    let status = try await h.copy.status()
    #expect(status.counts.answered == 3)
    #expect(status.refused == 1)
  }
}
