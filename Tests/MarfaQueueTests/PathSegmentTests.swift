import Foundation
import ScriptedInstance
import TestSupport
import Testing

@testable import MarfaQueue

/// Every path segment of a request arrives as given (percent-encoded), and `.`, `..` and empty
/// segments are refused before anything is queued.
@Suite struct PathSegmentTests {
  @Test func aSegmentIsPercentEncodedExceptUnreservedCharacters() throws {
    #expect(try WriteRequest.segment("a/b?c#d%e f") == "a%2Fb%3Fc%23d%25e%20f")
    #expect(try WriteRequest.segment("n1.v2_x-y~z") == "n1.v2_x-y~z")
    #expect(try WriteRequest.segment("é;=") == "%C3%A9%3B%3D")
    #expect(try WriteRequest.segment("...") == "...")
  }

  @Test func dotDotDotAndEmptySegmentsAreRefused() {
    for bad in [".", "..", ""] {
      #expect(throws: QueueError.self) { try WriteRequest.segment(bad) }
    }
  }

  @Test func theEngineRefusesADotSegmentAndQueuesNothing() async throws {
    let folder = TempFolder()
    defer { _ = folder }
    let copy = try await WorkingCopy.open(store: folder.storeURL, server: nil)
    defer { copy.close() }
    let item = try await copy.createItem(type: "note", properties: .object([]))
    let id = try #require(item.itemId)
    await #expect(throws: QueueError.self) { _ = try await copy.removeTag(item: id, tag: "..") }
    await #expect(throws: QueueError.self) { _ = try await copy.addTag(item: ".", tag: "t") }
    await #expect(throws: QueueError.self) { _ = try await copy.deleteExtension(item: id, namespace: "..") }
    #expect(try await copy.queue.all().count == 1)
  }

  /// The URL a write goes to is kept between writes that share it: writes to other URLs, in
  /// any order, each still get their own.
  @Test func eachWriteGetsItsOwnURLWhenTheKeptOneIsAnothers() throws {
    func request(_ kind: WriteKind, item: String?, version: Int? = nil) throws -> WriteRequest {
      let w = QueuedWrite(id: "w", kind: kind, itemId: item, baseVersion: version, idempotencyKey: "k", queuedAt: "")
      return try WriteRequest(w, blobFolder: "/nonexistent")
    }
    let create = try request(.createItem, item: "a")
    let update = try request(.updateItem, item: "a b")
    let delete = try request(.deleteItem, item: "a", version: 3)
    let expected = [
      (create, "http://h:1", "http://h:1/items"), (create, "http://h:1/", "http://h:1/items"),
      (update, "http://h:1", "http://h:1/items/a%20b?conflict=auto"), (create, "http://h:2", "http://h:2/items"),
      (delete, "http://h:2", "http://h:2/items/a?version=3"), (delete, "http://h:2", "http://h:2/items/a?version=3"),
      (create, "http://h:1", "http://h:1/items"),
    ]
    for (r, origin, url) in expected {
      #expect(r.url(origin: origin)?.absoluteString == url)
    }
  }
}
