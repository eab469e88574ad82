import Foundation
import ScriptedInstance
import Testing

@testable import MarfaQueue

/// A payload changed in the file after it was queued (bytes SQLite's integrity check does not
/// see) is never sent: the write is refused unsent with a reason that says the store was damaged.
@Suite struct PayloadChecksumTests {
  @Test func aPayloadChangedInTheFileIsNotSentAndIsRefusedAsDamaged() async throws {
    let instance = ScriptedInstance(scenario: Scenario(name: "t", types: [ItemType("note")]))
    let url = try instance.start()
    defer { instance.stop() }
    let store = TestStore()
    let server = Server(url: url.absoluteString, key: "k")
    var copy = try await store.open(server: server)
    try await copy.fill()
    let damaged = try await copy.createItem(type: "note", properties: .object([("title", .string("as queued"))]))
    let intact = try await copy.createItem(type: "note", properties: .object([("title", .string("fine"))]))
    copy.close()
    #expect(
      store.execute("UPDATE queue SET payload = replace(payload, 'as queued', 'rewritten') WHERE id = '\(damaged.id)'"))
    copy = try await store.open(server: server)
    defer { copy.close() }
    let report = try await copy.queue.drain()
    let after = try await copy.queue.write(damaged.id)
    #expect(after.verdict?.wireName == "refused", "\(String(describing: after.verdict))")
    #expect(
      after.verdict?.refusal?.reason.contains("the store was damaged") == true, "\(String(describing: after.verdict))")
    #expect(try await copy.queue.write(intact.id).verdict == .accepted)
    #expect(report.unsent == 1 && report.answered == 1, "\(report)")
    let posts = instance.requests.filter { $0.method == "POST" }
    #expect(posts.count == 1)
    #expect(!posts.contains { $0.bodyText.contains("rewritten") }, "the damaged payload was sent")
  }

  @Test func anUpdateMovedOntoItsCreatesVersionKeepsAnIntactChecksum() async throws {
    let instance = ScriptedInstance(scenario: Scenario(name: "t", types: [ItemType("note")]))
    let url = try instance.start()
    defer { instance.stop() }
    let store = TestStore()
    let copy = try await store.open(server: Server(url: url.absoluteString, key: "k"))
    defer { copy.close() }
    try await copy.fill()
    let create = try await copy.createItem(type: "note", properties: .object([]))
    let update = try await copy.updateItem(id: create.itemId ?? "", properties: .object([("title", .string("b"))]))
    _ = try await copy.queue.drain()
    #expect(try await copy.queue.write(update.id).verdict == .accepted)
  }
}
