import Foundation
import ScriptedInstance
import TestSupport
import Testing

@testable import MarfaQueue

/// A writer whose store file was deleted or replaced stops draining and says so: its verdicts
/// would go into a file no other process sees.
@Suite struct StoreReplacedTests {
  func drainAfter(_ change: (String, String) throws -> Void) async throws -> (Error?, Int) {
    let instance = ScriptedInstance(scenario: Scenario(name: "t", types: [ItemType("note")]))
    let url = try instance.start()
    defer { instance.stop() }
    let folder = TempFolder()
    defer { _ = folder }
    let dir = folder.path
    let path = folder.store
    let copy = try await WorkingCopy.open(
      store: URL(fileURLWithPath: path), server: Server(url: url.absoluteString, key: "k"))
    defer { copy.close() }
    try await copy.fill()
    _ = try await copy.createItem(type: "note", properties: .object([]))
    try change(path, dir)
    var thrown: Error?
    do { _ = try await copy.queue.drain() } catch { thrown = error }
    return (thrown, instance.requests.filter { $0.method == "POST" }.count)
  }

  @Test func aWriterWhoseStoreFileWasDeletedStopsDrainingAndSaysSo() async throws {
    let (error, posts) = try await drainAfter { path, _ in
      for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    }
    let q = try #require(error as? QueueError, "the drain went on: \(String(describing: error))")
    #expect(q.code == "store")
    #expect(q.message.contains("deleted"), "\(q.message)")
    #expect(posts == 0, "a write was sent from a deleted store")
  }

  @Test func aWriterWhoseStoreFileWasReplacedStopsDrainingAndSaysSo() async throws {
    let (error, posts) = try await drainAfter { path, dir in
      let other = dir + "/other.store"
      #expect(FileManager.default.createFile(atPath: other, contents: Data("another file".utf8)))
      #expect(rename(other, path) == 0)
    }
    let q = try #require(error as? QueueError, "the drain went on: \(String(describing: error))")
    #expect(q.message.contains("replaced"), "\(q.message)")
    #expect(posts == 0, "a write was sent from a replaced store")
  }
}
