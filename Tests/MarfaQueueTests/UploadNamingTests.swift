import Digest
import Foundation
import ScriptedInstance
import Testing

@testable import MarfaQueue

/// An upload names its bytes as the contract does (`sha256:<hex>`), its payload carries that
/// name and the type and nothing else, and a file is added or attached as an upload, a file item
/// and (attached) an `attached-to` edge, each waiting on the one before.
@Suite struct UploadNamingTests {
  static func file(_ name: String, _ text: String) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent(name).path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func anUploadIsNamedSha256HexAndItsPayloadIsTheNameAndTypeOnly() async throws {
    let h = try await DrainHarness()
    let hex = SHA256.hex(Array("abc".utf8))
    let w = try await h.copy.putBlob(file: try Self.file("note.txt", "abc"), mimeType: "text/plain")
    #expect(w.blob == "sha256:" + hex)
    #expect(w.body == .object([("hash", .string("sha256:" + hex)), ("mime_type", .string("text/plain"))]))
    // The bytes are kept beside the store under their hex digits.
    #expect(FileManager.default.fileExists(atPath: h.store.url.path + ".blobs/" + hex))
    _ = try await h.copy.queue.drain()
    #expect(try await h.write(w.id).verdict == .accepted)
  }

  @Test func anEmptyFileIsRefusedAndNothingIsQueued() async throws {
    let h = try await DrainHarness()
    await #expect(throws: QueueError.self) {
      try await h.copy.putBlob(file: try Self.file("empty.txt", ""), mimeType: "text/plain")
    }
    await #expect(throws: QueueError.self) { try await h.copy.putBlob([], mimeType: "text/plain") }
    #expect(try await h.copy.queue.all().isEmpty)
  }

  @Test func anAttachedFileIsAnUploadAFileItemAndAnEdgeEachWaitingOnTheOneBefore() async throws {
    let h = try await DrainHarness(items: [SeedItem(id: "n1", type: "note")])
    let writes = try await h.copy.attach(
      file: try Self.file("scan.pdf", "%PDF"), to: "n1", .init(mimeType: "application/pdf"))
    let edge = try #require(writes.edge)
    #expect([writes.upload.kind, writes.item.kind, edge.kind] == [.uploadBlob, .createItem, .createEdge])
    #expect(writes.item.dependsOn == [writes.upload.id])
    #expect(edge.dependsOn.contains(writes.item.id))
    #expect(edge.body["edge_type"] == .string("attached-to"))
    #expect(edge.body["target_id"] == .string("n1"))
    let file = try #require(try await h.copy.item(id: writes.item.itemId ?? ""))
    #expect(file["type"] == .string("core.file"))
    #expect(file["properties"]?["blob_ref"] == .string(writes.upload.blob ?? ""))
    #expect(file["properties"]?["title"] == .string("scan.pdf"))
  }

  @Test func aFileIsAttachedOnlyToAnItemTheCopyHoldsOutsideTheBin() async throws {
    let h = try await DrainHarness(items: [SeedItem(id: "n1", type: "note")])
    let path = try Self.file("note.txt", "x")
    await #expect(throws: QueueError.self) {
      try await h.copy.attach(file: path, to: "nowhere", .init(mimeType: "text/plain"))
    }
    _ = try await h.copy.deleteItem(id: "n1")
    await #expect(throws: QueueError.self) {
      try await h.copy.attach(file: path, to: "n1", .init(mimeType: "text/plain"))
    }
    #expect(try await h.copy.queue.all().map(\.kind) == [.deleteItem])
  }

  @Test func anAddedFileTakesTheTitleTypeTierAndTagsItIsGivenAndAnImageIsTypedSo() async throws {
    let h = try await DrainHarness()
    let given = try await h.copy.addFile(
      try Self.file("lease.png", "png"),
      .init(mimeType: "image/png", title: "Lease", type: "core.file", tier: "feed", tags: ["home"]))
    #expect(given.edge == nil)
    #expect(given.tags.map(\.tag) == ["home"])
    #expect(given.tags.first?.dependsOn == [given.item.id])
    let shown = try #require(try await h.copy.item(id: given.item.itemId ?? ""))
    #expect(shown["type"] == .string("core.file"))
    #expect(shown["tier"] == .string("feed"))
    #expect(shown["properties"]?["title"] == .string("Lease"))
    #expect(shown["tags"] == .array([.string("home")]))
    let image = try await h.copy.addFile(try Self.file("photo.jpg", "jpg"), .init(mimeType: "image/jpeg"))
    #expect(try await h.copy.item(id: image.item.itemId ?? "")?["type"] == .string("core.file.image"))
  }
}
