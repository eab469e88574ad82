import Foundation
import MarfaQueue
import TestSupport
import Testing

@testable import VerdictsCommand

/// The built `verdicts` executable, spawned as users run it.
@Suite struct BinaryTests {
  /// Every command's path, hidden ones included.
  static let commandPaths: [[String]] = CommandTable.root.walk().map(\.path)

  @Test func theBinaryIsBuilt() throws {
    let path = try Binary.require()
    #expect(FileManager.default.isExecutableFile(atPath: path))
  }

  @Test(arguments: commandPaths)
  func helpForEveryCommand(_ path: [String]) throws {
    let folder = TempFolder()
    for flag in ["--help", "-h"] {
      let r = try Binary.run(path + [flag], store: folder.store, home: folder.path)
      #expect(r.code == 0, "\(r)")
      #expect(r.stdout == HelpText.render(path: path))
      #expect(r.stderr.isEmpty)
    }
    #expect(!folder.exists(folder.store))
  }

  @Test func versionSaysADebugBuildHasNoCommitStamped() throws {
    let folder = TempFolder()
    let r = try Binary.run(["--version"], store: nil, home: folder.path)
    #expect(r.code == 0)
    #expect(r.stdout == CommandTable.version + " (not a release build: no commit stamped)\n")
  }

  @Test func everyKindQueuedThenReadBackAsJSON() throws {
    let folder = TempFolder()
    let blob = folder.file("notes.txt")
    try Data("hello".utf8).write(to: URL(fileURLWithPath: blob))
    var printed: [JSONValue] = []
    for (kind, line) in EveryKind.lines(blobFile: blob) {
      let r = try Binary.run(line + ["--json"], store: folder.store, home: folder.path)
      #expect(r.code == 0, "\(line): \(r)")
      let json = try #require(r.json, "\(line): \(r)")
      #expect(json["kind"]?.stringValue == kind.wireName)
      printed.append(json)
    }
    let r = try Binary.run(["--json", "queue"], store: folder.store, home: folder.path)
    #expect(r.code == 0)
    let writes = try #require(r.json?.arrayValue, "\(r)")
    #expect(writes == printed)
    #expect(
      writes.map { $0["kind"]?.stringValue ?? "" }
        == WriteKind.allCases.map(\.wireName).sorted {
          order($0) < order($1)
        })
    // Each write has its own id and its own key.
    #expect(Set(writes.compactMap { $0["id"]?.stringValue }).count == writes.count)
    #expect(Set(writes.compactMap { $0["idempotency_key"]?.stringValue }).count == writes.count)
    // The upload names its bytes `sha256:<hex>`; they sit beside the store, named by the hex.
    let name = try #require(writes.last?["blob"]?.stringValue)
    #expect(name.hasPrefix("sha256:"))
    let hash = String(name.dropFirst("sha256:".count))
    #expect(FileManager.default.contents(atPath: folder.store + ".blobs/" + hash) == Data("hello".utf8))
    #expect(writes.last?["body"]?["mime_type"]?.stringValue == "text/plain")
  }

  /// The order `EveryKind` queues the kinds in.
  func order(_ kind: String) -> Int {
    EveryKind.lines(blobFile: "").firstIndex { $0.0.wireName == kind } ?? 99
  }

  /// Every error code and exit code that can be reached without an instance.
  @Test func errorCodesAndExitCodes() throws {
    let folder = TempFolder()
    let missing = folder.file("missing.store")
    let foreign = folder.file("foreign.store")
    let corrupt = folder.file("corrupt.store")
    #expect(FileManager.default.createFile(atPath: foreign, contents: Data()))
    #expect(FileManager.default.createFile(atPath: corrupt, contents: Data(repeating: 0x42, count: 8192)))
    let created = try Binary.run(
      ["--json", "items", "create", "--type", "t", "--properties", "{}", "--id", "i"], store: folder.store,
      home: folder.path)
    let id = try #require(created.json?["id"]?.stringValue)
    let cases: [(store: String, line: [String], code: String, exit: Int32)] = [
      (folder.store, ["bogus"], "usage", 2),
      (folder.store, ["items", "create", "--type", "t", "--properties", "{nope"], "usage", 2),
      (missing, ["queue"], "no_store", 2),
      (missing, ["fill"], "no_server", 2),
      (folder.store, ["tui"], "usage", 2),
      (folder.store, ["release", "nope"], "not_found", 4),
      (folder.store, ["items", "delete", "nope"], "invalid", 4),
      (foreign, ["queue"], "wrong_schema", 4),
      (corrupt, ["status"], "store", 3),
    ]
    for c in cases {
      let r = try Binary.run(["--json"] + c.line, store: c.store, home: folder.path)
      #expect(r.code == c.exit, "\(c.line): \(r)")
      #expect(r.errorCode == c.code, "\(c.line): \(r)")
      let envelope = try #require(r.envelope)
      #expect(envelope["exit"]?.intValue == Int(c.exit))
      #expect(envelope["error"]?["message"]?.stringValue?.isEmpty == false)
      #expect(envelope["error"]?["server"] == .null)
      #expect(r.stdout.isEmpty)
      let text = try Binary.run(c.line, store: c.store, home: folder.path)
      #expect(text.code == c.exit)
      #expect(text.stderr.hasPrefix("verdicts"), "\(text)")
      // One sentence; bad JSON adds its line and a caret under the place (docs/cli.md).
      let lines = text.stderr.split(separator: "\n")
      #expect(
        lines.count == 1
          || (lines.count == 3 && lines[0].contains("is not valid JSON at line") && lines[2].hasSuffix("^")),
        "\(text)")
    }
    #expect(!folder.exists(missing))
    #expect(FileManager.default.contents(atPath: foreign) == Data())
    #expect(FileManager.default.contents(atPath: corrupt) == Data(repeating: 0x42, count: 8192))
    let queue = try Binary.run(["--json", "queue"], store: folder.store, home: folder.path)
    #expect(queue.json?.arrayValue?.map { $0["id"]?.stringValue } == [id])
  }

  @Test func badInputChangesNothing() throws {
    let folder = TempFolder()
    _ = try Binary.run(
      ["items", "create", "--type", "t", "--properties", "{}", "--id", "i"], store: folder.store, home: folder.path)
    let before = try Binary.run(["--json", "queue"], store: folder.store, home: folder.path)
    let bytes = folder.storeBytes()
    for line in [
      ["items", "update", "i", "--properties", "{\"a\":"], ["items", "update", "i", "--bogus"],
      ["items", "transition", "i", "--state", "melted"], ["release", "--reason", "nope"], ["tags", "add", "i"],
      ["items", "create", "--type", "t", "--properties", "{}", "--version", "1.5"],
      ["queue", "--kind", "delete_everything"],
    ] {
      let r = try Binary.run(["--json"] + line, store: folder.store, home: folder.path)
      #expect(r.code != 0, "\(line)")
      #expect(r.envelope != nil, "\(line): \(r)")
      // Refused before the store is opened: not a byte of it changes.
      #expect(folder.storeBytes() == bytes, "\(line) changed the store")
    }
    // An id the queue doesn't hold is refused after the store is opened (SQLite may fold its
    // log into the file on close, so only the queue is compared).
    let unknown = try Binary.run(["--json", "discard", "not-held"], store: folder.store, home: folder.path)
    #expect(unknown.errorCode == "not_found")
    let after = try Binary.run(["--json", "queue"], store: folder.store, home: folder.path)
    #expect(after.stdout == before.stdout)
  }

  /// A second process is a reader: while one holds the store, another's actions are refused.
  @Test func aSecondProcessIsAReader() throws {
    let folder = TempFolder()
    let created = try Binary.run(
      ["--json", "items", "create", "--type", "t", "--properties", "{}"], store: folder.store, home: folder.path)
    let id = try #require(created.json?["id"]?.stringValue)
    let holder = try Spawned(
      ["--json", "hold", "--seconds", "60"],
      environment: Binary.environment(store: folder.store, home: folder.path, [:]))
    defer {
      holder.kill()
      _ = holder.wait(timeout: 10)
    }
    #expect(holder.waitForLine(timeout: 20), "hold printed nothing: \(holder.stderr)")
    let holding = JSONValue.parse(holder.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    #expect(holding?["holding"]?.stringValue == folder.store)
    for line in [
      ["release", id], ["release", "--reason", "key_spent"], ["discard", id], ["drain"], ["tags", "add", "i", "t"],
    ] {
      let r = try Binary.run(["--json"] + line, store: folder.store, home: folder.path)
      #expect(r.code == 4, "\(line): \(r)")
      #expect(r.errorCode == "reading_handle", "\(line): \(r)")
    }
    let text = try Binary.run(["release", id], store: folder.store, home: folder.path)
    // It names the process holding the role (read from the kernel's lock table).
    #expect(
      text.stderr
        == "verdicts: this handle only reads: another process holds the writer role: pid \(holder.process.processIdentifier) (verdicts)\n"
    )
    // Reading goes on while the other process writes.
    let queue = try Binary.run(["--json", "queue"], store: folder.store, home: folder.path)
    #expect(queue.code == 0)
    #expect(queue.json?.arrayValue?.count == 1)
    // And once the holder is gone, the next process is the writer again.
    holder.kill()
    #expect(holder.wait(timeout: 10))
    let released = try Binary.run(["--json", "release", id], store: folder.store, home: folder.path)
    #expect(released.code == 0, "\(released)")
    #expect(released.json == .number(0))
  }

  /// A write printed as queued survives `kill -9` of the process that queued it.
  @Test func aQueuedWriteSurvivesKill9() throws {
    let folder = TempFolder()
    let env = Binary.environment(
      store: folder.store, home: folder.path, ["VERDICTS_TEST_LINGER_SECONDS": "60"])
    let process = try Spawned(
      ["--json", "items", "create", "--type", "note", "--properties", "{\"title\":\"keep me\"}"], environment: env)
    #expect(process.waitForLine(timeout: 20), "nothing printed: \(process.stderr)")
    #expect(process.process.isRunning, "the process ended before it could be killed")
    process.kill()
    #expect(process.wait(timeout: 10))
    #expect(process.process.terminationReason == .uncaughtSignal)
    let printed = try #require(JSONValue.parse(process.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    let r = try Binary.run(["--json", "queue"], store: folder.store, home: folder.path)
    let writes = try #require(r.json?.arrayValue, "\(r)")
    #expect(writes == [printed])
    #expect(writes.first?["idempotency_key"] == printed["idempotency_key"])
  }
}
