import Foundation
import ScriptedInstance
import Testing

@testable import MarfaQueue

/// A create carrying a natural key, refused because the row it would make is there (another
/// device's create landed under the key): the refusal names that row, the copy moves onto it
/// once a read finds it, and the writes queued on the create follow where they only add to it.
@Suite struct LandedRefusalTests {
  /// A 409 refusing a keyed create, naming `row` as the one the key resolves.
  static func refusedOnto(_ row: String) -> ScriptedAnswer {
    .status(
      409,
      body: #"""
        {"error":{"code":"ancestor_unavailable","message":"No snapshot is retained for the version named","status":409},
         "current":{"id":"\#(row)","version":2,"properties":{"title":"theirs"},"tier":"standard","occurred_at":null,
                    "source_id":"raced.md","type":"note"},"requested_version":0}
        """#)
  }

  static let theirs = SeedItem(
    id: "srv-1", type: "note", properties: ["title": "theirs"], history: [["title": "first"]], source: "notes",
    sourceId: "raced.md")

  @Test func aKeyedCreateIsShownUnderAMintedIdAndSentWithoutIt() async throws {
    let h = try await DrainHarness()
    let w = try await h.copy.createItem(type: "note", properties: .object([]), source: "notes", sourceId: "new.md")
    let local = try #require(w.itemId)
    #expect(local.count == 36, "the row is shown under an id minted here: \(local)")
    #expect(w.body["id"] == nil, "the id minted here went into the create's body: \(w.body)")
    #expect(try await h.copy.item(id: local) != nil)
  }

  @Test func aCreateRefusedOntoItsNaturalKeysRowMovesTheCopyOntoItAndOnlyWhatAddsFollows() async throws {
    let h = try await DrainHarness(
      items: [Self.theirs], rules: [.once(.route("POST", .exact("/items")), Self.refusedOnto("srv-1"))])
    let create = try await h.copy.createItem(
      type: "note", properties: .object([("title", .string("mine"))]), source: "notes", sourceId: "raced.md",
      version: 0)
    let local = try #require(create.itemId)
    let tag = try await h.copy.addTag(item: local, tag: "kept")
    let edit = try await h.copy.updateItem(id: local, properties: .object([("title", .string("edited"))]), version: 0)
    #expect(edit.dependsOn == [create.id])

    let report = try await h.copy.queue.drain()
    let settled = try await h.write(create.id)
    #expect(settled.verdict?.name == .refused)
    #expect(report.verdicts.first { $0.id == create.id }?.itemId == "srv-1", "\(report.verdicts)")
    // The copy holds the row the key names, as read, and not the one shown here.
    #expect(try await h.copy.item(id: "srv-1")?["properties"]?["title"] == .string("theirs"))
    #expect(try await h.copy.item(id: local) == nil)
    // The tag only adds to that row: it went there. The edit was made against this device's
    // row: it was refused, never sent.
    #expect(try await h.write(tag.id).verdict == .accepted)
    #expect(h.requests("POST", "/items/srv-1/tags").count == 1)
    #expect(try await h.write(edit.id).verdict?.name == .refused)
    #expect(h.requests("PATCH", "/items/").isEmpty)
  }

  @Test func aCreateRefusedOntoARowNoReadFindsKeepsItsRowAndHoldsWhatWaitsOnItUntilARead() async throws {
    let h = try await DrainHarness(
      items: [SeedItem(id: "n1", type: "note", properties: ["title": "held"])],
      rules: [
        .once(.route("POST", .exact("/items")), Self.refusedOnto("srv-2")),
        .once(.route("GET", .exact("/items/srv-2")), .error(404, code: "item_not_found", message: "not found")),
        .once(
          .route("GET", .exact("/items/srv-2")),
          .status(
            200,
            body:
              #"{"item":{"id":"srv-2","type":"note","version":2,"state":"active","properties":{"title":"theirs"},"source":"notes","source_id":"raced.md"},"metadata":{"item_id":"srv-2","tags":[],"extensions":{}}}"#
          )),
        .always(
          .route("POST", .exact("/items/srv-2/tags")),
          .status(200, body: #"{"metadata":{"item_id":"srv-2","tags":["kept"],"extensions":{}}}"#)),
      ])
    let create = try await h.copy.createItem(
      type: "note", properties: .object([]), source: "notes", sourceId: "raced.md", version: 0)
    let local = try #require(create.itemId)
    let tag = try await h.copy.addTag(item: local, tag: "kept")
    let other = try await h.copy.updateItem(id: "n1", properties: .object([("title", .string("moved"))]), version: 1)

    _ = try await h.copy.queue.drain()
    // Refused, its row kept as shown here; the tag waits on the read, and the rest of the queue goes.
    #expect(try await h.write(create.id).verdict?.name == .refused)
    #expect(try await h.copy.item(id: local) != nil)
    #expect(try await h.write(tag.id).verdict == nil)
    #expect(h.requests("POST", "/items/srv-2/tags").isEmpty)
    #expect(try await h.write(other.id).verdict == .accepted)
    // A write queued on that row now waits on the create too.
    let later = try await h.copy.addTag(item: local, tag: "later")
    #expect(later.dependsOn == [create.id])

    // The next drain reads the row first; found, the copy moves onto it and the tags go there.
    _ = try await h.copy.queue.drain()
    #expect(try await h.copy.item(id: local) == nil)
    #expect(try await h.copy.item(id: "srv-2") != nil)
    #expect(try await h.write(tag.id).verdict == .accepted)
    #expect(h.requests("POST", "/items/srv-2/tags").count == 2)
  }

  @Test func aSidecarDoorsEmptyAnswerIsItsPlainDone() async throws {
    let h = try await DrainHarness(
      items: [SeedItem(id: "n1", type: "note")],
      rules: [.once(.route("POST", .exact("/items/n1/tags")), .status(200, body: "{}"))])
    let tag = try await h.copy.addTag(item: "n1", tag: "x")
    _ = try await h.copy.queue.drain()
    #expect(try await h.write(tag.id).verdict == .accepted)
    #expect(try await h.write(tag.id).refusals == 0)
  }

  @Test func aCreateCarryingTheNaturalKeyOfAHeldRowIsOrderedWithThatRowsWrites() async throws {
    let h = try await DrainHarness(
      items: [SeedItem(id: "k1", type: "note", tier: "feed", source: "notes", sourceId: "k.md")])
    let edit = try await h.copy.updateItem(id: "k1", properties: .object([("a", .int(1))]), version: 1)
    let create = try await h.copy.createItem(
      type: "note", properties: .object([]), source: "notes", sourceId: "k.md")
    // The create goes after the row's edit still waiting, and is shown at that row's tier.
    #expect(create.follows == edit.id)
    #expect(try await h.copy.item(id: create.itemId ?? "")?["tier"] == .string("feed"))
    // An edit of the row queued after it goes after the create, which the instance lands there.
    let later = try await h.copy.updateItem(id: "k1", properties: .object([("b", .int(2))]), version: 1)
    #expect(later.follows == create.id)
  }
}
