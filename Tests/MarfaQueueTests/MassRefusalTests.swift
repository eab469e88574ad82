import Foundation
import ScriptedInstance
import Testing

@testable import MarfaQueue

/// A key refused part-way through a long backlog parks every write behind it; the next drain
/// puts them all back at once, a statement far larger than any one write's.
@Suite struct MassRefusalTests {
  @Test func aKeyRefusalThatParksFifteenThousandWritesLeavesTheNextDrainFreeToSendThem() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-401"), .unauthorized)], timeout: 10)
    for i in 0..<20_000 {
      _ = try await h.note("w\(i)", id: i == 5_000 ? "w-401" : nil)
    }
    let first = try await h.copy.queue.drain()
    #expect(first.answered == 5_001)
    #expect(first.stopped?.contains("15000 row(s) parked") == true)
    #expect(try await h.copy.status().counts.blocked == 15_000)
    try await h.copy.useKey("k2")
    let second = try await h.copy.queue.drain()
    #expect(second.answered == 15_000)
    #expect(second.stopped == nil)
    #expect(try await h.copy.status().counts.blocked == 0)
  }
}
