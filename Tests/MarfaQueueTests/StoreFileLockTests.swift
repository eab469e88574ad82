import Foundation
import Testing

@testable import MarfaQueue

#if canImport(Glibc)
  import Glibc
#endif

/// The writer role on the store file itself (``StoreFileLock``), in one process: every name of
/// a store this process writes opens as a reader; the descriptor kept on the file lives until the
/// last store on it closes.
@Suite struct StoreFileLockTests {
  @Test func aHardLinkOrASymlinkToAStoreThisProcessWritesOpensAsAReader() async throws {
    let t = TestStore()
    let writer = try await t.open()
    _ = try await writer.createItem(type: "note", properties: .object([]))
    let hard = t.folder.appendingPathComponent("hard.store")
    let soft = t.folder.appendingPathComponent("soft.store")
    #expect(link(t.url.path, hard.path) == 0)
    #expect(symlink(t.url.path, soft.path) == 0)
    let throughHard = try await WorkingCopy.open(store: hard, server: nil)
    #expect(throughHard.handle == .reader(reason: StoreLock.heldThroughAnotherName))
    await #expect(throws: QueueError.readingHandle(reason: StoreLock.heldThroughAnotherName)) {
      _ = try await throughHard.createItem(type: "note", properties: .object([]))
    }
    let throughSoft = try await WorkingCopy.open(store: soft, server: nil)
    #expect(!throughSoft.handle.isWriter)
    // Readers see the writer alive through any name.
    #expect(throughHard.store.writerIsLive() && throughSoft.store.writerIsLive())
    throughSoft.close()
    throughHard.close()
    // A reader closing first leaves the writer's role where it was.
    #expect(writer.store.writerIsLive())
    let third = try await WorkingCopy.open(store: hard, server: nil)
    #expect(!third.handle.isWriter)
    third.close()
    writer.close()
    let next = try await WorkingCopy.open(store: hard, server: nil)
    defer { next.close() }
    #expect(next.handle == .writer)
    #expect(try await next.queue.all().count == 1)
  }

  @Test func theLockAndTheBlobFolderAreBesideTheResolvedStoreWhicheverNameOpenedIt() async throws {
    let t = TestStore()
    let first = try await t.open()
    first.close()
    let sub = t.folder.appendingPathComponent("sub")
    try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
    let soft = sub.appendingPathComponent("link.store")
    #expect(symlink(t.url.path, soft.path) == 0)
    let copy = try await WorkingCopy.open(store: soft, server: nil)
    defer { copy.close() }
    #expect(copy.handle == .writer)
    let real = try #require(StorePath.realPath(t.url.path))
    #expect(copy.store.realPath == real)
    #expect(copy.store.lockPath == real + ".lock")
    #expect(copy.store.blobFolder == real + ".blobs")
    _ = try await copy.putBlob(Array("bytes".utf8), mimeType: "text/plain")
    #expect(FileManager.default.fileExists(atPath: real + ".blobs"))
    #expect(!FileManager.default.fileExists(atPath: soft.path + ".blobs"))
    #expect(!FileManager.default.fileExists(atPath: soft.path + ".lock"))
  }

  @Test func resolvedKeepsTheNameOfAStoreNotMadeYetInItsResolvedFolder() throws {
    let t = TestStore()
    let real = try #require(StorePath.realPath(t.folder.path))
    #expect(StorePath.resolved(t.folder.path + "//./new.store") == real + "/new.store")
    #expect(StorePath.resolved(t.folder.path + "/x/../new.store") == t.folder.path + "/x/../new.store")
  }
}
