import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

/// `items get`, `items list`, `edges list`, `edges to`: the copy's rows as a local read shows
/// them, through the built binary, without the writer role or an instance.
@Suite(.serialized) struct CopyReadBinaryTests {
  /// A store filled from a scripted instance holding the note `n1` (title "held", version 1).
  static func filled() throws -> (ScriptedInstance, TempFolder) {
    let instance = ScriptedInstance(
      scenario: Scenario(name: "t", items: [SeedItem(id: "n1", type: "note", properties: ["title": "held"])]))
    let url = try instance.start()
    let t = TempFolder()
    let e = ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": "k1"]
    #expect(try Binary.run(["fill"], store: t.store, home: t.path, environment: e).code == 0)
    return (instance, t)
  }

  @Test func itemsAttachPrintsItsThreeWritesAndItemsAddItsUploadFileItemAndTags() throws {
    let (instance, t) = try Self.filled()
    defer { instance.stop() }
    let file = t.file("scan.pdf")
    try Data("%PDF".utf8).write(to: URL(fileURLWithPath: file))
    let attached = try Binary.run(["items", "attach", "n1", file, "--json"], store: t.store, home: t.path)
    #expect(attached.code == 0, "\(attached)")
    #expect(attached.json?["upload"]?["kind"] == .string("upload_blob"))
    #expect(attached.json?["item"]?["kind"] == .string("create_item"))
    #expect(attached.json?["edge"]?["kind"] == .string("create_edge"))
    let added = try Binary.run(
      ["items", "add", file, "--title", "Scan", "--tag", "home", "--json"], store: t.store, home: t.path)
    #expect(added.code == 0, "\(added)")
    #expect(
      added.json?.arrayValue?.compactMap { $0["kind"]?.stringValue } == ["upload_blob", "create_item", "add_tag"])
    let item = added.json?.arrayValue?[1]["item_id"]?.stringValue ?? ""
    let shown = try Binary.run(["items", "get", item, "--json"], store: t.store, home: t.path)
    #expect(shown.json?["properties"]?["title"] == .string("Scan"))
    #expect(shown.json?["properties"]?["mime_type"] == .string("application/pdf"))
    // Nothing is queued for an item the copy does not hold, nor for an empty file.
    let nowhere = try Binary.run(["items", "attach", "nope", file, "--json"], store: t.store, home: t.path)
    #expect(nowhere.code != 0 && nowhere.stderr.contains("not_found"), "\(nowhere)")
    let empty = t.file("empty.txt")
    try Data().write(to: URL(fileURLWithPath: empty))
    let refused = try Binary.run(["items", "add", empty, "--json"], store: t.store, home: t.path)
    #expect(refused.code != 0 && refused.stderr.contains("invalid"), "\(refused)")
    let queued = try Binary.run(["queue", "--json"], store: t.store, home: t.path)
    #expect(queued.json?.arrayValue?.count == 6)
  }

  @Test func aLocalReadShowsTheFilledRowWithAnUnansweredEditLaidOver() throws {
    let (instance, t) = try Self.filled()
    defer { instance.stop() }
    let before = try Binary.run(["items", "get", "n1", "--json"], store: t.store, home: t.path)
    #expect(before.code == 0, "\(before)")
    #expect(before.json?["version"] == .number(1))
    #expect(before.json?["properties"]?["title"] == .string("held"))
    _ = try Binary.run(
      ["items", "update", "n1", "--properties", #"{"title":"edited"}"#, "--as-read"], store: t.store, home: t.path)
    let after = try Binary.run(["items", "get", "n1", "--json"], store: t.store, home: t.path)
    #expect(after.json?["properties"]?["title"] == .string("edited"))
    let list = try Binary.run(["items", "list", "--type", "note", "--json"], store: t.store, home: t.path)
    #expect(list.json?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["n1"])
    let none = try Binary.run(["items", "list", "--type", "other", "--json"], store: t.store, home: t.path)
    #expect(none.json == .array([]))
    let missing = try Binary.run(["items", "get", "nope", "--json"], store: t.store, home: t.path)
    #expect(missing.code == 4)
    #expect(missing.stderr.contains("not_held"))
  }

  @Test func edgesAreListedFromTheirSourceAndToTheirTarget() throws {
    let t = TempFolder()
    _ = try Binary.run(
      ["edges", "create", "--source", "a", "--target", "b", "--type", "references", "--id", "e1"], store: t.store,
      home: t.path)
    let from = try Binary.run(["edges", "list", "a", "--json"], store: t.store, home: t.path)
    #expect(from.json?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["e1"])
    let to = try Binary.run(["edges", "to", "b", "--json"], store: t.store, home: t.path)
    #expect(to.json?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["e1"])
    let neither = try Binary.run(["edges", "to", "a", "--json"], store: t.store, home: t.path)
    #expect(neither.json == .array([]))
  }

  @Test func aReadOfAMissingStoreIsNoStoreAndCreatesNothing() throws {
    let t = TempFolder()
    let r = try Binary.run(["items", "list", "--json"], store: t.store, home: t.path)
    #expect(r.code == 2)
    #expect(r.stderr.contains("no_store"))
    #expect(!FileManager.default.fileExists(atPath: t.store))
  }

  @Test func anItemUpdateThatNamesNoVersionIsRefusedAndNothingIsQueued() throws {
    let (instance, t) = try Self.filled()
    defer { instance.stop() }
    let bare = try Binary.run(
      ["--json", "items", "update", "n1", "--properties", #"{"title":"x"}"#], store: t.store, home: t.path)
    #expect(bare.code == 4, "\(bare)")
    #expect(bare.stderr.contains("invalid") && bare.stderr.contains("--as-read"), "\(bare)")
    let queue = try Binary.run(["--json", "queue"], store: t.store, home: t.path)
    #expect(queue.json == .array([]))
    let named = try Binary.run(
      ["--json", "items", "update", "n1", "--properties", #"{"title":"x"}"#, "--version", "1"], store: t.store,
      home: t.path)
    #expect(named.code == 0, "\(named)")
    let asRead = try Binary.run(
      ["--json", "items", "update", "n1", "--properties", #"{"title":"y"}"#, "--as-read"], store: t.store,
      home: t.path)
    #expect(asRead.json?["base_version"] == .number(1), "\(asRead)")
  }
}
