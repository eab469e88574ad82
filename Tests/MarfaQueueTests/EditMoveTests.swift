import Foundation
import ScriptedInstance
import Testing

@testable import MarfaQueue

/// Edits of one row moved onto each other's answers (``SQLite/moveOntoAnswer(_:row:)``): an edit
/// queued behind another edit of the same row goes out on the version the one ahead was
/// answered with, where that answer holds what it read; behind a conflicted answer, or where
/// another device changed what it carries, it keeps its own version.
@Suite struct EditMoveTests {
  static let seeded = SeedItem(id: "n1", type: "note", properties: ["title": "held", "body": "held"])

  /// The `version` each PATCH of the item carried, in the order sent.
  static func sentVersions(_ h: DrainHarness, _ item: String) -> [Int?] {
    h.requests("PATCH", "/items/\(item)").map {
      JSONValue.parse(String(decoding: $0.body, as: UTF8.self))?["version"]?.intValue
    }
  }

  static func body(_ text: String) -> JSONValue { .object([("body", .string(text))]) }

  @Test func aChainOfThreeEditsGoesOutOneAnswerAtATimeAndIsAcceptedWhole() async throws {
    let h = try await DrainHarness(items: [Self.seeded])
    var ids: [String] = []
    for text in ["first", "second", "third"] {
      ids.append(try await h.copy.updateItem(id: "n1", properties: Self.body(text)).id)
    }
    let report = try await h.copy.queue.drain()
    #expect(report.answered == 3)
    for id in ids { #expect(try await h.write(id).verdict == .accepted) }
    #expect(Self.sentVersions(h, "n1") == [1, 2, 3])
    #expect(h.instance.item("n1")?["item"]?["properties"]?["body"] == .string("third"))
  }

  @Test func theEditsOfAnUnansweredCreateGoOutOnEachAnswerInTurn() async throws {
    let h = try await DrainHarness()
    let create = try await h.note("made here", id: "c1")
    let first = try await h.copy.updateItem(id: "c1", properties: Self.body("first"))
    let second = try await h.copy.updateItem(id: "c1", properties: Self.body("second"))
    _ = try await h.copy.queue.drain()
    #expect(try await h.write(create.id).verdict == .accepted)
    #expect(try await h.write(first.id).verdict == .accepted)
    #expect(try await h.write(second.id).verdict == .accepted)
    #expect(Self.sentVersions(h, "c1") == [1, 2])
  }

  @Test func anEditKeepsItsVersionWhereAnotherDeviceChangedWhatItCarries() async throws {
    let h = try await DrainHarness(items: [Self.seeded])
    _ = try await h.copy.updateItem(id: "n1", properties: .object([("title", .string("mine"))]))
    let second = try await h.copy.updateItem(id: "n1", properties: Self.body("second"))
    // Another device rewrites the body before the drain: the answer to the title edit holds a
    // body the second edit never read.
    #expect(h.instance.edit(ConcurrentEdit(itemId: "n1", properties: ["body": "elsewhere"])))
    _ = try await h.copy.queue.drain()
    #expect(Self.sentVersions(h, "n1") == [1, 1])
    // The instance sets the second aside rather than writing it over the other device's body.
    if case .conflicted? = try await h.write(second.id).verdict {
    } else {
      Issue.record("the second edit was taken over a body it never read")
    }
    #expect(h.instance.item("n1")?["item"]?["properties"]?["body"] == .string("elsewhere"))
  }

  @Test func anEditMovedOntoAnAnswerNoLongerCarriesWhatItSendsAtTheValueItRead() async throws {
    let h = try await DrainHarness(items: [Self.seeded])
    _ = try await h.copy.updateItem(id: "n1", properties: Self.body("first"))
    _ = try await h.copy.updateItem(
      id: "n1", properties: .object([("title", .string("held")), ("body", .string("second"))]))
    #expect(h.instance.edit(ConcurrentEdit(itemId: "n1", properties: ["title": "elsewhere"])))
    _ = try await h.copy.queue.drain()
    #expect(Self.sentVersions(h, "n1") == [1, 3])
    let sent = h.requests("PATCH", "/items/n1").last.flatMap {
      JSONValue.parse(String(decoding: $0.body, as: UTF8.self))
    }
    #expect(sent?["properties"] == Self.body("second"))
    let row = h.instance.item("n1")?["item"]?["properties"]
    #expect(row?["title"] == .string("elsewhere"))
    #expect(row?["body"] == .string("second"))
  }

  @Test func anEditBehindAConflictedOneKeepsItsOwnVersion() async throws {
    let h = try await DrainHarness(items: [Self.seeded])
    _ = try await h.copy.updateItem(id: "n1", properties: Self.body("two"))
    _ = try await h.copy.updateItem(id: "n1", properties: Self.body("three"))
    // The body changes elsewhere first: the first edit comes back conflicted (a sibling).
    #expect(h.instance.edit(ConcurrentEdit(itemId: "n1", properties: ["body": "elsewhere"])))
    _ = try await h.copy.queue.drain()
    #expect(Self.sentVersions(h, "n1") == [1, 1])
  }
}

/// The version an edit names: the copy's, or (said to be read) one the copy has held.
@Suite struct EditVersionTests {
  @Test func anEditSaidToBeReadAtAVersionTheCopyNeverShowedIsRefusedAndNothingIsQueued() async throws {
    let h = try await DrainHarness(items: [SeedItem(id: "n1", type: "note", history: [[:], [:]])])
    for version in [0, 4] {
      await #expect(throws: QueueError.self) {
        _ = try await h.copy.updateItem(id: "n1", properties: .object([]), version: version, asRead: true)
      }
    }
    #expect(try await h.copy.queue.all().isEmpty)
    // One the copy held before its own (it holds 3) is taken, said to be read.
    let earlier = try await h.copy.updateItem(id: "n1", properties: .object([]), version: 2, asRead: true)
    #expect(earlier.baseVersion == 2)
  }

  @Test func aCreateKeepsTheVersionItWasBasedOn() async throws {
    let h = try await DrainHarness()
    let w = try await h.copy.createItem(type: "note", properties: .object([]), source: "s", sourceId: "x", version: 7)
    #expect(w.baseVersion == 7)
    #expect(w.body["version"] == .int(7))
  }

  @Test func aDeleteBehindACreateAnsweredAsARepeatStaysUnconfirmedAndIsRefusedUnsent() async throws {
    // The instance took this create long ago and another device has edited the row since: the
    // repeat's answer is the row as it stands, which confirms nothing the delete was made against.
    let repeated =
      #"{"item":{"id":"c1","type":"note","version":2,"state":"active","properties":{"title":"edited elsewhere"}},"metadata":{"item_id":"c1","tags":[],"extensions":{}},"acknowledged":true}"#
    let h = try await DrainHarness(rules: [.once(.route("POST", .exact("/items")), .status(200, body: repeated))])
    _ = try await h.note("mine", id: "c1")
    let fresh = try await h.note("fresh", id: "c2")
    let gone = try await h.copy.deleteItem(id: "c1")
    let goneToo = try await h.copy.deleteItem(id: "c2")
    _ = try await h.copy.queue.drain()
    let refused = try await h.write(gone.id)
    guard case .refused(let why)? = refused.verdict else {
      Issue.record("the delete was not refused: \(refused)")
      return
    }
    #expect(why.reason.contains("no confirmed server version"), "\(why)")
    #expect(h.requests("DELETE", "/items/c1").isEmpty)
    // The witness: behind a create answered for the first time, the delete goes on its version.
    #expect(try await h.write(fresh.id).verdict == .accepted)
    #expect(try await h.write(goneToo.id).verdict == .accepted)
    #expect(h.requests("DELETE", "/items/c2").count == 1)
  }

  @Test func anEditBehindACreateAnsweredAsARepeatGoesOnTheVersionTheCreateMade() async throws {
    let repeated =
      #"{"item":{"id":"c1","type":"note","version":3,"state":"active","properties":{"title":"edited elsewhere"}},"metadata":{"item_id":"c1","tags":[],"extensions":{}},"acknowledged":true}"#
    let h = try await DrainHarness(rules: [.once(.route("POST", .exact("/items")), .status(200, body: repeated))])
    _ = try await h.note("mine", id: "c1")
    let edit = try await h.copy.updateItem(id: "c1", properties: .object([("body", .string("mine"))]), version: 0)
    _ = try await h.copy.queue.drain()
    let sent = try #require(h.requests("PATCH", "/items/c1").first)
    #expect(JSONValue.parse(String(decoding: sent.body, as: UTF8.self))?["version"] == .int(1))
    #expect(try await h.write(edit.id).baseVersion == 1)
  }
}
