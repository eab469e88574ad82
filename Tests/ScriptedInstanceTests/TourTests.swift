import Testing

@testable import ScriptedInstance

@Suite struct TourTests {
  /// The request a client sends for a scenario write (contract 6.2).
  static func request(_ w: ScenarioWrite) -> (method: String, target: String, body: String) {
    let id = w.itemId ?? ""
    switch w.kind {
    case "create_item":
      return ("POST", "/items", #"{"id":"\#(id)","type":"\#(w.type!)","properties":\#(w.properties ?? "{}")}"#)
    case "update_item":
      return ("PATCH", "/items/\(id)?conflict=auto", #"{"version":\#(w.version!),"properties":\#(w.properties!)}"#)
    case "delete_item": return ("DELETE", "/items/\(id)?version=\(w.version!)", "{}")
    case "add_tag": return ("POST", "/items/\(id)/tags", #"{"tags":["\#(w.tag!)"]}"#)
    case "write_extension": return ("PUT", "/items/\(id)/extensions/\(w.namespace!)", w.body!)
    case "create_edge":
      return (
        "POST", "/edges",
        #"{"id":"\#(w.edgeId!)","source_id":"\#(id)","target_id":"\#(w.targetId!)","edge_type":"\#(w.edgeType!)","properties":\#(w.properties!)}"#
      )
    case "upload_blob": return ("POST", "/blobs", w.content!)
    default: fatalError("the tour has no \(w.kind)")
    }
  }

  func send(_ h: Harness, _ w: ScenarioWrite, key: String, idempotencyKey: String) throws -> RawResponse {
    let (method, target, body) = Self.request(w)
    return try h.send(method, target, json: body, key: idempotencyKey, headers: ["Authorization": "Bearer \(key)"])
  }

  @Test func theFirstKeyIsRefused401OnlyForTheKeyedWriteAndTheSecondKeySendsIt() throws {
    let h = try Harness(.tour)
    let auth = ["Authorization": "Bearer tour-key-1"]
    let page = try h.send("GET", "/items?state=any&include=metadata&limit=200", headers: auth)
    #expect(page.json["data"].array?.count == Scenario.tour.items.count)
    let refused = try send(h, Scenario.tourKeyedWrite, key: "tour-key-1", idempotencyKey: "one")
    #expect(refused.status == 401)
    #expect(refused.header("X-Marfa-Contract") == "2")
    let accepted = try send(h, Scenario.tourKeyedWrite, key: "tour-key-2", idempotencyKey: "one")
    #expect(accepted.status == 200)
    #expect(try h.send("GET", "/items", headers: ["Authorization": "Bearer someone"]).status == 401)
  }

  @Test func theTourAnswersEachWriteAsItsExpectationSays() throws {
    let h = try Harness(.tour)
    var answers: [String: RawResponse] = [:]
    for (i, w) in Scenario.tour.writes.enumerated() where w.itemId != "tour-failing" || w.kind == "create_item" {
      answers[w.itemId ?? w.kind] = try send(h, w, key: "tour-key-2", idempotencyKey: "two-\(i)")
    }
    #expect(answers["tour-accepted"]?.status == 200)
    #expect(answers["tour-accepted"]?.json["conflict_resolution"].value == nil)
    #expect(answers["tour-inflight"]?.json["error"]["code"].string == "idempotency_key_in_flight")
    #expect(answers["tour-merged"]?.json["conflict_resolution"]["fields"].strings == ["priority"])
    #expect(answers["tour-merged"]?.json["conflict_resolution"]["conflicted_copy_id"].value == nil)
    #expect(answers["tour-conflicted"]?.json["conflict_resolution"]["conflicted_copy_id"].string != nil)
    #expect(answers["tour-invalid"]?.json["error"]["details"]["errors"][0]["field"].string == "properties.title")
    #expect(answers["tour-trashed"]?.json["error"]["details"]["trashed"].bool == true)
    #expect(answers["tour-grant"]?.json["error"]["details"]["grant"]["name"].string == "secret")
    #expect(answers["tour-spent"]?.status == 422)
    #expect(answers["tour-ancestor"]?.json["error"]["code"].string == "ancestor_unavailable")
    #expect(answers["tour-overtaken"]?.json["error"]["code"].string == "version_conflict")
    #expect(answers["tour-failing"]?.status == 500)
    #expect(answers["tour-gateway"]?.status == 502)
    #expect(answers["tour-gateway"]?.header("X-Marfa-Contract") == nil)
    #expect(answers["tour-ratelimited"]?.status == 429)
    #expect(answers["tour-ratelimited"]?.header("Retry-After") == "2")
    #expect(answers["tour-new"]?.status == 201)
    #expect(answers["tour-delete"]?.status == 200)
    #expect(answers["upload_blob"]?.status == 201)

    // A second drain: the once-only faults let their writes through; the always-faults stay.
    for (i, w) in Scenario.tour.writes.enumerated()
    where ["tour-gateway", "tour-ratelimited", "tour-failing"].contains(w.itemId) {
      guard w.itemId != "tour-failing" || w.kind == "create_item" else { continue }
      let r = try send(h, w, key: "tour-key-2", idempotencyKey: "two-\(i)")
      #expect(r.status == (w.itemId == "tour-failing" ? 500 : 200), "\(w.itemId!)")
    }
    #expect(h.instance.unscriptedRequests.isEmpty)
  }
}
