import Testing

@testable import ScriptedInstance

@Suite struct SidecarDoorTests {
  @Test func edgesAreCreatedUpdatedAtTheirVersionAndDeleted() throws {
    let h = try Harness()
    try h.create("a")
    try h.create("b")
    try h.create("c")
    let created = try h.send(
      "POST", "/edges", json: #"{"id":"e1","source_id":"a","target_id":"b","edge_type":"links","properties":{"w":1}}"#)
    #expect(created.status == 201)
    #expect(created.json["edge"]["version"].int == 1)
    let repeated = try h.send(
      "POST", "/edges", json: #"{"id":"e1","source_id":"a","target_id":"b","edge_type":"links"}"#)
    #expect(repeated.status == 200)
    #expect(repeated.json["acknowledged"].bool == true)
    let moved = try h.send("PATCH", "/edges/e1", json: #"{"version":1,"target_id":"c","properties":{"w":2}}"#)
    #expect(moved.status == 200)
    #expect(moved.json["edge"]["target_id"].string == "c")
    #expect(moved.json["edge"]["version"].int == 2)
    let stale = try h.send("PATCH", "/edges/e1", json: #"{"version":1,"properties":{}}"#)
    #expect(stale.status == 409)
    #expect(stale.json["error"]["code"].string == "version_conflict")
    #expect(stale.json["current"]["version"].int == 2)
    #expect(try h.send("DELETE", "/edges/e1", json: "{}").text == #"{"ok":true}"#)
    for (method, path) in [("GET", "/edges/e1"), ("PATCH", "/edges/e1"), ("DELETE", "/edges/e1")] {
      let r = try h.send(method, path, json: #"{"version":3}"#)
      #expect(r.status == 404)
      #expect(r.json["error"]["code"].string == "edge_not_found")
    }
  }

  @Test func anEdgeToAnUnknownItemIs404() throws {
    let h = try Harness()
    try h.create("a")
    let r = try h.send("POST", "/edges", json: #"{"source_id":"a","target_id":"zz","edge_type":"links"}"#)
    #expect(r.status == 404)
    #expect(r.json["error"]["code"].string == "item_not_found")
  }

  @Test func metadataAndTagDoorsAnswerTheSidecarAndLeaveTheVersion() throws {
    let h = try Harness()
    try h.create("a")
    let put = try h.send("PUT", "/items/a/metadata", json: #"{"tags":["x","y"]}"#)
    #expect(put.json["metadata"]["tags"].strings == ["x", "y"])
    #expect(put.json["metadata"]["item_id"].string == "a")
    #expect(
      try h.send("PATCH", "/items/a/metadata", json: #"{"tags":["y","z"]}"#).json["metadata"]["tags"].strings == [
        "x", "y", "z",
      ])
    #expect(
      try h.send("POST", "/items/a/tags", json: #"{"tags":["w"]}"#).json["metadata"]["tags"].strings == [
        "x", "y", "z", "w",
      ])
    #expect(try h.send("DELETE", "/items/a/tags/y", json: "{}").json["metadata"]["tags"].strings == ["x", "z", "w"])
    #expect(try h.send("DELETE", "/items/a/tags/a%20b").json["metadata"]["tags"].strings == ["x", "z", "w"])
    #expect(try h.send("GET", "/items/a").json["item"]["version"].int == 1)
  }

  @Test func extensionsAreWrittenWholeAndDeletedByNamespace() throws {
    let h = try Harness()
    try h.create("a")
    let put = try h.send("PUT", "/items/a/extensions/app", json: #"{"pinned":true}"#)
    #expect(put.status == 200)
    #expect(put.json["extensions"]["app"]["pinned"].bool == true)
    let deleted = try h.send("DELETE", "/items/a/extensions/app", json: "{}")
    #expect(deleted.text == #"{"extensions":{}}"#)
  }

  @Test func blobsAreNamedSha256AndTheHexOfTheirBytesAndReadUnderEitherName() throws {
    let h = try Harness()
    let c = try RawConnection(port: h.port)
    c.send("POST /blobs HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nabc")
    let r = try c.readResponse()
    #expect(r.status == 201)
    #expect(r.json["hash"].string == "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(r.json["mime_type"].string == "text/plain")
    #expect(r.json["size_bytes"].int == 3)
    let read = try h.send("GET", "/blobs/ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(read.text == "abc")
    let named = try h.send("GET", "/blobs/sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(named.text == "abc")
  }

  @Test func typesAreListedWithTheirMergePolicies() throws {
    let h = try Harness(ItemDoorTests.notes)
    let r = try h.send("GET", "/types")
    #expect(r.json["data"][0]["name"].string == "note")
    #expect(r.json["data"][0]["merge_policy"]["fields"]["body"].string == "keep_both_copies")
  }
}
