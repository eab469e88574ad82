import Testing

@testable import ScriptedInstance

@Suite struct ItemDoorTests {
  static let notes = Scenario(
    name: "notes",
    types: [
      ItemType("note", mergePolicy: ["body": .keepBothCopies]),
      ItemType("task", requiredProperties: ["title"]),
    ])

  @Test func createAnswers201WithTheItemAndMetadataAndHonoursTheClientId() throws {
    let h = try Harness(Self.notes)
    let r = try h.send("POST", "/items", json: #"{"id":"n1","type":"note","properties":{"title":"a"},"tier":"hot"}"#)
    #expect(r.status == 201)
    #expect(r.header("X-Marfa-Contract") == "2")
    #expect(r.json["item"]["id"].string == "n1")
    #expect(r.json["item"]["version"].int == 1)
    #expect(r.json["item"]["state"].string == "active")
    #expect(r.json["item"]["tier"].string == "hot")
    #expect(r.json["item"]["created_at"].string != nil)
    #expect(r.json["item"]["source_id"].isNull)
    #expect(r.json["metadata"]["item_id"].string == "n1")
    #expect(r.json["metadata"]["tags"].array == [])
  }

  @Test func createWithoutAnIdGetsOneMinted() throws {
    let h = try Harness()
    let r = try h.send("POST", "/items", json: #"{"type":"note"}"#)
    #expect(r.status == 201)
    #expect(r.json["item"]["id"].string?.count == 36)
  }

  @Test func theSameIdCreatedUnderAnotherKeyIs409IdReused() throws {
    let h = try Harness()
    let body = #"{"id":"n1","type":"note"}"#
    #expect(try h.send("POST", "/items", json: body, key: "k1").status == 201)
    let r = try h.send("POST", "/items", json: body, key: "k2")
    #expect(r.status == 409)
    #expect(r.json["error"]["code"].string == "id_reused")
    #expect(r.header("X-Error-Code") == "id_reused")
  }

  @Test func createMissingARequiredPropertyIs400NamingTheField() throws {
    let h = try Harness(Self.notes)
    let r = try h.send("POST", "/items", json: #"{"id":"t1","type":"task","properties":{"notes":"x"}}"#)
    #expect(r.status == 400)
    #expect(r.json["error"]["code"].string == "validation_error")
    #expect(r.json["error"]["details"]["errors"][0]["field"].string == "properties.title")
    #expect(r.json["error"]["details"]["errors"][0]["message"].string == "is required")
  }

  @Test func updateAtTheCurrentVersionAppliesAndMovesTheVersionByOne() throws {
    let h = try Harness()
    try h.create("n1")
    let r = try h.send("PATCH", "/items/n1?conflict=auto", json: #"{"version":1,"properties":{"title":"b"}}"#)
    #expect(r.status == 200)
    #expect(r.json["item"]["version"].int == 2)
    #expect(r.json["item"]["properties"]["title"].string == "b")
    #expect(r.json["conflict_resolution"].value == nil)
  }

  @Test func staleUpdateWithNoCollisionIsMergedNamingTheFieldsChangedSince() throws {
    let h = try Harness()
    try h.create("n1", properties: #"{"title":"a","status":"open"}"#)
    h.instance.edit(ConcurrentEdit(itemId: "n1", properties: ["status": "done"]))
    let r = try h.send("PATCH", "/items/n1?conflict=auto", json: #"{"version":1,"properties":{"title":"b"}}"#)
    #expect(r.status == 200)
    #expect(r.json["item"]["version"].int == 3)
    #expect(r.json["item"]["properties"]["title"].string == "b")
    #expect(r.json["item"]["properties"]["status"].string == "done")
    #expect(r.json["conflict_resolution"]["fields"].strings == ["status"])
    #expect(r.json["conflict_resolution"]["conflicted_copy_id"].value == nil)
  }

  @Test func staleCollisionOnALastWriterWinsFieldIsResolvedForTheUpdate() throws {
    let h = try Harness(Self.notes)
    try h.create("n1", properties: #"{"title":"a","b":1,"a":1}"#)
    h.instance.edit(ConcurrentEdit(itemId: "n1", properties: ["title": "server", "b": 2, "a": 2]))
    let r = try h.send(
      "PATCH", "/items/n1?conflict=auto", json: #"{"version":1,"properties":{"title":"client","b":3,"a":3}}"#)
    #expect(r.status == 200)
    #expect(r.json["item"]["properties"]["title"].string == "client")
    #expect(r.json["conflict_resolution"]["fields"].strings == ["a", "b", "title"])
    #expect(r.json["conflict_resolution"]["strategy"]["title"].string == "last_writer_wins")
    #expect(r.json["conflict_resolution"]["conflicted_copy_id"].value == nil)
  }

  @Test func staleCollisionOnAKeepBothCopiesFieldMakesATaggedConflictedCopy() throws {
    let h = try Harness(Self.notes)
    try h.create("n1", properties: #"{"title":"a","body":"one"}"#)
    h.instance.edit(ConcurrentEdit(itemId: "n1", properties: ["body": "server"]))
    let r = try h.send("PATCH", "/items/n1?conflict=auto", json: #"{"version":1,"properties":{"body":"client"}}"#)
    #expect(r.status == 200)
    #expect(r.json["item"]["properties"]["body"].string == "server")
    #expect(r.json["conflict_resolution"]["fields"].strings == ["body"])
    #expect(r.json["conflict_resolution"]["strategy"]["body"].string == "keep_both_copies")
    let copyId = try #require(r.json["conflict_resolution"]["conflicted_copy_id"].string)
    let copy = try h.send("GET", "/items/\(copyId)?include=metadata")
    #expect(copy.json["item"]["properties"]["body"].string == "client")
    #expect(copy.json["item"]["type"].string == "note")
    #expect(copy.json["metadata"]["tags"].strings == ["conflicted-copy"])
    let list = try h.send("GET", "/items?state=any&include=metadata,edges&limit=200")
    let edges = list.json["data"][1]["item"]["edges"]["derived-from"]["data"]
    #expect(edges[0]["edge_type"].string == "derived-from")
    #expect(edges[0]["source_id"].string == copyId)
    #expect(edges[0]["target_id"].string == "n1")
  }

  @Test(arguments: [0, 7])
  func updateFromAVersionWithNoSnapshotIs409AncestorUnavailable(version: Int) throws {
    let h = try Harness()
    try h.create("n1")
    let r = try h.send("PATCH", "/items/n1?conflict=auto", json: #"{"version":\#(version),"properties":{"title":"x"}}"#)
    #expect(r.status == 409)
    #expect(r.json["error"]["code"].string == "ancestor_unavailable")
    #expect(r.json["error"]["status"].int == 409)
    #expect(r.json["current"]["id"].string == "n1")
    #expect(r.json["current"]["version"].int == 1)
    #expect(r.json["requested_version"].int == version)
  }

  @Test func updateFromAForgottenVersionIs409AncestorUnavailable() throws {
    let h = try Harness()
    try h.create("n1")
    h.instance.edit(ConcurrentEdit(itemId: "n1", properties: ["title": "two"], forgetHistory: true))
    let r = try h.send("PATCH", "/items/n1?conflict=auto", json: #"{"version":1,"properties":{"title":"x"}}"#)
    #expect(r.json["error"]["code"].string == "ancestor_unavailable")
  }

  @Test func staleUpdateWithoutConflictAutoIs409VersionConflictWithTheWholeEnvelope() throws {
    let h = try Harness(Self.notes)
    try h.create("n1", properties: #"{"title":"a"}"#)
    h.instance.edit(ConcurrentEdit(itemId: "n1", properties: ["title": "server"]))
    let r = try h.send("PATCH", "/items/n1", json: #"{"version":1,"properties":{"title":"client"}}"#)
    #expect(r.status == 409)
    #expect(r.json["error"]["code"].string == "version_conflict")
    #expect(r.json["error"]["status"].int == 409)
    #expect(r.json["current"]["version"].int == 2)
    #expect(r.json["ancestor"]["version"].int == 1)
    #expect(r.json["conflicting_fields"].strings == ["title"])
    #expect(r.json["merge_policy"]["fields"]["body"].string == "keep_both_copies")
  }

  @Test func deleteAtAStaleVersionIs409VersionConflictNamingTheCurrentRow() throws {
    let h = try Harness()
    try h.create("n1")
    h.instance.edit(ConcurrentEdit(itemId: "n1", properties: ["title": "two"]))
    let r = try h.send("DELETE", "/items/n1?version=1")
    #expect(r.status == 409)
    #expect(r.json["error"]["code"].string == "version_conflict")
    #expect(r.json["current"]["version"].int == 2)
  }

  @Test func deleteTrashesTheRowWhichThenReadsAs404TrashedUntilRestored() throws {
    let h = try Harness()
    try h.create("n1")
    let deleted = try h.send("DELETE", "/items/n1?version=1", json: "{}")
    #expect(deleted.status == 200)
    #expect(deleted.text == #"{"ok":true}"#)
    let read = try h.send("GET", "/items/n1?include=metadata")
    #expect(read.status == 404)
    #expect(read.json["error"]["code"].string == "item_not_found")
    #expect(read.json["error"]["details"]["trashed"].bool == true)
    let patched = try h.send("PATCH", "/items/n1?conflict=auto", json: #"{"version":1,"properties":{}}"#)
    #expect(patched.json["error"]["details"]["trashed"].bool == true)
    let restored = try h.send("POST", "/items/n1/restore", json: "{}")
    #expect(restored.status == 200)
    #expect(restored.json["item"]["state"].string == "active")
    #expect(restored.json["item"]["version"].int == 1)
  }

  @Test func transitionChangesTheStateAndNotTheVersion() throws {
    let h = try Harness()
    try h.create("n1")
    let r = try h.send("POST", "/items/n1/transition", json: #"{"state":"archived"}"#)
    #expect(r.status == 200)
    #expect(r.json["item"]["state"].string == "archived")
    #expect(r.json["item"]["version"].int == 1)
    #expect(try h.send("POST", "/items/n1/transition", json: #"{"state":"gone"}"#).status == 400)
  }

  @Test(arguments: [
    ("GET", "/items/nope?include=metadata"), ("PATCH", "/items/nope?conflict=auto"),
    ("DELETE", "/items/nope?version=1"),
    ("POST", "/items/nope/restore"), ("POST", "/items/nope/transition"), ("POST", "/items/nope/tags"),
    ("PUT", "/items/nope/metadata"), ("DELETE", "/items/nope/tags/x"), ("PUT", "/items/nope/extensions/ns"),
  ])
  func anUnknownItemIs404ItemNotFoundOnEveryDoor(method: String, target: String) throws {
    let h = try Harness()
    let r = try h.send(method, target, json: #"{"version":1,"state":"active","tags":["x"]}"#)
    #expect(r.status == 404)
    #expect(r.json["error"]["code"].string == "item_not_found")
    #expect(r.json["error"]["details"].value == nil)
  }

  @Test func itemsArePagedTwoHundredAtATimeWithANextCursor() throws {
    let h = try Harness()
    for i in 0..<250 { h.instance.seed(SeedItem(id: "i\(i)", type: "note", state: i == 3 ? "trashed" : "active")) }
    let first = try h.send("GET", "/items?state=any&include=metadata&limit=200")
    #expect(first.json["data"].array?.count == 200)
    #expect(first.json["data"][0]["item"]["id"].string == "i0")
    #expect(first.json["data"][0]["metadata"]["item_id"].string == "i0")
    let cursor = try #require(first.json["next_cursor"].string)
    let second = try h.send("GET", "/items?state=any&include=metadata&limit=200&cursor=\(cursor)")
    #expect(second.json["data"].array?.count == 50)
    #expect(second.json["data"][0]["item"]["id"].string == "i200")
    #expect(second.json["next_cursor"].isNull)
    let active = try h.send("GET", "/items?limit=200&cursor=\(cursor)")
    #expect(active.json["data"].array?.count == 50)
    let firstActive = try h.send("GET", "/items?limit=5")
    #expect(firstActive.json["data"][3]["item"]["id"].string == "i4", "a trashed row is listed only with state=any")
  }
}
