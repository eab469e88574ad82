import Foundation
import ScriptedInstance
import Testing

@testable import MarfaQueue

#if canImport(Glibc)
  import Glibc
#endif

/// An upload's bytes follow the one rule for what leaves the queue: a refused upload carried
/// content, so only discard takes it; its bytes stay beside the store while the archive keeps the
/// write (an undo puts both back), and go once it no longer does.
@Suite struct UploadBytesTests {
  /// The file beside the store that holds a write's bytes: named by the hex of its
  /// `sha256:<hex>` name.
  static func file(_ h: DrainHarness, _ w: QueuedWrite) -> String {
    let name = w.blob ?? ""
    return h.store.url.path + ".blobs/" + (name.hasPrefix("sha256:") ? String(name.dropFirst(7)) : name)
  }

  /// The bytes' file beside the store, aged past the sweep's grace.
  static func agedBlob(_ h: DrainHarness, _ w: QueuedWrite) -> String {
    let path = file(h, w)
    var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
    _ = utimensat(AT_FDCWD, path, &times, 0)
    return path
  }

  static func refusedUpload(_ h: DrainHarness) async throws -> QueuedWrite {
    h.instance.addRules([.once(.route("POST", "/blobs"), .validation([(field: "mime_type", message: "not allowed")]))])
    let w = try await h.copy.putBlob(Array("the bytes".utf8), mimeType: "text/plain")
    _ = try await h.copy.queue.drain()
    let refused = try await h.write(w.id)
    #expect(refused.verdict?.name == .refused, "\(String(describing: refused.verdict))")
    return refused
  }

  @Test func aRefusedUploadIsLeftByForgetAndOnlyDiscardTakesIt() async throws {
    let h = try await DrainHarness()
    let w = try await Self.refusedUpload(h)
    #expect(try await h.copy.queue.forgetAnswered(ids: [w.id]) == 0)
    #expect(try await h.copy.queue.forgetAnswered() == 0)
    #expect(try await h.copy.queue.discard(w.id))
  }

  @Test func anUploadsBytesStayWhileItsWriteCanBeUndoneAndGoOnceItCannot() async throws {
    let h = try await DrainHarness()
    let w = try await Self.refusedUpload(h)
    let path = Self.agedBlob(h, w)
    #expect(FileManager.default.fileExists(atPath: path), "no bytes at \(path)")
    #expect(try await h.copy.queue.discard(w.id))
    #expect(FileManager.default.fileExists(atPath: path), "the bytes went while an undo could put the write back")
    guard case .restored = try await h.copy.queue.undo(w.id) else {
      Issue.record("the discard was not undone")
      return
    }
    #expect(try await h.copy.queue.discard(w.id))
    // The archive lets the write go (its bound, its age): the next departure takes the bytes.
    try await h.copy.store.run { db in try db.query("DELETE FROM archive") }
    _ = try await h.note()
    _ = try await h.copy.queue.drain()
    #expect(try await h.copy.queue.forgetAnswered() == 1)
    #expect(!FileManager.default.fileExists(atPath: path), "the bytes stayed after their write could not come back")
  }

  @Test func bytesKeptAMomentAgoAreLeftAloneBeforeTheirWriteIsQueued() async throws {
    let h = try await DrainHarness()
    let w = try await Self.refusedUpload(h)
    let path = Self.file(h, w)
    #expect(try await h.copy.queue.discard(w.id))
    try await h.copy.store.run { db in try db.query("DELETE FROM archive") }
    await h.copy.sweepBlobs()
    #expect(FileManager.default.fileExists(atPath: path), "a file younger than the grace was taken")
  }
}
