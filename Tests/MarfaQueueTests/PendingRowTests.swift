import Foundation
import ScriptedInstance
import Testing

@testable import MarfaQueue

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The copy keeps showing what the writes still pending on a row make of it: a dead write may
/// yet be released and sent, so a fill and a catch-up keep it visible; an edit refused unsent
/// behind its dead create leaves the row until a release puts it back.
@Suite struct PendingRowTests {
  /// Drains until every write is dead or answered (the ceiling's worth of drains).
  static func drainToTheCeiling(_ h: DrainHarness) async throws {
    for _ in 0..<QueueLimits.ceiling { _ = try await h.copy.queue.drain() }
  }

  @Test func aDeadCreateStaysVisibleThroughAFill() async throws {
    let h = try await DrainHarness(
      rules: [ScriptRule(.route("POST", "/items"), answers: [.unreadable2xx], repeatsLast: true)])
    let create = try await h.copy.createItem(type: "note", properties: .object([("title", .string("still here"))]))
    try await Self.drainToTheCeiling(h)
    #expect(try await h.write(create.id).verdict == .dead)
    try await h.copy.fill()
    let row = try await h.copy.item(id: create.itemId ?? "")
    #expect(row?["properties"]?["title"] == .string("still here"))
  }

  @Test func anEditRefusedUnsentBehindItsDeadCreateLeavesTheRowUntilItIsReleasedWithIt() async throws {
    let h = try await DrainHarness(
      rules: [ScriptRule(.route("POST", "/items"), answers: [.unreadable2xx], repeatsLast: true)])
    let create = try await h.copy.createItem(type: "note", properties: .object([("title", .string("first"))]))
    let made = create.itemId ?? ""
    let edit = try await h.copy.updateItem(id: made, properties: .object([("title", .string("edited"))]))
    #expect(try await h.copy.item(id: made)?["properties"]?["title"] == .string("edited"))
    try await Self.drainToTheCeiling(h)
    #expect(try await h.write(create.id).verdict == .dead)
    #expect(try await h.write(edit.id).verdict?.name == .refused)
    #expect(try await h.copy.item(id: made)?["properties"]?["title"] == .string("first"))
    #expect(try await h.copy.queue.release(create.id))
    #expect(try await h.write(edit.id).verdict == nil)
    #expect(try await h.copy.item(id: made)?["properties"]?["title"] == .string("edited"))
    #expect(h.requests("PATCH", "/items").isEmpty)
  }

  @Test func aDeadEdgeCreateIsLaidOverTheEdgeACatchUpBrings() async throws {
    let h = try await DrainHarness(
      items: [SeedItem(id: "n1", type: "note"), SeedItem(id: "t1", type: "note")],
      rules: [ScriptRule(.route("POST", "/edges"), answers: [.unreadable2xx], repeatsLast: true)])
    let create = try await h.copy.createEdge(
      source: "n1", target: "t1", type: "references", properties: .object([("weight", .int(2))]), id: "e1")
    try await Self.drainToTheCeiling(h)
    #expect(try await h.write(create.id).verdict == .dead)
    // Another writer makes the edge the dead create names, with a property of its own.
    h.instance.clearRules()
    var request = URLRequest(url: URL(string: "/edges", relativeTo: h.url)!)
    request.httpMethod = "POST"
    request.setValue("Bearer k1", forHTTPHeaderField: "Authorization")
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(
      #"{"id":"e1","source_id":"n1","target_id":"t1","edge_type":"references","properties":{"weight":1,"note":"elsewhere"}}"#
        .utf8)
    let (_, response) = try await URLSession.shared.data(for: request)
    #expect((response as? HTTPURLResponse)?.statusCode == 201)
    #expect(try await h.copy.catchUp() == 1)
    let edge = try await h.copy.edge(id: "e1")
    #expect(edge?["properties"]?["weight"] == .int(2))
    #expect(edge?["properties"]?["note"] == .string("elsewhere"))
    #expect(edge?["version"] == .int(1))
  }

  /// A refused edit of `n1`, whose read-back answers `read` (the row as JSON).
  static func refusedEditReadBack(_ read: String) async throws -> DrainHarness {
    let h = try await DrainHarness(
      items: [SeedItem(id: "n1", type: "note", properties: ["title": "held"])],
      rules: [
        .once(.route("PATCH", "/items/n1"), .error(403, code: "type_forbidden", message: "no writes to note")),
        .once(
          .route("GET", "/items/n1"), .status(200, body: #"{"item":\#(read),"metadata":{"item_id":"n1","tags":[]}}"#)),
      ])
    let w = try await h.copy.updateItem(id: "n1", properties: .object([("title", .string("mine"))]))
    _ = try await h.copy.queue.drain()
    #expect(try await h.write(w.id).verdict?.name == .refused)
    #expect(h.requests("GET", "/items/n1").count == 1)
    return h
  }

  @Test func aRefusedWritesReadBackAtAnOlderVersionLeavesTheRowTheCopyHolds() async throws {
    let h = try await Self.refusedEditReadBack(
      #"{"id":"n1","type":"note","version":0,"state":"active","properties":{"title":"stale"}}"#)
    let row = try await h.copy.item(id: "n1")
    #expect(row?["properties"]?["title"] == .string("held"))
    #expect(row?["version"] == .int(1))
  }

  @Test func aRefusedWritesReadBackStampedBeforeTheRowTheCopyHoldsLeavesIt() async throws {
    let h = try await Self.refusedEditReadBack(
      #"{"id":"n1","type":"note","version":1,"state":"active","updated_at":"2000-01-01T00:00:00.000Z","properties":{"title":"stale"}}"#
    )
    #expect(try await h.copy.item(id: "n1")?["properties"]?["title"] == .string("held"))
  }

  @Test func aRefusedWritesReadBackAtTheSameVersionStampedLaterIsTaken() async throws {
    let h = try await Self.refusedEditReadBack(
      #"{"id":"n1","type":"note","version":1,"state":"active","updated_at":"2999-01-01T00:00:00.000Z","properties":{"title":"theirs"}}"#
    )
    #expect(try await h.copy.item(id: "n1")?["properties"]?["title"] == .string("theirs"))
  }
}
