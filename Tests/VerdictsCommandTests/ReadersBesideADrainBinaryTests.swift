import Foundation
import MarfaQueue
import TestSupport
import Testing

/// Reading never stands in a writer's way: `status`, `queue`, `history`, `report` and `metrics` started in
/// the same instant as `verdicts drain` never take the writer role, even for a moment, so the
/// drain never finds it held (exit 4 `reading_handle`). Through the built binary.
@Suite(.serialized) struct ReadersBesideADrainBinaryTests {
  @Test func aDrainStartedTogetherWithReadersNeverFindsTheWriterRoleTaken() async throws {
    let victim = try await DrainVictim(writes: 3)
    let env = victim.environment
    var refused: [String] = []
    for round in 0..<120 {
      let readers = try [["status"], ["queue"], ["history"], ["report"], ["metrics"]].map {
        try Spawned($0, environment: env)
      }
      let drain = try Spawned(["--json", "drain"], environment: env)
      #expect(drain.wait(timeout: 30))
      for reader in readers { #expect(reader.wait(timeout: 30)) }
      let result = drain.result()
      if result.code != 0 { refused.append("round \(round): \(result)") }
      for reader in readers where reader.result().code != 0 { refused.append("round \(round): \(reader.result())") }
    }
    #expect(refused.isEmpty, "\(refused.prefix(5))")
    // The drain did its work too: every write answered.
    #expect(try await victim.queueNow().allSatisfy { $0.verdict == .accepted })
  }
}
