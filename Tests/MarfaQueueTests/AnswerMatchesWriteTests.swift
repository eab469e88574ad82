import Foundation
import ScriptedInstance
import Testing

@testable import MarfaQueue

/// A 2xx must be about the write it answers: one that names another row,
/// another blob, or says two things (a member name given twice) is no verdict. It is counted
/// toward `dead`, as the contract counts a 2xx it cannot read: the write stays unanswered under its
/// key, nothing of the answer enters the copy, and its attempt says what was wrong.
@Suite struct AnswerMatchesWriteTests {
  /// An item as an answer carries it.
  static func item(_ id: String, version: Int = 77) -> String {
    #"{"id":"\#(id)","type":"note","version":\#(version),"state":"active","properties":{"title":"theirs"}}"#
  }

  @Test(arguments: [
    ("another id", #"{"item":\#(item("someone-else"))}"#, "was about item 'someone-else', not this write's 'w1'"),
    (
      "the item given twice, the later another row's",
      #"{"item":\#(item("w1", version: 1)),"item":\#(item("someone-else"))}"#, "gives the member 'item' twice"
    ),
    (
      "the id given twice inside the item",
      #"{"item":{"id":"w1","id":"someone-else","type":"note","version":77,"properties":{}}}"#,
      "gives the member 'id' twice"
    ),
  ])
  func aCreateAnsweredAboutAnotherRowIsNoVerdictAndNothingOfItEntersTheCopy(
    _ label: String, _ body: String, _ said: String
  ) async throws {
    let h = try await DrainHarness(rules: [.once(.write("w1"), .status(201, body: body))])
    let w = try await h.note(id: "w1")
    let report = try await h.copy.queue.drain()
    #expect(report.answered == 1 && report.undelivered == 0, "\(label): \(report)")
    let after = try await h.write(w.id)
    #expect(after.verdict == nil, "\(label)")
    #expect(after.refusals == 1, "\(label)")
    let attempt = try await h.copy.queue.attempts(of: w.id).list.first
    #expect(attempt?.status == 201, "\(label)")
    #expect(attempt?.text?.contains(said) == true, "\(label): \(String(describing: attempt))")
    #expect(after.idempotencyKey == w.idempotencyKey)
    // Nothing of the answer is in the copy: no row of the other id, the created row as laid.
    let other = try await h.copy.store.run { try $0.row(kind: .item, id: "someone-else") }
    #expect(other == nil, "\(label): the copy took the other row")
    let mine = try await h.copy.store.run { try $0.row(kind: .item, id: "w1") }
    #expect(mine?.version != 77, "\(label): the copy took the answer's version")
    // An update queued now is not made against the other row's version.
    let update = try await h.copy.updateItem(id: "w1", properties: .object([("title", .string("b"))]))
    #expect(update.baseVersion != 77, "\(label)")
    // The next drain sends it again under its key; the instance's own answer is taken.
    _ = try await h.copy.queue.drain()
    #expect(try await h.write(w.id).verdict == .accepted, "\(label)")
  }

  /// One kind of write, the endpoint it goes to, and a 2xx naming another row than its own.
  struct Case: Sendable, CustomTestStringConvertible {
    var kind: WriteKind
    var method: String
    var path: String
    var answer: String
    var queue: @Sendable (WorkingCopy) async throws -> QueuedWrite
    var testDescription: String { kind.wireName }
  }

  static let metadataOfN2 = #"{"metadata":{"item_id":"n2","tags":["x"],"extensions":{}}}"#

  static let cases: [Case] = [
    Case(kind: .updateItem, method: "PATCH", path: "/items/n1", answer: #"{"item":\#(item("n2"))}"#) {
      try await $0.updateItem(id: "n1", properties: .object([("title", .string("b"))]))
    },
    Case(kind: .restoreItem, method: "POST", path: "/items/n1/restore", answer: #"{"item":\#(item("n2"))}"#) {
      try await $0.restoreItem(id: "n1")
    },
    Case(kind: .transitionItem, method: "POST", path: "/items/n1/transition", answer: #"{"item":\#(item("n2"))}"#) {
      try await $0.transitionItem(id: "n1", state: "archived")
    },
    Case(kind: .deleteItem, method: "DELETE", path: "/items/n1", answer: #"{"ok":true,"item":\#(item("n2"))}"#) {
      try await $0.deleteItem(id: "n1")
    },
    Case(kind: .createEdge, method: "POST", path: "/edges", answer: #"{"edge":{"id":"e-other","version":1}}"#) {
      try await $0.createEdge(source: "n1", target: "n2", type: "link", id: "e1")
    },
    Case(kind: .updateEdge, method: "PATCH", path: "/edges/e9", answer: #"{"edge":{"id":"e-other","version":2}}"#) {
      try await $0.updateEdge(id: "e9", properties: .object([("w", .number(JSONNumber(1)))]), version: 1)
    },
    Case(kind: .deleteEdge, method: "DELETE", path: "/edges/e9", answer: #"{"ok":true,"edge":{"id":"e-other"}}"#) {
      try await $0.deleteEdge(id: "e9")
    },
    Case(kind: .replaceMetadata, method: "PUT", path: "/items/n1/metadata", answer: metadataOfN2) {
      try await $0.writeMetadata(item: "n1", tags: ["x"], replace: true)
    },
    Case(kind: .mergeMetadata, method: "PATCH", path: "/items/n1/metadata", answer: metadataOfN2) {
      try await $0.writeMetadata(item: "n1", tags: ["x"], replace: false)
    },
    Case(kind: .addTag, method: "POST", path: "/items/n1/tags", answer: metadataOfN2) {
      try await $0.addTag(item: "n1", tag: "x")
    },
    Case(kind: .removeTag, method: "DELETE", path: "/items/n1/tags/x", answer: metadataOfN2) {
      try await $0.removeTag(item: "n1", tag: "x")
    },
    Case(
      kind: .writeExtension, method: "PUT", path: "/items/n1/extensions/ns",
      answer: #"{"metadata":{"item_id":"n2","tags":[],"extensions":{"ns":{}}}}"#
    ) { try await $0.writeExtension(item: "n1", namespace: "ns", body: .object([])) },
    Case(
      kind: .deleteExtension, method: "DELETE", path: "/items/n1/extensions/ns",
      answer: #"{"item_id":"n2","extensions":{}}"#
    ) { try await $0.deleteExtension(item: "n1", namespace: "ns") },
    Case(
      kind: .uploadBlob, method: "POST", path: "/blobs",
      answer: #"{"hash":"\#(String(repeating: "0", count: 64))","mime_type":"text/plain","size_bytes":3}"#
    ) { try await $0.putBlob(Array("abc".utf8), mimeType: "text/plain") },
  ]

  @Test(arguments: cases)
  func everyWriteThatIsAnsweredWithARowIsCheckedAgainstTheRowItNames(_ c: Case) async throws {
    let h = try await DrainHarness(
      items: [SeedItem(id: "n1", type: "note", properties: ["title": "a"]), SeedItem(id: "n2", type: "note")],
      rules: [.once(.route(c.method, .exact(c.path)), .status(c.kind == .uploadBlob ? 201 : 200, body: c.answer))])
    let w = try await c.queue(h.copy)
    #expect(w.kind == c.kind)
    let n2Before = try await h.copy.store.run { try $0.row(kind: .item, id: "n2") }
    let report = try await h.copy.queue.drain()
    let after = try await h.write(w.id)
    #expect(after.verdict == nil, "\(String(describing: after.verdict)); \(report)")
    #expect(after.refusals == 1)
    let attempt = try await h.copy.queue.attempts(of: w.id).list.first
    #expect(attempt?.text?.contains("not this write's") == true, "\(String(describing: attempt))")
    #expect(report.answered == 1 && report.undelivered == 0, "\(report)")
    // The other row's copy is as it was; no edge of the other id came in.
    let n2After = try await h.copy.store.run { try $0.row(kind: .item, id: "n2") }
    #expect(n2After?.version == n2Before?.version && n2After?.body == n2Before?.body)
    #expect(try await h.copy.store.run { try $0.row(kind: .edge, id: "e-other") } == nil)
  }

  @Test func aRefusedWritesReadBackAnsweredWithAnotherRowIsNotTaken() async throws {
    let h = try await DrainHarness(
      items: [SeedItem(id: "n1", type: "note", properties: ["title": "a"]), SeedItem(id: "n2", type: "note")],
      rules: [
        .once(.route("PATCH", .exact("/items/n1")), .validation([("properties.title", "no")])),
        .once(.route("GET", .exact("/items/n1")), .status(200, body: #"{"item":\#(Self.item("n2"))}"#)),
      ])
    let w = try await h.copy.updateItem(id: "n1", properties: .object([("title", .string("b"))]))
    _ = try await h.copy.queue.drain()
    #expect(try await h.write(w.id).verdict?.wireName == "refused")
    let n1 = try await h.copy.store.run { try $0.row(kind: .item, id: "n1") }
    let n2 = try await h.copy.store.run { try $0.row(kind: .item, id: "n2") }
    #expect(n1?.body["id"] == .string("n1") && n1?.version != 77, "\(String(describing: n1))")
    #expect(n2?.version == 1, "the other row was taken: \(String(describing: n2))")
  }

  @Test func aNaturalKeyCreateLandsOnTheRowTheAnswerNamesAndTheWritesQueuedOnItFollow() async throws {
    // An upsert: the instance answers with the row the natural key names, under its own id.
    let answer =
      #"{"item":{"id":"srv-9","type":"note","version":4,"source":"crm","source_id":"mine","properties":{}}}"#
    let h = try await DrainHarness(
      rules: [
        .once(.route("POST", .exact("/items")), .status(200, body: answer)),
        .once(
          .route("PATCH", .exact("/items/srv-9")),
          .status(200, body: #"{"item":{"id":"srv-9","type":"note","version":5,"properties":{"a":1}}}"#)),
        // The reads after each answer find the row as the instance holds it then.
        .once(.route("GET", "/items/srv-9"), .status(200, body: answer)),
        .once(
          .route("GET", "/items/srv-9"),
          .status(200, body: #"{"item":{"id":"srv-9","type":"note","version":5,"properties":{"a":1}}}"#)),
      ])
    let w = try await h.copy.createItem(type: "note", properties: .object([]), source: "crm", sourceId: "mine")
    let placeholder = try #require(w.itemId)
    let edit = try await h.copy.updateItem(id: placeholder, properties: .object([("a", .int(1))]), version: 0)
    let report = try await h.copy.queue.drain()
    #expect(try await h.write(w.id).verdict == .accepted)
    #expect(report.verdicts.first?.itemId == "srv-9", "\(report)")
    // The copy holds the row the answer named, not the placeholder.
    #expect(try await h.copy.item(id: "srv-9") != nil)
    #expect(try await h.copy.item(id: placeholder) == nil)
    // The edit queued on the placeholder followed the create onto that row and its version.
    let sent = try await h.write(edit.id)
    #expect(sent.itemId == "srv-9")
    #expect(sent.verdict == .accepted)
    #expect(h.requests("PATCH", "/items/srv-9").count == 1)
  }
}
