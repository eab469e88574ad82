import Foundation
import Testing

@testable import ScriptedInstance

@Suite struct ScenarioTests {
  static let example = """
    {
      "name": "example",
      "instance_id": "11111111-0000-7000-8000-000000000000",
      "accepted_keys": ["k1"],
      "types": [{"name": "note", "merge_policy": {"body": "keep_both_copies"}, "required": ["title"]}],
      "items": [{"id": "n1", "type": "note", "properties": {"title": "v2"}, "history": [{"title": "v1"}], "tags": ["t"]}],
      "edges": [{"id": "e1", "source_id": "n1", "target_id": "n1", "edge_type": "self"}],
      "concurrent_edits": [{"item_id": "n1", "properties": {"body": "theirs"}}],
      "rules": [
        {"match": {"method": "PATCH", "path": "/items/n1"}, "answers": ["drop", {"answer": "gateway_page", "status": 504}]},
        {"match": {"method": ["POST"], "write_id": "w1"}, "answers": [{"answer": "missing_grant", "name": "note"}], "repeat_last": true},
        {"match": {"path_prefix": "/blobs"}, "answers": [{"answer": "status", "status": 503, "body": {"error": {"code": "unavailable"}}, "retry_after": 4, "contract": ["2", "3"]}]}
      ],
      "writes": [{"kind": "update_item", "item_id": "n1", "properties": {"title": "mine"}, "version": 2, "expect": "merged"}],
      "steps": ["drain once"]
    }
    """

  @Test func aJSONScenarioReadsEveryPart() throws {
    let s = try Scenario(json: Self.example)
    #expect(s.name == "example")
    #expect(s.instanceId == "11111111-0000-7000-8000-000000000000")
    #expect(s.acceptedKeys == ["k1"])
    #expect(s.types == [ItemType("note", mergePolicy: ["body": .keepBothCopies], requiredProperties: ["title"])])
    #expect(s.items.first?.history == [["title": "v1"]])
    #expect(s.edges.count == 1)
    #expect(s.concurrentEdits.first?.properties == ["body": "theirs"])
    #expect(s.rules.count == 3)
    #expect(s.rules[0].answers == [.drop, .gatewayPage(status: 504)])
    #expect(s.rules[1].repeatsLast)
    #expect(s.rules[2].answers[0].retryAfter == 4)
    #expect(s.rules[2].answers[0].contract == .values(["2", "3"]))
    #expect(
      s.writes == [
        ScenarioWrite(kind: "update_item", itemId: "n1", properties: #"{"title":"mine"}"#, version: 2, expect: "merged")
      ])
    #expect(s.steps == ["drain once"])
  }

  @Test func anInstanceRunsAJSONScenario() throws {
    let h = try Harness(try Scenario(json: Self.example))
    let auth = ["Authorization": "Bearer k1"]
    #expect(try h.send("GET", "/").json["instance_id"].string == "11111111-0000-7000-8000-000000000000")
    #expect(try h.send("GET", "/items/n1", headers: auth).json["item"]["version"].int == 2)
    let c = try RawConnection(port: h.port)
    c.request("PATCH", "/items/n1?conflict=auto", headers: auth, body: #"{"version":2,"properties":{"title":"x"}}"#)
    #expect(throws: RawError.closed) { try c.readResponse() }
    #expect(try h.send("PATCH", "/items/n1", json: "{}", headers: auth).status == 504)
    let merged = try h.send(
      "PATCH", "/items/n1?conflict=auto", json: #"{"version":2,"properties":{"title":"x"}}"#, headers: auth)
    #expect(merged.json["conflict_resolution"]["fields"].strings == ["body"])
    #expect(try h.send("POST", "/items", json: #"{"id":"w1","type":"note"}"#, headers: auth).status == 403)
    let blob = try h.send("POST", "/blobs", json: "x", headers: auth)
    #expect(blob.status == 503)
    #expect(blob.header("Retry-After") == "4")
    #expect(blob.headerValues("X-Marfa-Contract") == ["2", "3"])
    #expect(try h.send("GET", "/items", headers: ["Authorization": "Bearer nope"]).status == 401)
  }

  @Test func aMissingFileIsAClearError() {
    #expect(throws: ScenarioError.unknown(name: "/nope/x.json", known: ["empty", "tour", "outage"])) {
      try Scenario.load("/nope/x.json")
    }
    #expect(throws: ScenarioError.self) { try Scenario(contentsOf: URL(fileURLWithPath: "/nope/x.json")) }
  }

  @Test func aFileThatIsNotJSONSaysWhere() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-\(UUID().uuidString).json")
    try Data(#"{"name": "x", }"#.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let error = #expect(throws: ScenarioError.self) { try Scenario.load(file.path) }
    #expect(error?.description.contains("not valid JSON at byte 14") == true, "\(String(describing: error))")
    #expect(error?.description.contains(file.path) == true)
  }

  @Test(arguments: [
    (#"{"rules":[{"answers":["drop"]}]}"#, "scenario.name: is required"),
    (
      #"{"name":"x","rules":[{"match":{},"answers":["drop","dropp"]}]}"#,
      #"rules[0].answers[1]: unknown answer "dropp""#
    ),
    (#"{"name":"x","rules":[{"answers":[]}]}"#, "rules[0].answers: needs at least one answer"),
    (#"{"name":"x","rules":[{"answers":["drop"],"repeat_lst":true}]}"#, #"rules[0]: unknown member "repeat_lst""#),
    (#"{"name":"x","types":[{"name":"n","merge_policy":{"a":"newest"}}]}"#, "types[0].merge_policy.a: must be"),
    (#"{"name":"x","writes":[{"kind":"make_item"}]}"#, #"writes[0].kind: unknown kind "make_item""#),
    (#"{"name":"x","items":[{"id":"a"}]}"#, "items[0].type: is required"),
  ])
  func aBadScenarioNamesTheMemberAtFault(json: String, message: String) {
    let error = #expect(throws: ScenarioError.self) { try Scenario(json: json, source: "test.json") }
    #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    #expect(error?.description.hasPrefix("scenario test.json: ") == true)
  }

  @Test func namedScenariosAreFoundByName() throws {
    #expect(Scenario.names == ["empty", "tour", "outage"])
    #expect(Scenario.named("tour")?.name == "tour")
    #expect(Scenario.named("nope") == nil)
    #expect(try Scenario.load("tour") == .tour)
  }

  @Test func theDocumentedExampleLoads() throws {
    let doc = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "../../docs/scripted-instance.md")
    let text = try String(contentsOf: doc, encoding: .utf8)
    let start = try #require(text.range(of: "```json\n"))
    let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
    let scenario = try Scenario(json: String(text[start.upperBound..<end.lowerBound]), source: "docs")
    #expect(!scenario.rules.isEmpty)
  }
}
