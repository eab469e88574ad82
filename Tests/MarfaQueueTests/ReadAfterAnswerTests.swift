import Foundation
import ScriptedInstance
import Testing

@testable import MarfaQueue

/// After an answer that took a write (accepted, merged, conflicted) the drain reads the row or edge
/// again and the copy holds what that read returns: another writer may have changed it between
/// the answer and the read. A read that cannot be made keeps the verdict, counts nothing, ends
/// the pass and is made first by the next drain.
@Suite struct ReadAfterAnswerTests {
  static let noteRead =
    #"{"item":{"id":"n1","type":"note","version":5,"state":"active","properties":{"title":"the read's"}},"metadata":{"item_id":"n1","tags":[]}}"#

  @Test func theCopyHoldsTheRowAFreshReadReturnsOverTheRowTheAnswerCarried() async throws {
    let h = try await DrainHarness(
      items: [SeedItem(id: "n1", type: "note", properties: ["title": "held"])],
      rules: [.once(.route("GET", "/items/n1"), .status(200, body: Self.noteRead))])
    let w = try await h.copy.updateItem(id: "n1", properties: .object([("title", .string("mine"))]))
    let report = try await h.copy.queue.drain()
    #expect(report.verdicts.map(\.verdict) == [.accepted])
    #expect(h.requests("GET", "/items/n1").count == 1)
    let row = try await h.copy.item(id: "n1")
    #expect(row?["version"] == .int(5))
    #expect(row?["properties"]?["title"] == .string("the read's"))
    #expect(try await h.write(w.id).verdict == .accepted)
  }

  @Test func theCopyHoldsTheEdgeAFreshReadReturnsOverTheEdgeTheAnswerCarried() async throws {
    let h = try await DrainHarness(
      items: [SeedItem(id: "n1", type: "note"), SeedItem(id: "t1", type: "note")],
      rules: [
        .once(
          .route("GET", "/edges/e1"),
          .status(
            200,
            body:
              #"{"edge":{"id":"e1","source_id":"n1","target_id":"t1","edge_type":"references","version":3,"properties":{"weight":2,"color":"red"}}}"#
          ))
      ])
    _ = try await h.copy.createEdge(
      source: "n1", target: "t1", type: "references", properties: .object([("weight", .int(2))]), id: "e1")
    let report = try await h.copy.queue.drain()
    #expect(report.verdicts.map(\.verdict) == [.accepted])
    let edge = try await h.copy.edge(id: "e1")
    #expect(edge?["version"] == .int(3))
    #expect(edge?["properties"]?["color"] == .string("red"))
  }

  @Test func aFreshReadOlderThanTheRowTheAnswerCarriedIsNotTaken() async throws {
    let h = try await DrainHarness(
      items: [SeedItem(id: "n1", type: "note", properties: ["title": "held"])],
      rules: [
        .once(
          .route("GET", "/items/n1"),
          .status(
            200,
            body:
              #"{"item":{"id":"n1","type":"note","version":1,"state":"active","properties":{"title":"held"}},"metadata":{"item_id":"n1","tags":[]}}"#
          ))
      ])
    _ = try await h.copy.updateItem(id: "n1", properties: .object([("title", .string("mine"))]))
    _ = try await h.copy.queue.drain()
    let row = try await h.copy.item(id: "n1")
    #expect(row?["version"] == .int(2))
    #expect(row?["properties"]?["title"] == .string("mine"))
  }

  @Test func aReadAfterAnAnswerFindingNoRowKeepsTheRowTheAnswerCarried() async throws {
    let h = try await DrainHarness(
      rules: [.always(.route("GET", "/items/made"), .error(404, code: "item_not_found", message: "no such item"))])
    _ = try await h.note("mine", id: "made")
    let report = try await h.copy.queue.drain()
    #expect(report.verdicts.map(\.verdict) == [.accepted])
    #expect(try await h.copy.item(id: "made")?["properties"]?["title"] == .string("mine"))
  }

  @Test func aReadAfterAnAnswerThatFailsKeepsTheVerdictCountsNothingAndIsMadeFirstAtTheNextDrain() async throws {
    let h = try await DrainHarness(
      items: [SeedItem(id: "n1", type: "note", properties: ["title": "held"])],
      rules: [.once(.route("GET", "/items/n1"), .drop)])
    let edit = try await h.copy.updateItem(id: "n1", properties: .object([("title", .string("mine"))]))
    let first = try await h.copy.queue.drain()
    #expect(first.verdicts.map(\.verdict) == [.accepted])
    #expect(first.verdicts.map(\.refusals) == [0])
    #expect(first.unavailable?.contains("could not be reached") == true)
    let kept = try await h.write(edit.id)
    #expect(kept.verdict == .accepted)
    #expect(kept.refusals == 0)

    let behind = try await h.note("behind")
    let before = h.instance.requests.count
    let second = try await h.copy.queue.drain()
    #expect(second.unavailable == nil)
    let after = h.instance.requests.dropFirst(before).map { "\($0.method) \($0.path)" }.filter { $0 != "GET /" }
    let read = after.firstIndex { $0.hasPrefix("GET /items/n1") }
    let sent = after.firstIndex { $0 == "POST /items" }
    #expect(read != nil && sent != nil && read! < sent!)
    #expect(h.requests("PATCH", "/items/n1").count == 1)
    #expect(try await h.write(behind.id).verdict == .accepted)
    #expect(try await h.copy.item(id: "n1")?["properties"]?["title"] == .string("mine"))
  }

  @Test func aReadAfterAnAnswerThatFailsEndsThePassBeforeTheNextWriteGoes() async throws {
    let h = try await DrainHarness(
      items: [SeedItem(id: "n1", type: "note", properties: ["title": "held"])],
      rules: [.once(.route("GET", "/items/n1"), .drop)])
    _ = try await h.copy.updateItem(id: "n1", properties: .object([("title", .string("mine"))]))
    _ = try await h.note("behind")
    let report = try await h.copy.queue.drain()
    #expect(report.answered == 1)
    #expect(report.undelivered == 1)
    #expect(h.requests("POST", "/items").isEmpty)
  }
}
