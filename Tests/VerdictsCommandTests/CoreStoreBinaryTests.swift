import Foundation
import MarfaQueue
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The built binary on stores the Marfa core wrote: every reading command shows them, every action
/// exits 4 naming the `marfa` command, and nothing of the core's files changes.
@Suite(.serialized) struct CoreStoreBinaryTests {
  /// The core's files as they stand: the bytes of the main file and its `-wal`, and the lock file's
  /// bytes and modification time.
  static func snapshot(_ path: String, lock: String) -> [String: String] {
    var out: [String: String] = [:]
    for file in [path, path + "-wal", lock] {
      // A read-only open makes a missing -wal as an empty file (reference 5): no bytes changed.
      guard let data = FileManager.default.contents(atPath: file), !(file.hasSuffix("-wal") && data.isEmpty) else {
        continue
      }
      out[file] = "\(data.count):\(data.hashValue)"
      if let date = try? FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date {
        out[file]! += ":\(date.timeIntervalSince1970)"
      }
    }
    return out
  }

  @Test func everyReadingCommandShowsACoreStoreAndNoCommandChangesItsFiles() throws {
    let t = TempFolder()
    let path = t.file("device.sqlite")
    let lock = t.file("device.writer-lock")
    let fixture = try CoreStoreFixture.everyShape(path: path)  // open: its commits are still in the -wal
    defer { fixture.close() }
    let app = try CoreWriterApp(lockPath: lock)
    defer { app.stop() }
    let before = Self.snapshot(path, lock: lock)
    #expect(before[path + "-wal"] != nil)

    let queue = try Binary.run(["--json", "queue"], store: path, home: t.path)
    #expect(queue.code == 0, "\(queue)")
    let writes = try #require(queue.json?.arrayValue)
    #expect(writes.count == 13)
    let held = try #require(writes.first { $0["id"] == .string("w-held") })
    #expect(held["waiting"] == .bool(true) && held["verdict"] == .string("blocked"))
    #expect(held["reason"] == .string("awaiting_dependency"))
    // What the core does not keep is null, not a zero or an empty failure.
    #expect(held["environmental_streak"] == .null && held["last_failure"] == .null)
    let refused = try #require(writes.first { $0["id"] == .string("w-refused") })
    #expect(refused["refusal"]?["fields"]?.arrayValue?.first?["field"] == .string("title"))
    #expect(writes.first { $0["id"] == .string("w-grant") }?["refusal"]?["grant"]?["name"] == .string("note"))

    let text = try Binary.run(["queue"], store: path, home: t.path)
    #expect(text.code == 0 && text.stdout.contains("dead") && text.stdout.contains("conflict_unresolved"), "\(text)")

    let status = try Binary.run(["--json", "status"], store: path, home: t.path)
    #expect(status.code == 0, "\(status)")
    #expect(status.json?["store_kind"] == .string("marfa_core"))
    #expect(status.json?["handle"] == .string("reader"))
    let reason = status.json?["handle_reason"]?.stringValue ?? ""
    #expect(reason.contains("pid \(app.pid)"), "\(reason)")
    #expect(status.json?["counts"]?["blocked"] == .number(4))
    let plainStatus = try Binary.run(["status"], store: path, home: t.path)
    #expect(plainStatus.stdout.contains("Marfa core store (schema 0)"), "\(plainStatus)")

    let watch = try Spawned(
      ["watch", "--plain"], environment: Binary.environment(store: path, home: t.path, [:]), defaultSignals: true)
    waitUntil(within: .seconds(10)) { watch.stdout.components(separatedBy: "\n").count >= 14 }
    kill(watch.process.processIdentifier, SIGINT)
    #expect(watch.wait(timeout: 10))
    #expect(
      watch.stdout.contains(" w-held update_item i-new waiting awaiting:w-waiting-first not-kept "), "\(watch.stdout)")
    #expect(
      watch.stdout.contains(" w-conflict update_item item-1 blocked conflict_unresolved not-kept "), "\(watch.stdout)")

    #expect(Self.snapshot(path, lock: lock) == before)
    #expect(app.stillHolds())
  }

  @Test func everyActionExitsFourNamingTheMarfaCommandThatDoesIt() throws {
    let t = TempFolder()
    let path = t.file("device.sqlite")
    let fixture = try CoreStoreFixture.everyShape(path: path)
    fixture.close()
    let before = Self.snapshot(path, lock: t.file("device.writer-lock"))
    let cases: [([String], String)] = [
      (["release", "w-spent"], "marfa device --db \(path) release w-spent"),
      (["release", "--reason", "key_spent"], "marfa device --db \(path) release --reason key_spent"),
      (["withdraw", "w-ancestor"], "marfa device --db \(path) withdraw w-ancestor"),
      (["discard", "w-refused"], "marfa device --db \(path) discard w-refused"),
      (["forget", "w-accepted"], "marfa device --db \(path) forget w-accepted"),
      (["take-answered"], "marfa device --db \(path) forget"),
      (["drain"], "marfa device --db \(path) drain"),
    ]
    for (arguments, command) in cases {
      let r = try Binary.run(arguments, store: path, home: t.path)
      #expect(r.code == 4, "\(arguments): \(r)")
      #expect(r.stderr.contains(command), "\(arguments): \(r.stderr)")
      let j = try Binary.run(["--json"] + arguments, store: path, home: t.path)
      #expect(j.envelope?["error"]?["code"] == .string("reading_handle"), "\(arguments): \(j)")
    }
    let create = try Binary.run(["items", "create", "--type", "note", "--properties", "{}"], store: path, home: t.path)
    #expect(create.code == 4 && create.stderr.contains("only reads"), "\(create)")
    #expect(Self.snapshot(path, lock: t.file("device.writer-lock")) == before)
    #expect(!t.exists(t.file("device.writer-lock")) && !t.exists(path + ".writer-lock"))
  }

  @Test func aCoreStoreOfAnUnknownVersionIsRefusedWrongSchemaAndLeftAsItWas() throws {
    let t = TempFolder()
    let path = t.file("device.sqlite")
    let fixture = try CoreStoreFixture(path: path, version: "12")
    fixture.close()
    let before = Self.snapshot(path, lock: t.file("device.writer-lock"))
    for arguments in [["queue"], ["status"], ["watch", "--plain"], ["release", "x"]] {
      let r = try Binary.run(["--json"] + arguments, store: path, home: t.path)
      #expect(r.code == 4, "\(arguments): \(r)")
      #expect(r.envelope?["error"]?["code"] == .string("wrong_schema"), "\(arguments): \(r)")
      let message = r.envelope?["error"]?["message"]?.stringValue ?? ""
      #expect(message.contains("a Marfa core store of schema 12") && message.contains("it reads Marfa core schema 0"))
    }
    #expect(Self.snapshot(path, lock: t.file("device.writer-lock")) == before)
  }
}
