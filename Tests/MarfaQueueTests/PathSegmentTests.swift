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
}
