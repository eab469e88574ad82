import Testing

@testable import ScriptedInstance

@Suite struct ScriptTests {
  @Test func aRuleGivesItsAnswersInTurnThenTheModelAnswers() throws {
    let h = try Harness(rules: [ScriptRule(.route("GET", "/"), answers: [.serverFault, .status(418, body: "{}")])])
    #expect(try h.send("GET", "/").status == 500)
    #expect(try h.send("GET", "/").status == 418)
    #expect(try h.send("GET", "/").status == 200)
    #expect(h.instance.requests.map(\.scripted) == [true, true, false])
  }

  @Test func aRuleThatRepeatsItsLastAnswerKeepsGivingIt() throws {
    let h = try Harness(rules: [.always(.route("GET", "/"), .inFlight)])
    for _ in 0..<3 { #expect(try h.send("GET", "/").json["error"]["code"].string == "idempotency_key_in_flight") }
  }

  @Test func rulesMatchByWriteIdInTheBodyOrThePath() throws {
    let h = try Harness(rules: [.always(.write("w1"), .status(299, body: "{}"))])
    #expect(try h.send("POST", "/items", json: #"{"id":"w1","type":"note"}"#).status == 299)
    #expect(try h.send("PATCH", "/items/w1?conflict=auto", json: #"{"version":1}"#).status == 299)
    #expect(try h.send("POST", "/items", json: #"{"id":"w2","type":"note"}"#).status == 201)
  }

  @Test func rulesMatchByBodyTextBearerKeyPrefixAndGlob() throws {
    let h = try Harness(rules: [
      .always(ScriptMatch(bodyContains: "secret"), .status(291, body: "{}")),
      .always(ScriptMatch(bearer: "k9"), .status(292, body: "{}")),
      .always(ScriptMatch(method: "GET", path: .prefix("/edges/")), .status(293, body: "{}")),
      .always(ScriptMatch(path: "/items/*/tags/*"), .status(294, body: "{}")),
    ])
    #expect(try h.send("POST", "/items", json: #"{"type":"secret"}"#).status == 291)
    #expect(try h.send("GET", "/", headers: ["Authorization": "Bearer k9"]).status == 292)
    #expect(try h.send("GET", "/edges/x").status == 293)
    #expect(try h.send("DELETE", "/items/a/tags/b").status == 294)
    #expect(try h.send("DELETE", "/items/a/tags").status == 501)
  }

  @Test func dropClosesTheConnectionWithoutAnAnswer() throws {
    let h = try Harness(rules: [.once(.route("GET", "/"), .drop)])
    let c = try RawConnection(port: h.port)
    c.request("GET", "/")
    #expect(throws: RawError.closed) { try c.readResponse() }
    #expect(h.instance.requests.first?.status == nil)
    #expect(try h.send("GET", "/").status == 200)
  }

  @Test func stallNeverAnswers() throws {
    let h = try Harness(rules: [.once(.route("GET", "/"), .stall)])
    let c = try RawConnection(port: h.port)
    c.request("GET", "/")
    #expect(throws: RawError.timedOut) { try c.readResponse(timeout: 0.3) }
  }

  @Test func aGatewayPageIsHTMLWithoutTheContractHeader() throws {
    let h = try Harness(rules: [.once(.route("GET", "/"), .gatewayPage(status: 502))])
    let r = try h.send("GET", "/")
    #expect(r.status == 502)
    #expect(r.header("X-Marfa-Contract") == nil)
    #expect(r.header("Content-Type") == "text/html")
    #expect(r.text.contains("<html>"))
  }

  @Test func theContractHeaderCanBeRemovedChangedOrRepeated() throws {
    let h = try Harness(rules: [
      ScriptRule(
        .route("GET", "/"), answers: [.normal.withoutContract(), .normal.contract("3"), .normal.contract("2", "3")])
    ])
    #expect(try h.send("GET", "/").headerValues("X-Marfa-Contract") == [])
    #expect(try h.send("GET", "/").headerValues("X-Marfa-Contract") == ["3"])
    #expect(try h.send("GET", "/").headerValues("X-Marfa-Contract") == ["2", "3"])
  }

  @Test func anyStatusWithAnyBodyAndHeadersAndRetryAfter() throws {
    let h = try Harness(rules: [
      .once(
        .any, ScriptedAnswer.status(503, body: "busy", contentType: "text/plain").retrying(after: 9).header("X-A", "b"))
    ])
    let r = try h.send("GET", "/anything")
    #expect(r.status == 503)
    #expect(r.text == "busy")
    #expect(r.header("Retry-After") == "9")
    #expect(r.header("X-A") == "b")
    #expect(r.header("X-Marfa-Contract") == "2")
  }

  @Test func namedRefusalsCarryTheDetailsAClientReads() throws {
    let h = try Harness(rules: [
      ScriptRule(
        .route("POST", "/items"),
        answers: [
          .unauthorized, .missingGrant(kind: "type", name: "secret", level: "write"), .unclaimedSource("crm"),
          .validation([("properties.title", "is required")]), .keyReused, .inFlight, .rateLimited(seconds: 7),
        ])
    ])
    let post = { try h.send("POST", "/items", json: #"{"type":"note"}"#) }
    let unauthorized = try post()
    #expect(unauthorized.status == 401)
    #expect(unauthorized.header("X-Error-Code") == "unauthorized")
    let grant = try post()
    #expect(grant.status == 403)
    #expect(grant.json["error"]["code"].string == "type_not_permitted")
    #expect(grant.json["error"]["details"]["grant"]["kind"].string == "type")
    #expect(grant.json["error"]["details"]["grant"]["name"].string == "secret")
    #expect(grant.json["error"]["details"]["grant"]["level"].string == "write")
    let source = try post()
    #expect(source.json["error"]["code"].string == "forbidden")
    #expect(source.json["error"]["details"].value == ["source": "crm"])
    let validation = try post()
    #expect(validation.status == 400)
    #expect(validation.json["error"]["details"]["errors"][0]["field"].string == "properties.title")
    let reused = try post()
    #expect(reused.status == 422)
    #expect(reused.json["error"]["code"].string == "idempotency_key_reused")
    let inFlight = try post()
    #expect(inFlight.status == 409)
    #expect(inFlight.json["error"]["code"].string == "idempotency_key_in_flight")
    let limited = try post()
    #expect(limited.status == 429)
    #expect(limited.header("Retry-After") == "7")
  }

  @Test func scriptedConflictsNameTheRowTheModelHolds() throws {
    let h = try Harness(rules: [
      ScriptRule(.route("PATCH", "/items/a"), answers: [.versionConflict, .ancestorUnavailable])
    ])
    try h.create("a")
    let conflict = try h.send("PATCH", "/items/a?conflict=auto", json: #"{"version":1}"#)
    #expect(conflict.status == 409)
    #expect(conflict.json["error"]["code"].string == "version_conflict")
    #expect(conflict.json["error"]["status"].int == 409)
    #expect(conflict.json["current"]["id"].string == "a")
    #expect(conflict.json["current"]["version"].int == 1)
    let ancestor = try h.send("PATCH", "/items/a?conflict=auto", json: #"{"version":1}"#)
    #expect(ancestor.json["error"]["code"].string == "ancestor_unavailable")
    #expect(ancestor.json["requested_version"].int == 1)
  }

  @Test func serverFaultAndUnreadableSuccessAreWordedExactly() throws {
    let h = try Harness(rules: [ScriptRule(.route("GET", "/"), answers: [.serverFault, .unreadable2xx])])
    let fault = try h.send("GET", "/")
    #expect(fault.status == 500)
    #expect(fault.text == #"{"error":{"code":"internal_error","message":"Internal server error"}}"#)
    let unreadable = try h.send("GET", "/")
    #expect(unreadable.status == 200)
    #expect(unreadable.text == "not json")
  }

  @Test func anotherInstanceIdCanBeAnsweredOrSwitchedTo() throws {
    let h = try Harness(rules: [.once(.route("GET", "/"), .otherInstance("other"))])
    #expect(try h.send("GET", "/").json["instance_id"].string == "other")
    #expect(try h.send("GET", "/").json["instance_id"].string == Scenario.defaultInstanceId)
    try h.create("a")
    h.instance.switchInstance(to: "third", keepData: true)
    #expect(try h.send("GET", "/").json["instance_id"].string == "third")
    #expect(try h.send("GET", "/items/a").status == 200)
    h.instance.switchInstance(to: "fourth", keepData: false)
    #expect(try h.send("GET", "/items/a").status == 404)
  }

  @Test func acceptedKeysCanChangeWhileRunning() throws {
    let h = try Harness()
    #expect(try h.send("GET", "/items").status == 200)
    h.instance.acceptedKeys = ["k2"]
    #expect(try h.send("GET", "/items", headers: ["Authorization": "Bearer k1"]).status == 401)
    #expect(try h.send("GET", "/items").status == 401)
    #expect(try h.send("GET", "/").status == 200, "the root is read without a key")
    h.instance.acceptedKeys = ["k1", "k2"]
    #expect(try h.send("GET", "/items", headers: ["Authorization": "Bearer k1"]).status == 200)
  }

  @Test func everyRequestIsRecordedWithItsParts() throws {
    let h = try Harness()
    _ = try h.send("GET", "/items?state=any&limit=2")
    _ = try h.send("POST", "/items", json: #"{"type":"note"}"#, key: "k1", headers: ["Authorization": "Bearer z"])
    let r = h.instance.requests
    #expect(r.map(\.seq) == [1, 2])
    #expect(r[0].method == "GET")
    #expect(r[0].path == "/items")
    #expect(r[0].query == "state=any&limit=2")
    #expect(r[0].queryValue("limit") == "2")
    #expect(r[1].idempotencyKey == "k1")
    #expect(r[1].header("authorization") == "Bearer z")
    #expect(r[1].json?["type"] == "note")
    #expect(r[1].status == 201)
    h.instance.clearRequests()
    #expect(h.instance.requests.isEmpty)
  }
}
