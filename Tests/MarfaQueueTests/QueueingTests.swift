import Foundation
import Testing

@testable import MarfaQueue

@Suite struct QueueingTests {
  @Test func queuedCreateIsKeptWithMintedIdKeyAndBody() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let w = try await copy.createItem(type: "note", properties: .object([("title", .string("a"))]))
    #expect(w.kind == .createItem)
    #expect(w.itemId?.count == 36)
    #expect(w.body["type"] == .string("note"))
    #expect(w.body["id"] == .string(w.itemId!))
    #expect(w.verdict == nil)
    #expect(!w.idempotencyKey.isEmpty)
    let all = try await copy.queue.all()
    #expect(all == [w])
  }

  @Test func writeToUnansweredCreateDependsOnItAndFollowsLatestWrite() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let create = try await copy.createItem(type: "note", properties: .object([]))
    let update = try await copy.updateItem(id: create.itemId!, properties: .object([("a", .number(1))]))
    let tag = try await copy.addTag(item: create.itemId!, tag: "x")
    #expect(update.dependsOn == [create.id])
    #expect(update.follows == create.id)
    #expect(update.baseVersion == 0)
    #expect(tag.dependsOn == [create.id])
    #expect(tag.follows == update.id)
  }

  @Test func updateOfRowTheCopyDoesNotHoldNamingNoVersionIsRefusedAndNothingQueued() async throws {
    let t = TestStore()
    let copy = try await t.open()
    await #expect(throws: QueueError.self) {
      _ = try await copy.updateItem(id: "nope", properties: .object([]))
    }
    #expect(try await copy.queue.all().isEmpty)
    let named = try await copy.updateItem(id: "nope", properties: .object([]), version: 7)
    #expect(named.baseVersion == 7)
    #expect(named.body["version"] == .number(7))
  }
}
