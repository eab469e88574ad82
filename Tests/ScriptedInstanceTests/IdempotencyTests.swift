import Testing

@testable import ScriptedInstance

@Suite struct IdempotencyTests {
  @Test func aRepeatIsAnsweredFromTheRecordWithReplayedHeaderAndAppliedOnce() throws {
    let h = try Harness()
    let body = #"{"id":"n1","type":"note"}"#
    let first = try h.send("POST", "/items", json: body, key: "k1")
    let again = try h.send("POST", "/items", json: body, key: "k1")
    #expect(first.status == 201)
    #expect(first.header("Idempotency-Replayed") == nil)
    #expect(again.status == 201)
    #expect(again.header("Idempotency-Replayed") == "true")
    #expect(again.header("X-Marfa-Contract") == "2")
    #expect(again.text == first.text)
    #expect(h.instance.appliedCount(key: "k1") == 1)
    #expect(h.instance.idempotencyRecords["k1"]?.replays == 1)
    #expect(h.instance.requests.map(\.replayed) == [false, true])
  }

  @Test func aRefusalIsRecordedAndReplayedToo() throws {
    let h = try Harness()
    let first = try h.send("PATCH", "/items/nope?conflict=auto", json: #"{"version":1}"#, key: "k1")
    let again = try h.send("PATCH", "/items/nope?conflict=auto", json: #"{"version":1}"#, key: "k1")
    #expect(first.status == 404)
    #expect(again.status == 404)
    #expect(again.header("Idempotency-Replayed") == "true")
    #expect(again.header("X-Error-Code") == "item_not_found")
    #expect(h.instance.appliedCount(key: "k1") == 0)
  }

  @Test func theSameKeyWithAnotherBodyIs422IdempotencyKeyReused() throws {
    let h = try Harness()
    #expect(try h.send("POST", "/items", json: #"{"id":"n1","type":"note"}"#, key: "k1").status == 201)
    let r = try h.send("POST", "/items", json: #"{"id":"n2","type":"note"}"#, key: "k1")
    #expect(r.status == 422)
    #expect(r.json["error"]["code"].string == "idempotency_key_reused")
    #expect(r.header("X-Error-Code") == "idempotency_key_reused")
    #expect(h.instance.itemIds == ["n1"])
  }

  @Test func noRecordIsKeptForA401SoTheKeyWorksOnceTheCauseIsFixed() throws {
    let h = try Harness()
    h.instance.acceptedKeys = ["good"]
    let body = #"{"id":"n1","type":"note"}"#
    let refused = try h.send("POST", "/items", json: body, key: "k1", headers: ["Authorization": "Bearer bad"])
    #expect(refused.status == 401)
    #expect(refused.json["error"]["code"].string == "unauthorized")
    #expect(refused.header("X-Marfa-Contract") == "2")
    #expect(h.instance.idempotencyRecords["k1"] == nil)
    let accepted = try h.send("POST", "/items", json: body, key: "k1", headers: ["Authorization": "Bearer good"])
    #expect(accepted.status == 201)
    #expect(accepted.header("Idempotency-Replayed") == nil)
  }

  @Test(arguments: [ScriptedAnswer.missingGrant(name: "note"), .serverFault, .status(503, body: "{}")])
  func noRecordIsKeptForA403OrA5xx(answer: ScriptedAnswer) throws {
    let h = try Harness(rules: [.once(.route("POST", "/items"), answer)])
    let body = #"{"id":"n1","type":"note"}"#
    #expect(try h.send("POST", "/items", json: body, key: "k1").status >= 403)
    #expect(h.instance.idempotencyRecords["k1"] == nil)
    let second = try h.send("POST", "/items", json: body, key: "k1")
    #expect(second.status == 201)
    #expect(second.header("Idempotency-Replayed") == nil)
    #expect(h.instance.appliedCount(key: "k1") == 1)
  }

  @Test func aKeyOnADoorThatDoesNotHonourKeysIsIgnored() throws {
    let h = try Harness()
    try h.create("a")
    #expect(try h.send("POST", "/items/a/tags", json: #"{"tags":["x"]}"#, key: "k1").status == 200)
    #expect(try h.send("POST", "/items/a/tags", json: #"{"tags":["y"]}"#, key: "k1").status == 200)
    #expect(h.instance.idempotencyRecords.isEmpty)
  }

  @Test func everyKeyedDoorCountsItsApplications() throws {
    let h = try Harness()
    try h.create("a")
    try h.create("b")
    let writes: [(String, String, String)] = [
      ("PATCH", "/items/a?conflict=auto", #"{"version":1,"properties":{"x":1}}"#),
      ("POST", "/items/a/transition", #"{"state":"archived"}"#),
      ("POST", "/items/a/restore", "{}"),
      ("POST", "/edges", #"{"id":"e","source_id":"a","target_id":"b","edge_type":"l"}"#),
      ("PATCH", "/edges/e", #"{"version":1,"properties":{"w":1}}"#),
      ("DELETE", "/edges/e", "{}"),
      ("DELETE", "/items/a?version=2", "{}"),
    ]
    for (i, (method, path, body)) in writes.enumerated() {
      let first = try h.send(method, path, json: body, key: "w\(i)")
      let again = try h.send(method, path, json: body, key: "w\(i)")
      #expect(first.status < 300, "\(method) \(path): \(first.text)")
      #expect(again.header("Idempotency-Replayed") == "true")
    }
    #expect(h.instance.appliedWrites == Dictionary(uniqueKeysWithValues: (0..<writes.count).map { ("w\($0)", 1) }))
  }
}
