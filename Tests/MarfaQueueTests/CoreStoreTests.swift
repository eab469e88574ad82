import Foundation
import MarfaWire
import TestSupport
import Testing

@testable import MarfaQueue

/// Stores the Marfa core wrote: recognised by their layout, read without a change, mapped row by row.
@Suite struct CoreStoreTests {
  /// The bytes of a file, or nil when there is none.
  static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  @Test func aCoreStoreIsRecognisedByItsLayoutWithItsSchemaVersion() throws {
    let t = TestStore()
    let path = t.folder.appendingPathComponent("device.sqlite").path
    let fixture = try CoreStoreFixture(path: path)
    #expect(try StoreFile.kind(at: path) == .marfaCore(schemaVersion: "0"))
    fixture.close()
    #expect(try StoreFile.kind(at: path) == .marfaCore(schemaVersion: "0"))
  }

  @Test func aCoreStoreOfAVersionThisBuildDoesNotReadIsRefusedNamingWhatItFound() throws {
    let t = TestStore()
    for (version, found) in [
      ("7", "a Marfa core store of schema 7"), (nil, "a Marfa core store with no schema version"),
    ] {
      let path = t.folder.appendingPathComponent("core-\(version ?? "none").db").path
      let fixture = try CoreStoreFixture(path: path, version: version)
      fixture.close()
      let before = Self.bytes(path)
      #expect {
        try StoreFile.kind(at: path)
      } throws: { error in
        guard case QueueError.unknownSchema(_, let f, let reads) = error else { return false }
        return f == found && reads == "Marfa core schema 0" && (error as? QueueError)?.code == "wrong_schema"
      }
      #expect(Self.bytes(path) == before)
    }
  }

  @Test func thisProjectsStoreAForeignSQLiteFileAndNonsenseAreToldApart() async throws {
    let t = TestStore()
    let copy = try await t.open()
    copy.close()
    #expect(try StoreFile.kind(at: t.url.path) == .verdicts(schemaVersion: StoreSchema.version))

    let foreign = t.folder.appendingPathComponent("foreign.db").path
    let f = try CoreStoreFixture(path: foreign)
    try f.exec("DROP TABLE beneath")  // a queue and a meta table, but not the core's layout
    f.close()
    #expect(throws: QueueError.wrongSchema(path: foreign, unsent: nil)) { try StoreFile.kind(at: foreign) }

    let text = t.folder.appendingPathComponent("notes.txt").path
    FileManager.default.createFile(atPath: text, contents: Data("hello, not a database\n".utf8))
    #expect(throws: QueueError.wrongSchema(path: text, unsent: nil)) { try StoreFile.kind(at: text) }
    #expect(Self.bytes(text) == Data("hello, not a database\n".utf8))

    let missing = t.folder.appendingPathComponent("missing.sqlite").path
    #expect(throws: QueueError.noStore(path: missing)) { try StoreFile.kind(at: missing) }
    #expect(!FileManager.default.fileExists(atPath: missing))
  }

  @Test func everyRowShapeTheCoreWritesMapsToTheSameVerdictsAsThisProjectsStore() throws {
    let t = TestStore()
    let (fixture, core) = try Self.everyShapeStore(t)
    defer { fixture.close() }
    defer { core.close() }
    let writes = Dictionary(uniqueKeysWithValues: try core.readAll().map { ($0.id, $0) })

    #expect(writes["w-waiting-first"]?.verdict == nil && writes["w-waiting-first"]?.waiting == false)
    // awaiting_dependency is shown as waiting, as the seed asks.
    #expect(writes["w-held"]?.verdict == nil && writes["w-held"]?.waiting == true)
    #expect(writes["w-held"]?.pane == .waiting && writes["w-held"]?.follows == "w-waiting-first")
    #expect(writes["w-accepted"]?.verdict == .accepted)
    #expect(writes["w-merged"]?.verdict == .merged(fields: ["title", "priority"]))
    #expect(writes["w-conflicted"]?.verdict == .conflicted(siblingId: "i-sibling", fields: ["title"]))
    let refused = try #require(writes["w-refused"]?.verdict?.refusal)
    #expect(refused.reason == "validation_error" && refused.code == "validation_error")
    #expect(
      refused.message == "title is required" && refused.fields == [FieldRefusal(field: "title", message: "is required")]
    )
    #expect(writes["w-refused"]?.sent == true)
    #expect(writes["w-trashed"]?.verdict?.refusal?.trashed == true)
    #expect(writes["w-grant"]?.verdict?.blockedReason == .credentialRefused)
    #expect(writes["w-grant"]?.verdict?.refusal?.grant == MissingGrant(kind: .type, name: "note", level: .write))
    #expect(writes["w-spent"]?.verdict?.blockedReason == .keySpent)
    #expect(writes["w-ancestor"]?.verdict?.blockedReason == .ancestorUnavailable)
    #expect(writes["w-conflict"]?.verdict?.blockedReason == .conflictUnresolved)
    #expect(writes["w-dead"]?.verdict == .dead && writes["w-dead"]?.refusals == 5)
    #expect(writes["w-dead"]?.answer == "<html>bad gateway</html>")
    let unsent = try #require(writes["w-refused-unsent"])
    #expect(unsent.sent == false && unsent.dependsOn == ["w-refused"])
    #expect(unsent.verdict?.refusal?.reason == "the create_item it waits for was refused")
    // What the core does not keep is empty here; the store's kind says it is not kept.
    #expect(writes.values.allSatisfy { $0.lastFailure == nil && $0.environmentalStreak == 0 && $0.instanceId == nil })

    #expect(try core.readCounts() == QueueCounts(waiting: 2, answered: 6, blocked: 4, dead: 1))
    let page = try core.readPage(.blocked, offset: 0, limit: 2, filter: nil)
    #expect(page.total == 4 && page.writes.map(\.id) == ["w-grant", "w-spent"])
    #expect(try core.readPage(.answered, offset: 0, limit: 10, filter: "trash").writes.map(\.id) == ["w-trashed"])
    let status = try core.readStatus()
    #expect(status.kind == .marfaCore(schemaVersion: "0") && status.origin == "http://127.0.0.1:7700")
    #expect(!status.handle.isWriter)
  }

  @Test func readingNeverChangesTheMainFileOrItsWAL() throws {
    let t = TestStore()
    let path = t.folder.appendingPathComponent("device.sqlite").path
    let fixture = try CoreStoreFixture.everyShape(path: path)  // open: its commits are still in the -wal
    defer { fixture.close() }
    let main = Self.bytes(path)
    let wal = Self.bytes(path + "-wal")
    #expect((wal?.count ?? 0) > 0)
    let core = try CoreStore.open(path: path)
    _ = try core.readAll()
    _ = try core.readStatus()
    _ = try core.readPage(.answered, offset: 0, limit: 5, filter: "x")
    core.close()
    #expect(Self.bytes(path) == main)
    #expect(Self.bytes(path + "-wal") == wal)
    for lock in CoreStoreLayout.lockPaths(for: path) { #expect(!FileManager.default.fileExists(atPath: lock)) }
  }

  @Test func theWriterLockPathsAreTheCoresTwoNamings() {
    #expect(CoreStoreLayout.lockPaths(for: "/d/core.sqlite") == ["/d/core.writer-lock", "/d/core.sqlite.writer-lock"])
    #expect(CoreStoreLayout.lockPaths(for: "/d/copy") == ["/d/copy.writer-lock"])
    #expect(CoreStoreLayout.lockPaths(for: "/d.x/.hidden") == ["/d.x/.hidden.writer-lock"])
  }

  @Test func theCoresWriterIsSeenWithItsPidWithoutTakingItsLock() throws {
    let t = TestStore()
    let path = t.folder.appendingPathComponent("device.sqlite").path
    let fixture = try CoreStoreFixture(path: path)
    defer { fixture.close() }
    #expect(CoreWriterProbe.writer(of: path) == nil)  // no lock file: no core writer yet
    let lock = t.folder.appendingPathComponent("device.writer-lock").path
    let app = try CoreWriterApp(lockPath: lock)
    defer { app.stop() }
    let before = try FileManager.default.attributesOfItem(atPath: lock)[.modificationDate] as? Date
    let writer = try #require(CoreWriterProbe.writer(of: path))
    #expect(writer.pid == app.pid && writer.lockPath == lock)
    // Probing again and again never takes the lock from the app: it still holds it.
    for _ in 0..<20 { #expect(CoreWriterProbe.writer(of: path)?.pid == app.pid) }
    #expect(app.stillHolds())
    #expect(try FileManager.default.attributesOfItem(atPath: lock)[.modificationDate] as? Date == before)
    app.stop()
    #expect(CoreWriterProbe.writer(of: path) == nil)
  }

  @Test func aCoreStoreTellsItsAppsCommitsAndItsWriterComingAndGoing() async throws {
    let t = TestStore()
    let path = t.folder.appendingPathComponent("device.sqlite").path
    let fixture = try CoreStoreFixture(path: path)
    defer { fixture.close() }
    let core = try CoreStore.open(path: path)
    defer { core.close() }
    // What the stream tells, gathered as it comes: a telling that does not come fails the wait
    // below, not the whole run.
    let told = Mutex<[Int]>([])
    let stream = core.changes()
    let reader = Task.detached {
      for await change in stream {
        if case .saved(let version) = change { told.withLock { $0.append(version) } }
      }
    }
    defer { reader.cancel() }
    // No pause: the stream follows from the call, however late its task starts (a commit made
    // before that task ran was once taken as where it started, and never told).
    try fixture.exec("CREATE TABLE tick(x)")
    #expect(await eventually(every: .milliseconds(10)) { told.withLock { $0.count } == 1 }, "the app's commit")
    #expect(told.withLock { $0 } == [try core.dataVersion()])
    // A writer that comes and goes is told too (looked for at the latest a second later).
    let app = try CoreWriterApp(lockPath: t.folder.appendingPathComponent("device.writer-lock").path)
    #expect(await eventually(every: .milliseconds(10)) { told.withLock { $0.count } == 2 }, "the writer coming")
    app.stop()
    #expect(await eventually(every: .milliseconds(10)) { told.withLock { $0.count } == 3 }, "the writer going")
  }
}

extension CoreStoreTests {
  @Test func aCoreStoresPanesAreSortedInEachOrderAfterReadingThemInSendOrder() throws {
    let t = TestStore()
    let (fixture, core) = try Self.everyShapeStore(t)
    defer { fixture.close() }
    defer { core.close() }
    for pane in QueuePane.allCases {
      let sent = try core.readPage(pane, offset: 0, limit: 100, filter: nil).writes
      for order in PaneOrder.allCases {
        let expected = order.sorted(sent).map(\.id)
        #expect(try core.readPage(pane, offset: 0, limit: 100, filter: nil, order: order).writes.map(\.id) == expected)
        // A page from the middle is a slice of the same order (an offset past the end is the last).
        let page = try core.readPage(pane, offset: 1, limit: 2, filter: nil, order: order)
        #expect(page.offset == min(1, max(0, expected.count - 1)))
        #expect(page.writes.map(\.id) == Array(expected.dropFirst(page.offset).prefix(2)), "\(pane) \(order)")
      }
    }
    // Blocked by reason: ancestor_unavailable, conflict_unresolved, credential_refused, key_spent.
    let byReason = try core.readPage(.blocked, offset: 0, limit: 10, filter: nil, order: .reason).writes.map(\.id)
    #expect(byReason == ["w-ancestor", "w-conflict", "w-grant", "w-spent"])
    let newest = try core.readPage(.blocked, offset: 0, limit: 10, filter: nil, order: .newestFirst).writes.map(\.id)
    #expect(newest == ["w-conflict", "w-ancestor", "w-spent", "w-grant"])
    // Filtered and ordered.
    let filtered = try core.readPage(.answered, offset: 0, limit: 10, filter: "refused", order: .newestFirst)
    #expect(filtered.writes.map(\.id) == ["w-refused-unsent", "w-trashed", "w-refused"])
  }
}

extension CoreStoreTests {
  /// A core store in `t`'s folder holding every row shape the core writes, and this project's
  /// reader opened on it.
  static func everyShapeStore(_ t: TestStore) throws -> (fixture: CoreStoreFixture, core: CoreStore) {
    let path = t.folder.appendingPathComponent("device.sqlite").path
    let fixture = try CoreStoreFixture.everyShape(path: path)
    return (fixture, try CoreStore.open(path: path))
  }
}
