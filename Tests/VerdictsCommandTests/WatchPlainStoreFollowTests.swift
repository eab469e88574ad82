import Foundation
import MarfaQueue
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Through the binary with two and three processes on one store:
/// `watch --plain` follows a store deleted and made again at its path (as the screen's watcher
/// does), and on a Marfa core store names the app holding the core's writer lock as it comes and
/// goes, and says in `--json` what the core does not keep.
@Suite(.serialized) struct WatchPlainStoreFollowTests {
  /// Waits until `s`'s output holds `needle`, at most `timeout` seconds.
  static func wait(_ s: Spawned, for needle: String, timeout: Double = 20) -> Bool {
    waitUntil(within: .seconds(timeout)) { s.stdout.contains(needle) }
  }

  @Test func aStoreDeletedAndMadeAgainIsSaidThenItsWritesArePrintedFromTheStart() throws {
    let t = TempFolder()
    let create = { (id: String) in
      try Binary.run(
        ["items", "create", "--type", "note", "--id", id, "--properties", "{}"], store: t.store, home: t.path)
    }
    #expect(try create("old-item").code == 0)
    let watch = try Spawned(["watch", "--plain"], environment: Binary.environment(store: t.store, home: t.path, [:]))
    defer { watch.kill() }
    #expect(Self.wait(watch, for: " old-item "), "\(watch.stdout)")

    for suffix in ["", "-wal", "-shm", ".lock"] { unlink(t.store + suffix) }
    #expect(Self.wait(watch, for: "store removed at "), "\(watch.stdout)")
    #expect(watch.stdout.contains("; waiting for it"), "\(watch.stdout)")
    #expect(try create("new-one").code == 0)
    #expect(try create("new-two").code == 0)
    #expect(Self.wait(watch, for: "store made again at "), "\(watch.stdout)")
    #expect(Self.wait(watch, for: " new-two "), "\(watch.stdout)")
    // Said, then the new store's writes from its first, each once.
    let lines = watch.stdout.split(separator: "\n").map(String.init)
    let said = try #require(lines.firstIndex { $0.contains("store made again at ") })
    let one = try #require(lines.firstIndex { $0.contains(" new-one ") })
    #expect(said < one, "\(watch.stdout)")
    #expect(lines.filter { $0.contains(" new-one ") }.count == 1, "\(watch.stdout)")
    #expect(lines[one].split(separator: " ").dropFirst(4).first == "queued", "\(lines[one])")
    #expect(!watch.stdout.contains("watch again"), "\(watch.stdout)")
    // And what changes in the new store is followed.
    #expect(try create("new-three").code == 0)
    #expect(Self.wait(watch, for: " new-three "), "\(watch.stdout)")
  }

  @Test func onACoreStoreItNamesTheAppHoldingTheWriterLockAsItComesAndGoes() throws {
    let t = TempFolder()
    let path = t.file("device.sqlite")
    let lock = t.file("device.writer-lock")
    let fixture = try CoreStoreFixture.everyShape(path: path)
    defer { fixture.close() }
    let env = Binary.environment(store: path, home: t.path, [:])
    let watch = try Spawned(["watch", "--plain"], environment: env)
    defer { watch.kill() }
    let watchJSON = try Spawned(["--json", "watch", "--plain"], environment: env)
    defer { watchJSON.kill() }
    #expect(Self.wait(watch, for: "writer: none (no app holds the core's writer lock)"), "\(watch.stdout)")

    let app = try CoreWriterApp(lockPath: lock)
    let pid = app.pid
    #expect(Self.wait(watch, for: "writer: python3 (pid \(pid)) holds the core's writer lock"), "\(watch.stdout)")
    // Both watchers sample the lock (about once a second): the app stays until each has seen it,
    // or a loaded machine's JSON watcher can miss a holder that came and went between two looks.
    #expect(Self.wait(watchJSON, for: #""state":"live""#), "\(watchJSON.stdout)")
    app.stop()
    #expect(Self.wait(watch, for: "(pid \(pid) let the core's writer lock go)"), "\(watch.stdout)")
    let gone = watch.stdout.split(separator: "\n").last { $0.contains("let the core's writer lock go") }
    #expect(gone?.contains(" writer: none since ") == true, "\(watch.stdout)")

    // The JSON lines: the writer as it came and went, and every row saying what is not kept.
    // The line of the app going, which the first line's `none` must not stand in for.
    waitUntil(within: .seconds(20)) { watchJSON.stdout.components(separatedBy: #""state":"none""#).count >= 3 }
    let parsed = watchJSON.stdout.split(separator: "\n").compactMap { JSONValue.parse(String($0)) }
    let writers = parsed.filter { $0["event"] == .string("writer") }.map { $0["writer"]?["state"]?.stringValue ?? "" }
    #expect(writers == ["none", "live", "none"], "\(watchJSON.stdout)")
    #expect(parsed.first { $0["writer"]?["state"] == .string("live") }?["writer"]?["pid"] == .int(Int(pid)))
    let rows = parsed.filter { $0["id"] != nil }
    #expect(rows.count == 13, "\(watchJSON.stdout)")
    for row in rows {
      #expect(row["not_kept"] == .array([.string("last_failure"), .string("environmental_streak")]), "\(row)")
      #expect(row["environmental_streak"] == .null && row["last_failure"] == .null, "\(row)")
    }
  }

  @Test func aCoreStoresQueueJSONSaysWhatItDoesNotKeep() throws {
    let t = TempFolder()
    let path = t.file("device.sqlite")
    let fixture = try CoreStoreFixture.everyShape(path: path)
    defer { fixture.close() }
    let queue = try Binary.run(["--json", "queue"], store: path, home: t.path)
    let rows = try #require(queue.json?.arrayValue)
    #expect(rows.count == 13)
    for row in rows {
      #expect(row["not_kept"] == .array([.string("last_failure"), .string("environmental_streak")]), "\(row)")
      #expect(row["last_failure"] == .null && row["environmental_streak"] == .null)
    }
    let show = try Binary.run(["--json", "show", "w-held"], store: path, home: t.path)
    #expect(show.json?["not_kept"]?.arrayValue?.count == 2, "\(show)")
    // This project's own store keeps both: no such field.
    let own = TempFolder()
    _ = try Binary.run(["items", "create", "--type", "note", "--properties", "{}"], store: own.store, home: own.path)
    let mine = try Binary.run(["--json", "queue"], store: own.store, home: own.path)
    #expect(mine.json?.arrayValue?.first?["not_kept"] == nil, "\(mine)")
    #expect(mine.json?.arrayValue?.first?["environmental_streak"] == .int(0))
  }
}
