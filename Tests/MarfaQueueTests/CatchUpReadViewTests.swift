import Foundation
import ScriptedInstance
import Testing

@testable import MarfaQueue

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A catch-up names the read view its fill was certified with, as the contract's `/events`
/// asks; the scripted instance refuses a replay that does not, as the contract's does.
@Suite struct CatchUpReadViewTests {
  @Test func aCatchUpNamesTheReadViewItsFillWasCertifiedWith() async throws {
    let h = try await DrainHarness(items: [SeedItem(id: "n1", type: "note")])
    try await h.copy.catchUp()
    let replay = h.requests("GET", "/events").last { r in r.headers.contains { $0.name == "Last-Event-ID" } }
    let view = replay?.headers.first { $0.name.lowercased() == "x-marfa-read-view" }?.value
    #expect(view == String(repeating: "a", count: 64))
  }

  @Test func theScriptedInstanceRefusesAReplayThatNamesNoReadView() async throws {
    let instance = ScriptedInstance(scenario: Scenario(name: "test"))
    let url = try instance.start()
    defer { instance.stop() }
    let events = URL(string: "/events?edges=all&copy=1", relativeTo: url)!
    var request = URLRequest(url: events)
    request.setValue("0", forHTTPHeaderField: "Last-Event-ID")
    request.setValue("Bearer k1", forHTTPHeaderField: "Authorization")
    let (_, response) = try await URLSession.shared.data(for: request)
    #expect((response as? HTTPURLResponse)?.statusCode == 400)
  }
}

/// A catch-up takes the rows the stream brings, with the edits still pending on them laid back
/// over: a dead edit stays visible (a release may yet send it) over a newer row from elsewhere.
@Suite struct CatchUpPendingWriteTests {
  @Test func aDeadEditStaysVisibleOverANewerRowACatchUpBrings() async throws {
    let h = try await DrainHarness(
      items: [SeedItem(id: "n1", type: "note", properties: ["title": "held", "body": "held"])],
      rules: [ScriptRule(.route("PATCH", "/items/n1"), answers: [.unreadable2xx], repeatsLast: true)])
    let w = try await h.copy.updateItem(id: "n1", properties: .object([("body", .string("still mine"))]))
    for _ in 0..<QueueLimits.ceiling { _ = try await h.copy.queue.drain() }
    #expect(try await h.write(w.id).verdict == .dead)
    #expect(h.instance.edit(ConcurrentEdit(itemId: "n1", properties: ["title": "new elsewhere"])))
    let applied = try await h.copy.catchUp()
    #expect(applied == 1)
    let row = try await h.copy.item(id: "n1")
    #expect(row?["properties"]?["title"] == .string("new elsewhere"))
    #expect(row?["properties"]?["body"] == .string("still mine"))
    #expect(row?["version"] == .int(2))
  }
}

/// A fill reads the stream's head before its pages, then replays from that head before it
/// returns: a write made while the pages were read is in the copy when the fill is done.
@Suite struct FillReplayTests {
  @Test func aFillAppliesAWriteMadeWhileItsPagesWereReadBeforeItReturns() async throws {
    let during = ConcurrentEdit(itemId: "n1", properties: ["title": "during"])
    let h = try await DrainHarness(
      items: [SeedItem(id: "n1", type: "note", properties: ["title": "before"])],
      rules: [
        ScriptRule(.route("GET", "/events"), answers: [ScriptedAnswer(.normal), ScriptedAnswer(.editFirst(during))])
      ])
    let row = try await h.copy.item(id: "n1")
    #expect(row?["properties"]?["title"] == .string("during"))
    #expect(row?["version"] == .int(2))
    let events = h.requests("GET", "/events")
    #expect(events.count == 2)
    #expect(events.first.map { r in r.headers.contains { $0.name == "Last-Event-ID" } } == false)
    #expect(events.last.map { r in r.headers.contains { $0.name == "Last-Event-ID" } } == true)
    #expect(try await h.copy.status().cursor == h.instance.eventCursor)
  }
}
