import Foundation
import MarfaQueue
import TestSupport
import Testing

/// `watch --plain` says a write that leaves the queue with what it was and who took it out:
/// its kind, rows and reason, how it left, and the command that did it. Through the built binary.
@Suite(.serialized) struct WatchPlainDepartureTests {
  @Test func aDepartureLineNamesTheKindRowReasonHowItLeftAndWho() async throws {
    let victim = try await DrainVictim(writes: 1)
    victim.instance.addRules([.once(.route("POST", "/items"), .validation([(field: "title", message: "required")]))])
    let drained = try Binary.run(
      ["--json", "drain"], store: victim.store, home: victim.folder.path, environment: victim.environment)
    #expect(drained.code == 0, "\(drained)")
    let write = try #require(try await victim.queueNow().first)
    let watch = try Spawned(["watch", "--plain"], environment: victim.environment)
    defer { watch.kill() }
    #expect(waitUntil(within: .seconds(20)) { watch.stdout.contains(write.id) }, "\(watch.stdout)")
    let discarded = try Binary.run(["discard", write.id], store: victim.store, home: victim.folder.path)
    #expect(discarded.code == 0, "\(discarded)")
    let gone = { watch.stdout.split(separator: "\n").first { $0.contains(write.id) && $0.contains(" discarded ") } }
    #expect(waitUntil(within: .seconds(20)) { gone() != nil }, "\(watch.stdout)")
    let line = String(gone() ?? "")
    #expect(line.contains(" create_item \(write.itemId ?? "?") discarded validation_error "), "\(line)")
    #expect(line.contains("\"by verdicts discard pid "), "\(line)")
  }
}
