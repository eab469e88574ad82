import Foundation
import MarfaQueue
import MarfaWire
import Synchronization
import TestSupport
import Testing

@testable import VerdictsUI

/// The UI over a real store: MarfaQueue's public calls, paged, and a reader that refuses actions.
@Suite struct WorkingCopyTests {
  @Test func renderOnceOverARealStore() async throws {
    let folder = TempFolder()
    defer { _ = folder }
    let url = folder.storeURL
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
    let folder = TempFolder()
    defer { _ = folder }
    let url = folder.storeURL
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
    let folder = TempFolder()
    defer { _ = folder }
    let url = folder.storeURL
    let writer = try await WorkingCopy.open(store: url, server: nil)
    defer { writer.close() }
    _ = try await writer.createItem(type: "note", properties: .object([]))
    let reader = try await WorkingCopy.openReader(store: url)
    defer { reader.close() }
    let d = CoreDriver(reader, readOnly: "watching")
    let core = d.core
    await d.settle()
    #expect(core.state[.waiting].total == 1)
    let started = Date()
    _ = try await writer.createItem(type: "note", properties: .object([]))
    await d.run(until: "the reader shows the writer's second write") { $0.state[.waiting].total >= 2 }
    #expect(core.state[.waiting].total == 2)
    // Half a second at full speed; a sanitizer's build runs 2–20× slower, and the bound with it.
    #expect(Date().timeIntervalSince(started) < 0.5 * Double(SanitizerRun.boundScale))
  }
}

/// A real working copy, counting how often the whole queue is read pane by pane.
struct CountingSource: QueueSource {
  let copy: WorkingCopy
  let wholeReads = Counter()
  /// Whether the writer's and the store file's questions reach the copy (else the protocol's
  /// defaults answer: no writer, the file as it was).
  var followsWriter = false
  /// How many times the writer was asked (with ``followsWriter``): a test waits for the looks
  /// instead of sleeping through them.
  let writerChecks = Counter()

  final class Counter: Sendable {
    private let n = Atomic(0)
    func add() { n.add(1, ordering: .relaxed) }
    var value: Int { n.load(ordering: .relaxed) }
  }

  var handle: Handle { copy.handle }
  var instanceURL: String? { copy.instanceURL }
  func page(_ pane: QueuePane, offset: Int, limit: Int, filter: String?, order: PaneOrder) async throws -> QueuePage {
    try await copy.page(pane, offset: offset, limit: limit, filter: filter, order: order)
  }
  func status() async throws -> Status { try await copy.status() }
  func write(_ id: String) async throws -> QueuedWrite { try await copy.write(id) }
  func release(_ id: String) async throws -> Bool { try await copy.release(id) }
  func release(reason: BlockedReason) async throws -> Int { try await copy.release(reason: reason) }
  func withdraw(_ id: String) async throws -> Bool { try await copy.withdraw(id) }
  func discard(_ id: String) async throws -> Bool { try await copy.discard(id) }
  func undo(_ id: String) async throws -> UndoOutcome { try await copy.undo(id) }
  func takeAnswered() async throws -> [QueuedWrite] { try await copy.takeAnswered() }
  func forgetAnswered(ids: [String]) async throws -> Int { try await copy.forgetAnswered(ids: ids) }
  func drain() async throws -> DrainReport { try await copy.drain() }
  func useKey(_ key: String) async throws { try await copy.useKey(key) }
  func fill() async throws { try await copy.fill() }
  func changes() -> AsyncStream<Change> { copy.changes() }
  func updates() -> AsyncStream<Update> { copy.updates() }
  func summaries(_ pane: QueuePane, cursor: Int, limit: Int) async throws -> (writes: [QueuedWrite], next: Int) {
    if cursor == 0 && pane == .waiting { wholeReads.add() }
    return try await copy.summaries(pane, cursor: cursor, limit: limit)
  }
  func changed(since mark: Int?) async throws -> ChangedWrites? { try await copy.changed(since: mark) }
  func writer() async throws -> WriterRecord? {
    guard followsWriter else { return nil }
    writerChecks.add()
    return try await copy.writer()
  }
  func lastDrainEndedAt() async throws -> String? { followsWriter ? try await copy.lastDrainEndedAt() : nil }
  func storeFileState() -> StoreFileState { followsWriter ? copy.storeFileState() : .same }
  func storeFileEvents() -> AsyncStream<Void>? { followsWriter ? copy.storeFileEvents() : nil }
}

@Suite struct WatchPlainStoreTests {
  @Test func afterItsFirstReadWatchPlainReadsOnlyWhatChangedNotTheWholeQueue() async throws {
    let folder = TempFolder()
    defer { _ = folder }
    let url = folder.storeURL
    let writer = try await WorkingCopy.open(store: url, server: nil)
    defer { writer.close() }
    for _ in 0..<5 { _ = try await writer.createItem(type: "note", properties: .object([])) }
    let reader = try await WorkingCopy.openReader(store: url)
    defer { reader.close() }
    let source = CountingSource(copy: reader)
    let lines = LineSink()
    let watcher = Task { await VerdictsApp.watchPlain(source: source, emit: { lines.add($0) }, clock: { "T" }) }
    defer { watcher.cancel() }
    await eventually(within: .seconds(5)) { lines.all.count == 5 }
    #expect(source.wholeReads.value == 1)
    var added: [String] = []
    for _ in 0..<3 {
      added.append(try await writer.createItem(type: "note", properties: .object([])).id)
      // Writes a moment apart, as a person makes them.
      try await Task.sleep(nanoseconds: 150_000_000)
    }
    await eventually(within: .seconds(5)) { lines.all.count == 8 }
    let all = lines.all
    #expect(all.count == 8, "\(all)")
    #expect(all.suffix(3).map { $0.split(separator: " ")[1] }.map(String.init) == added)
    #expect(all.suffix(3).allSatisfy { $0.contains(" create_item ") && $0.contains(" queued ") })
    // Each change was read from the store's change log, not by reading every pane again.
    #expect(source.wholeReads.value == 1)
  }
}
