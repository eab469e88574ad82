import Foundation
import MarfaQueue
import MarfaWire
import TestSupport
import Testing

/// A reader hears of its store's files being removed, made again, or closed by a writer that
/// ends, from inotify (no timer), and opens the new file at the path as a reader.
@Suite struct StoreFileEventsTests {
  /// Counts the events a stream gives.
  final class Heard: Sendable {
    let task: Task<Void, Never>
    init(_ stream: AsyncStream<Void>) {
      let box = Box()
      task = Task.detached { for await _ in stream { box.add() } }
      self.box = box
    }
    let box: Box
    /// Whether more than `n` events came within a few seconds.
    func more(than n: Int) async -> Bool {
      await eventually(within: .seconds(5), every: .milliseconds(10)) { box.value > n }
    }
    var value: Int { box.value }
  }

  final class Box: Sendable {
    private let n = Mutex(0)
    func add() { n.withLock { $0 += 1 } }
    var value: Int { n.withLock { $0 } }
  }

  @Test func aReaderHearsItsStoreRemovedAndMadeAgainAndFollowsTheNewFile() async throws {
    let t = TestStore()
    let first = try await t.open()
    _ = try await first.createItem(type: "note", properties: .object([]))
    first.close()
    let reader = try await WorkingCopy.openReader(store: t.url)
    defer { reader.close() }
    let heard = Heard(try #require(reader.storeFileEvents()))
    defer { heard.task.cancel() }

    for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: t.url.path + suffix) }
    #expect(await heard.more(than: 0))
    #expect(reader.storeFileState() == .removed)
    let afterRemoval = heard.value

    // Another writer makes a store at the path: heard, and it is another file.
    let second = try await t.open()
    _ = try await second.createItem(type: "note", properties: .object([]))
    _ = try await second.createItem(type: "note", properties: .object([]))
    second.close()
    #expect(await heard.more(than: afterRemoval))
    #expect(reader.storeFileState() == .replaced)
    // Still the old file as it was.
    #expect(try await reader.queue.counts().waiting == 1)
    let fresh = try await WorkingCopy.openReader(store: t.url)
    defer { fresh.close() }
    #expect(!fresh.handle.isWriter)
    #expect(try await fresh.queue.counts().waiting == 2)
  }

  @Test func aReaderHearsAWriterThatEnds() async throws {
    let t = TestStore()
    let writer = try await t.open()
    _ = try await writer.createItem(type: "note", properties: .object([]))
    let reader = try await WorkingCopy.openReader(store: t.url)
    defer { reader.close() }
    let heard = Heard(try #require(reader.storeFileEvents()))
    defer { heard.task.cancel() }
    writer.close()
    #expect(await heard.more(than: 0))
  }

  @Test func aWritersCopyHasNoFileEvents() async throws {
    let t = TestStore()
    let writer = try await t.open()
    defer { writer.close() }
    #expect(writer.storeFileEvents() == nil)
  }
}
