import Foundation
import Testing

@testable import ScriptedInstance

@Suite struct EventTests {
  /// The read view the head certifies, which a replay names beside its cursor.
  static let view = String(repeating: "a", count: 64)

  /// The JSON of every `data:` line in an SSE text.
  static func frames(_ text: String) -> [ScriptedJSONBox] {
    text.components(separatedBy: "\n").filter { $0.hasPrefix("data: ") }.map {
      ScriptedJSONBox(value: try? ScriptedJSON(parsing: String($0.dropFirst(6))))
    }
  }

  @Test func theHeadIsAStreamCursorFrameThenKeepalivesWhileHeld() throws {
    let h = try Harness()
    try h.create("a")
    let c = try RawConnection(port: h.port)
    c.request("GET", "/events?edges=all&copy=1")
    let head = try c.readResponse()
    #expect(head.status == 200)
    #expect(head.header("Content-Type") == "text/event-stream")
    #expect(head.header("X-Marfa-Contract") == "2")
    let text = try c.readUntil(": keepalive", timeout: 2)
    let frame = try #require(Self.frames(text).first)
    #expect(frame["event_type"].string == "stream_cursor")
    #expect(frame["cursor"].string == h.instance.eventCursor)
    #expect(frame["instance_id"].string == Scenario.defaultInstanceId)
    #expect(frame["read_view"].string == String(repeating: "a", count: 64))
  }

  @Test func aReplayThatNamesNoReadViewIsRefusedAsTheContractsInstanceRefusesIt() throws {
    let h = try Harness()
    try h.create("a")
    let c = try RawConnection(port: h.port)
    c.request("GET", "/events?edges=all&copy=1", headers: ["Last-Event-ID": h.instance.eventCursor])
    #expect(try c.readResponse().status == 400)
  }

  @Test func aReplayFromACursorSendsTheItemEventsWithIdsThenStreamLive() throws {
    let h = try Harness()
    try h.create("a")
    let cursor = h.instance.eventCursor
    try h.create("b")
    _ = try h.send("PATCH", "/items/a?conflict=auto", json: #"{"version":1,"properties":{"title":"x"}}"#)
    try h.create("c")
    _ = try h.send("POST", "/edges", json: #"{"source_id":"b","target_id":"c","edge_type":"l"}"#)
    let c = try RawConnection(port: h.port)
    c.request("GET", "/events?copy=1", headers: ["Last-Event-ID": cursor, "X-Marfa-Read-View": Self.view])
    _ = try c.readResponse()
    let text = try c.readUntil("stream_live")
    let frames = Self.frames(text)
    #expect(frames.map { $0["event_type"].string } == ["item.created", "item.updated", "item.created", "stream_live"])
    #expect(frames[1]["item"]["version"].int == 2)
    #expect(frames[0]["metadata"]["item_id"].string == "b")
    let ids = text.components(separatedBy: "\n").filter { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) }
    #expect(ids == frames.dropLast().map { $0["cursor"].string! })
    #expect(frames.last?["cursor"].string == h.instance.eventCursor)
  }

  @Test func edgeEventsComeOnlyWithEdgesAll() throws {
    let h = try Harness()
    try h.create("a")
    let cursor = h.instance.eventCursor
    _ = try h.send("POST", "/edges", json: #"{"source_id":"a","target_id":"a","edge_type":"self"}"#)
    let c = try RawConnection(port: h.port)
    c.request("GET", "/events?edges=all&copy=1", headers: ["Last-Event-ID": cursor, "X-Marfa-Read-View": Self.view])
    _ = try c.readResponse()
    #expect(
      Self.frames(try c.readUntil("stream_live")).map { $0["event_type"].string } == ["edge.created", "stream_live"])
  }

  @Test func aCursorOlderThanTheLogKeepsIsAnsweredCatchupTooOld() throws {
    let h = try Harness()
    try h.create("a")
    let old = h.instance.eventCursor
    try h.create("b")
    h.instance.forgetEvents()
    let c = try RawConnection(port: h.port)
    c.request("GET", "/events?edges=all&copy=1", headers: ["Last-Event-ID": old, "X-Marfa-Read-View": Self.view])
    _ = try c.readResponse()
    let frames = Self.frames(try c.readUntil("catchup_too_old"))
    #expect(frames.first?["event_type"].string == "catchup_too_old")
    #expect(frames.first?["instance_id"].string == Scenario.defaultInstanceId)
    #expect(c.closedByPeer(timeout: 2))
  }

  @Test func aCursorAheadOfTheLogIsAnsweredCursorAhead() throws {
    let h = try Harness()
    let c = try RawConnection(port: h.port)
    c.request("GET", "/events?edges=all&copy=1", headers: ["Last-Event-ID": "999", "X-Marfa-Read-View": Self.view])
    _ = try c.readResponse()
    #expect(Self.frames(try c.readUntil("cursor_ahead")).first?["event_type"].string == "cursor_ahead")
  }

  @Test func aHeldStreamCarriesNewEventsAndNamesASwitchedInstance() throws {
    let h = try Harness()
    let c = try RawConnection(port: h.port)
    c.request("GET", "/events?edges=all&copy=1")
    _ = try c.readResponse()
    _ = try c.readUntil("stream_cursor")
    try h.create("live")
    #expect(try c.readUntil(#""id":"live""#, timeout: 2).contains("item.created"))
    h.instance.switchInstance(to: "elsewhere", keepData: false)
    #expect(try c.readUntil("elsewhere", timeout: 2).contains("stream_cursor"))
  }
}
