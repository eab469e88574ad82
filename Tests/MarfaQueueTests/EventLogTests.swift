import Foundation
import ScriptedInstance
import Testing

@testable import MarfaQueue

/// The events beside the drains: each release, undo, key given and fill is kept with who did it
/// and how many it touched; never a key (docs/rules.md, "The story after the fact").
@Suite struct EventLogTests {
  @Test func releasesUndosAKeyAndAFillAreKeptWithWhoAndHowMany() async throws {
    let h = try await DrainHarness(rules: [
      .once(.write("w-a"), .keyReused), .once(.write("w-b"), .keyReused),
      .once(.write("w-400"), .validation([("properties.title", "is required")])),
    ])
    let a = try await h.note(id: "w-a")
    _ = try await h.note(id: "w-b")
    let refused = try await h.note(id: "w-400")
    _ = try await h.copy.queue.drain()
    #expect(try await h.copy.queue.release(reason: .keySpent) == 2)
    let batch = try #require(try await h.copy.queue.lastRelease())
    _ = try await h.copy.queue.undoRelease(batch.number)
    #expect(try await h.copy.queue.release(a.id))
    #expect(try await h.copy.queue.discard(refused.id))
    guard case .restored = try await h.copy.queue.undo(refused.id) else {
      Issue.record("the discard was not undone")
      return
    }
    try await h.copy.useKey("k-secret-second")
    let events = try await h.copy.events()
    let kinds = events.map(\.kind)
    #expect(
      kinds == [.keyChanged, .undo, .release, .undoRelease, .release, .filled], "newest first: \(events)")
    let byReason = try #require(events.first { $0.kind == .release && $0.reason != nil })
    #expect(byReason.count == 2 && byReason.reason == "key_spent")
    #expect(events.first { $0.kind == .undoRelease }?.count == 2)
    #expect(events.first { $0.kind == .undo }?.detail == "discarded")
    #expect(events.allSatisfy { $0.pid != nil && $0.program != nil }, "each names the process that did it")
    #expect(!events.contains { "\($0)".contains("k-secret-second") }, "a key is never kept")
  }

  @Test func aBatchPutBackOneWriteAtATimeIsOneUndoEventCounted() async throws {
    let h = try await DrainHarness(rules: [])
    var ids: [String] = []
    for i in 0..<4 { ids.append(try await h.note(id: "w-\(i)").id) }
    _ = try await h.copy.queue.drain()
    #expect(try await h.copy.queue.forgetAnswered(ids: ids) == 4)
    for id in ids { _ = try await h.copy.queue.undo(id) }
    let undos = try await h.copy.events().filter { $0.kind == .undo }
    #expect(undos.count == 1 && undos.first?.count == 4, "\(undos)")
  }
}
