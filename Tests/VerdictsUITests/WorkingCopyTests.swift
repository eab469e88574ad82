import Foundation
import MarfaQueue
import Testing

@testable import VerdictsUI

/// The UI over a real store: MarfaQueue's public calls, paged, and a reader that refuses actions.
@Suite struct WorkingCopyTests {
  static func temporaryStore() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("verdicts-ui-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent("queue.store")
  }

  @Test func renderOnceOverARealStore() async throws {
    let url = try Self.temporaryStore()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let copy = try await WorkingCopy.open(store: url, server: Server(url: "http://127.0.0.1:9", key: "secret-key-123"))
    defer { copy.close() }
    for i in 0..<30 {
      _ = try await copy.createItem(type: "note", properties: .object([("title", .string("note \(i) \u{1B}[31m版本"))]))
    }
    let text = try await VerdictsApp.renderOnce(copy: copy, size: (width: 120, height: 40))
    #expect(text.contains("Waiting 30"))
    #expect(text.contains("create item"))
    #expect(text.contains("http://127.0.0.1:9"))
    #expect(!text.contains("secret-key-123"))
    #expect(!text.contains("\u{1B}"))
    #expect(text.contains("writer"))
  }

  @Test func aSecondOpenerIsReadOnlyAndSaysWhy() async throws {
    let url = try Self.temporaryStore()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let writer = try await WorkingCopy.open(store: url, server: nil)
    defer { writer.close() }
    _ = try await writer.createItem(type: "note", properties: .object([]))
    let reader = try await WorkingCopy.openReader(store: url)
    defer { reader.close() }
    let prepared = VerdictsApp.prepare(source: reader, options: AppOptions())
    #expect(prepared.state.readOnly)
    var state = prepared.state
    _ = state.handle(.key(.char("d")))
    #expect(state.message?.text.hasPrefix("read-only: drain now is not allowed") == true)
    let text = try await VerdictsApp.renderOnce(copy: reader, size: (width: 120, height: 40))
    #expect(text.contains("read-only ("))
  }

  @Test func aReaderSeesTheWritersSavesThroughItsChanges() async throws {
    let url = try Self.temporaryStore()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let writer = try await WorkingCopy.open(store: url, server: nil)
    defer { writer.close() }
    _ = try await writer.createItem(type: "note", properties: .object([]))
    let reader = try await WorkingCopy.openReader(store: url)
    defer { reader.close() }
    var state = UIState(width: 120, height: 40)
    state.readOnlyReason = "watching"
    let core = AppCore(source: reader, state: state, log: AppLog(path: nil), wake: {})
    core.start()
    await AppCoreTests.settle(core)
    #expect(core.state[.waiting].total == 1)
    let started = Date()
    _ = try await writer.createItem(type: "note", properties: .object([]))
    while core.state[.waiting].total < 2, Date().timeIntervalSince(started) < 2 {
      try await Task.sleep(nanoseconds: 10_000_000)
      core.process()
    }
    #expect(core.state[.waiting].total == 2)
    #expect(Date().timeIntervalSince(started) < 0.5)
    core.stop()
  }
}
