import Foundation
import MarfaQueue
import TestSupport
import Testing

@testable import VerdictsCommand

/// The command tree run in-process against a temporary store.
@Suite struct CommandTests {
  @Test func everyKindIsQueuedAndReadBackAsJSON() async throws {
    let folder = TempFolder()
    let blob = folder.file("photo.png")
    try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: blob))
    var printed: [JSONValue] = []
    for (kind, line) in EveryKind.lines(blobFile: blob) {
      let r = await runInProcess(["--json"] + line, store: folder.store)
      #expect(r.code == 0, "\(line): \(r)")
      let json = try #require(r.json, "\(line) printed no JSON: \(r)")
      #expect(json["kind"]?.stringValue == kind.wireName)
      #expect(r.stderr.isEmpty)
      printed.append(json)
    }
    let listed = await runInProcess(["queue", "--json"], store: folder.store)
    #expect(listed.code == 0)
    let writes = try #require(listed.json?.arrayValue)
    #expect(writes.count == WriteKind.allCases.count)
    #expect(Set(writes.compactMap { $0["kind"]?.stringValue }) == Set(WriteKind.allCases.map(\.wireName)))
    // What `queue` reads back is exactly what each command printed when it queued the write.
    #expect(writes == printed)
    let create = writes[0]
    #expect(create["body"]?["properties"]?["title"]?.stringValue == "first")
    #expect(create["item_id"]?.stringValue == "a1")
    let update = writes[1]
    #expect(update["base_version"]?.intValue == 0)
    #expect(update["depends_on"]?.arrayValue?.first?.stringValue == create["id"]?.stringValue)
    let upload = writes[14]
    #expect(upload["body"]?["mime_type"]?.stringValue == "image/png")
    // The bytes' name and type, and nothing else.
    #expect(upload["body"]?.objectValue?.map(\.0) == ["hash", "mime_type"])
    #expect(upload["body"]?["hash"]?.stringValue == upload["blob"]?.stringValue)
    // Every field the contract names (1.2) is there, plus this project's.
    for field in [
      "id", "kind", "item_id", "target_id", "edge_id", "namespace", "tag", "blob", "base_version", "idempotency_key",
      "depends_on", "follows", "verdict", "reason", "answer", "refusal", "body", "conflicted_copy_id", "refusals",
      "queued_at", "answered_at", "waiting", "last_failure", "environmental_streak", "instance_id",
    ] {
      #expect(create[field] != nil, "queue --json lacks \(field)")
    }
  }

  @Test func queueFiltersByKindAndPane() async throws {
    let folder = TempFolder()
    _ = await runInProcess(["items", "create", "--type", "t", "--properties", "{}", "--id", "i"], store: folder.store)
    _ = await runInProcess(["tags", "add", "i", "x"], store: folder.store)
    let tags = await runInProcess(["--json", "queue", "--kind", "add_tag"], store: folder.store)
    #expect(tags.json?.arrayValue?.count == 1)
    let waiting = await runInProcess(["--json", "queue", "--pane", "waiting"], store: folder.store)
    #expect(waiting.json?.arrayValue?.count == 2)
    let dead = await runInProcess(["--json", "queue", "--pane", "dead"], store: folder.store)
    #expect(dead.json?.arrayValue?.count == 0)
  }

  @Test func textOutputIsATableAndSentences() async throws {
    let folder = TempFolder()
    let created = await runInProcess(
      ["items", "create", "--type", "t", "--properties", "{}", "--id", "i"], store: folder.store)
    #expect(created.stdout.hasPrefix("queued create_item "))
    #expect(created.stdout.hasSuffix(" for i\n"))
    let tagged = await runInProcess(["tags", "add", "i", "x"], store: folder.store)
    #expect(tagged.stdout.contains(", waiting on "))
    let table = await runInProcess(["queue"], store: folder.store)
    let lines = table.stdout.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[0].hasPrefix("ID"))
    #expect(lines[0].contains("LAST FAILURE"))
    #expect(lines[2].contains("add_tag"))
    #expect(lines[2].contains("i #x"))
    let empty = TempFolder()
    _ = await runInProcess(["items", "create", "--type", "t", "--properties", "{}"], store: empty.store)
    _ = await runInProcess(["take-answered"], store: empty.store)
    let status = await runInProcess(["status"], store: folder.store)
    #expect(status.stdout.contains("2 waiting, 0 answered, 0 blocked, 0 dead"))
    #expect(status.stdout.contains("fill        never"))
  }

  @Test func statusAsJSON() async throws {
    let folder = TempFolder()
    _ = await runInProcess(["items", "create", "--type", "t", "--properties", "{}"], store: folder.store)
    let r = await runInProcess(["status", "--json"], store: folder.store)
    #expect(r.code == 0)
    let json = try #require(r.json)
    #expect(json["store"]?.stringValue == folder.store)
    #expect(json["handle"]?.stringValue == "writer")
    #expect(json["fill"]?.stringValue == "never")
    #expect(json["counts"]?["waiting"]?.intValue == 1)
    #expect(json["counts"]?["total"]?.intValue == 1)
    #expect(json["last_drain"] == .null)
  }

  @Test func queueCallsOnAQueueWithoutVerdicts() async throws {
    let folder = TempFolder()
    let created = await runInProcess(
      ["--json", "items", "create", "--type", "t", "--properties", "{}"], store: folder.store)
    let id = try #require(created.json?["id"]?.stringValue)
    let cases: [([String], JSONValue)] = [
      (["release", id], .number(0)),
      (["release", "--reason", "key_spent"], .number(0)),
      (["discard", id], .bool(false)),
      (["withdraw", id], .bool(false)),
      (["forget"], .number(0)),
      (["forget", id], .number(0)),
      (["take-answered"], .array([])),
    ]
    for (line, expected) in cases {
      let r = await runInProcess(["--json"] + line, store: folder.store)
      #expect(r.code == 0, "\(line): \(r)")
      #expect(r.json == expected, "\(line): \(r)")
    }
    let texts: [([String], String)] = [
      (["release", id], "nothing released"),
      (["discard", id], "only a refused write is discarded"),
      (["withdraw", id], "can be withdrawn"),
      (
        ["forget", id],
        "forgot 0 answered write(s)\nkept \(id): it is not yet answered; only an answered write can be forgotten"
      ),
      (["take-answered"], "no answered write could be taken"),
    ]
    for (line, expected) in texts {
      let r = await runInProcess(line, store: folder.store)
      #expect(r.code == 0)
      #expect(r.stdout.contains(expected), "\(line): \(r)")
    }
    let after = await runInProcess(["--json", "queue"], store: folder.store)
    #expect(after.json?.arrayValue?.count == 1)
  }

  /// Commands that neither queue nor fill refuse a missing store, and create nothing.
  @Test(arguments: [
    ["queue"], ["status"], ["drain"], ["release", "w"], ["release", "--reason", "key_spent"], ["withdraw", "w"],
    ["discard", "w"], ["forget"], ["forget", "w"], ["take-answered"], ["catch-up"], ["hold", "--seconds", "0"],
  ])
  func aMissingStoreIsRefused(_ line: [String]) async throws {
    let folder = TempFolder()
    let r = await runInProcess(["--json"] + line, store: folder.store)
    #expect(r.code == 2, "\(r)")
    #expect(r.errorCode == "no_store")
    #expect(r.stdout.isEmpty)
    #expect(!folder.exists(folder.store))
    let text = await runInProcess(line, store: folder.store)
    #expect(
      text.stderr
        == "verdicts: no store at \(folder.store); `verdicts demo` shows the tour on a scripted instance, "
        + "`verdicts fill --url URL` makes one from an instance\n")
  }

  @Test func writeCommandsCreateAMissingStoreOwnerOnly() async throws {
    let folder = TempFolder()
    let store = folder.file("deeper/still/queue.store")
    let r = await runInProcess(["tags", "add", "i", "t"], store: store)
    #expect(r.code == 0, "\(r)")
    let attributes = try FileManager.default.attributesOfItem(atPath: store)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
  }

  @Test func fillWithoutAnInstanceCreatesNothing() async throws {
    let folder = TempFolder()
    let r = await runInProcess(["--json", "fill"], store: folder.store)
    #expect(r.code == 2)
    #expect(r.errorCode == "no_server")
    #expect(!folder.exists(folder.store))
    let bad = await runInProcess(["--json", "fill", "--url", "ftp://x"], store: folder.store)
    #expect(bad.code == 2)
    #expect(bad.errorCode == "usage")
    #expect(!folder.exists(folder.store))
  }

  @Test func anUpdateOfARowTheCopyLacksIsRefusedWithoutMakingAStore() async throws {
    let folder = TempFolder()
    let r = await runInProcess(["--json", "items", "update", "nope", "--properties", "{}"], store: folder.store)
    #expect(r.code == 4)
    #expect(r.errorCode == "invalid")
    #expect(r.envelope?["error"]?["message"]?.stringValue?.contains("--version") == true)
    #expect(!folder.exists(folder.store))
    // With a version named, the same update is queued.
    let named = await runInProcess(
      ["--json", "items", "update", "nope", "--properties", "{}", "--version", "4"], store: folder.store)
    #expect(named.code == 0)
    #expect(named.json?["base_version"]?.intValue == 4)
  }

  @Test(arguments: [["release"], ["withdraw"], ["discard"], ["forget"]])
  func anIdTheQueueDoesNotHoldIsNotFound(_ command: [String]) async throws {
    let folder = TempFolder()
    _ = await runInProcess(["items", "create", "--type", "t", "--properties", "{}"], store: folder.store)
    let r = await runInProcess(["--json"] + command + ["no-such-write"], store: folder.store)
    #expect(r.code == 4, "\(r)")
    #expect(r.errorCode == "not_found")
    #expect(r.envelope?["error"]?["message"]?.stringValue == "the queue holds no write no-such-write")
    #expect(r.envelope?["exit"]?.intValue == 4)
    #expect(r.envelope?["error"]?["server"] == .null)
  }

  @Test func aSecondOpenerIsAReaderAndItsActionsAreRefused() async throws {
    let folder = TempFolder()
    let created = await runInProcess(
      ["--json", "items", "create", "--type", "t", "--properties", "{}"], store: folder.store)
    let id = try #require(created.json?["id"]?.stringValue)
    let writer = try await WorkingCopy.open(store: URL(fileURLWithPath: folder.store), server: nil, create: false)
    defer { writer.close() }
    #expect(writer.handle == .writer)
    for line in [
      ["release", id], ["discard", id], ["withdraw", id], ["forget"], ["take-answered"], ["drain"],
      ["tags", "add", "i", "t"], ["hold", "--seconds", "0"],
    ] {
      let r = await runInProcess(["--json"] + line, store: folder.store, settle: false)
      #expect(r.code == 4, "\(line): \(r)")
      #expect(r.errorCode == "reading_handle", "\(line): \(r)")
    }
    // Reading still works, and says who writes.
    let queue = await runInProcess(["--json", "queue"], store: folder.store, settle: false)
    #expect(queue.json?.arrayValue?.count == 1)
    let status = await runInProcess(["--json", "status"], store: folder.store, settle: false)
    #expect(status.json?["handle"]?.stringValue == "reader")
    #expect(status.json?["handle_reason"]?.stringValue == "another process holds the writer role")
  }

  @Test func aForeignOrCorruptFileIsRefusedAndLeftAlone() async throws {
    let folder = TempFolder()
    #expect(FileManager.default.createFile(atPath: folder.store, contents: Data()))
    let empty = await runInProcess(["--json", "queue"], store: folder.store)
    #expect(empty.code == 4)
    #expect(empty.errorCode == "wrong_schema")
    let garbage = Data("this is not a database, it is a shopping list\n".utf8) + Data(repeating: 0x41, count: 4096)
    #expect(FileManager.default.createFile(atPath: folder.store, contents: garbage))
    for line in [["queue"], ["items", "create", "--type", "t", "--properties", "{}"]] {
      let r = await runInProcess(["--json"] + line, store: folder.store)
      #expect(r.code == 3, "\(r)")
      #expect(r.errorCode == "store")
    }
    #expect(FileManager.default.contents(atPath: folder.store) == garbage)
  }

  /// Bad input is refused with a clear error, and the store's bytes and queue do not change.
  @Test(arguments: [
    (["items", "create", "--type", "t", "--properties", "{bad"], "usage", Int32(2)),
    (["items", "create", "--type", "t", "--properties", "[]"], "usage", 2),
    (["items", "create", "--type", "t"], "usage", 2),
    (["items", "create", "--type", "t", "--properties", "{}", "--bogus"], "usage", 2),
    (["items", "update", "i", "--properties", "{}", "--version", "x"], "usage", 2),
    (["items", "transition", "i", "--state", "gone"], "usage", 2),
    (["release", "--reason", "bored"], "usage", 2),
    (["queue", "--kind", "make_item"], "usage", 2),
    (["edges", "create", "--source", "a", "--target"], "usage", 2),
    (["extensions", "write", "i", "ns", "--body", "{\"a\":}"], "usage", 2),
    (["blobs", "put", "/no/such/file"], "usage", 2),
    (["frobnicate"], "usage", 2),
    (["release", "no-such-write"], "not_found", 4),
    (["discard", "no-such-write"], "not_found", 4),
    (["withdraw", "no-such-write"], "not_found", 4),
    (["forget", "no-such-write"], "not_found", 4),
    (["items", "update", "not-in-copy", "--properties", "{}"], "invalid", 4),
    (["edges", "delete", " "], "usage", 2),
  ])
  func badInputChangesNothing(_ line: [String], code: String, exit: Int32) async throws {
    let folder = TempFolder()
    _ = await runInProcess(["items", "create", "--type", "t", "--properties", "{}", "--id", "i"], store: folder.store)
    let before = await runInProcess(["--json", "queue"], store: folder.store)
    let bytes = folder.storeBytes()
    let r = await runInProcess(["--json"] + line, store: folder.store)
    #expect(r.code == exit, "\(r)")
    #expect(r.errorCode == code, "\(r)")
    #expect(r.stdout.isEmpty)
    #expect(folder.storeBytes() == bytes)
    let after = await runInProcess(["--json", "queue"], store: folder.store)
    #expect(after.stdout == before.stdout)
    let text = await runInProcess(line, store: folder.store)
    #expect(text.stderr.hasPrefix("verdicts"))
    // One plain sentence; bad JSON adds its line and a caret under the place (docs/cli.md).
    let lines = text.stderr.split(separator: "\n")
    #expect(
      lines.count == 1
        || (lines.count == 3 && lines[0].contains("is not valid JSON at line") && lines[2].hasSuffix("^")),
      "one plain sentence: \(text.stderr)")
  }

  @Test(arguments: [["tui"], [], ["watch"]])
  func theScreenCommandsRefuseToRunWithoutATerminalAndPointToPlainOutput(_ line: [String]) async throws {
    let folder = TempFolder()
    _ = await runInProcess(["items", "create", "--type", "note", "--properties", "{}"], store: folder.store)
    await waitForWriterRoleReleased(folder.store)
    let r = await runInProcess(["--json"] + line, store: folder.store)
    #expect(r.code == 2, "\(r)")
    #expect(r.errorCode == "usage")
    #expect(r.envelope?["error"]?["message"]?.stringValue?.contains("watch --plain") == true)
  }

  @Test func theTUIOnAMissingStoreIsRefusedNoStoreAndCreatesNothing() async throws {
    let folder = TempFolder()
    let r = await runInProcess(["--json", "tui"], store: folder.store)
    #expect(r.errorCode == "no_store")
    #expect(!folder.exists(folder.store))
  }

  @Test func thePlainDemoPrintsLinesAndASummaryNamingEveryBlockedReason() async throws {
    let r = await runInProcess(["demo", "--plain", "--seconds", "1"])
    #expect(r.code == 0, "\(r)")
    #expect(r.stdout.hasPrefix("time id kind rows verdict reason streak status text"))
    let summary = try #require(r.stdout.split(separator: "\n").last { $0.hasPrefix("# summary:") })
    for reason in BlockedReason.allCases { #expect(summary.contains(reason.wireName), "\(reason)") }
    #expect(!r.stdout.contains("\u{1b}"))
    // A line mode has no screen: it never says the tour is on one.
    #expect(!r.stdout.contains("on screen"), "\(r.stdout)")
    #expect(r.stdout.contains("# the tour is done: one write is parked until another key"), "\(r.stdout)")
  }

  /// `demo --store PATH` makes the tour's fresh store at PATH, for a second terminal to watch;
  /// a file already there is refused with a usage error and left as it was.
  @Test func theDemoMakesItsStoreWhereStoreSaysAndNeverOverAFileAlreadyThere() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("demo-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let existing = folder.appendingPathComponent("device.store").path
    let before = Data("not to be written over".utf8)
    try before.write(to: URL(fileURLWithPath: existing))
    let refused = await runInProcess(["demo", "--plain", "--seconds", "1", "--store", existing])
    #expect(refused.code == 2, "\(refused)")
    #expect(refused.stderr.contains("already exists: the demo makes a fresh store"), "\(refused.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: existing)) == before)
    #expect(refused.stdout.isEmpty)

    let fresh = folder.appendingPathComponent("tour.store").path
    let r = await runInProcess(["demo", "--plain", "--seconds", "1", "--store", fresh], store: fresh)
    #expect(r.code == 0, "\(r)")
    let status = await runInProcess(["--json", "status", "--store", fresh])
    #expect(status.code == 0, "\(status)")
    #expect(status.json?["counts"]?["blocked"]?.intValue ?? 0 > 0, "\(status.stdout)")
  }

  @Test func helpAndVersion() async throws {
    for (path, spec) in CommandTable.root.walk() {
      let r = await runInProcess(path + ["--help"])
      #expect(r.code == 0)
      #expect(r.stdout == HelpText.render(path: path))
      #expect(r.stdout.contains("usage: " + (["verdicts"] + path).joined(separator: " ")), "\(spec.name)")
    }
    let version = await runInProcess(["--version"])
    #expect(version.stdout == CommandTable.version + " " + BuildStamp.words + "\n")
    let json = await runInProcess(["--json", "--version"])
    #expect(json.json?["version"]?.stringValue == CommandTable.version)
  }

  @Test func theKeyIsNeverPrintedAndPlainHTTPIsWarnedOf() async throws {
    let folder = TempFolder()
    let secret = "sk_live_SECRET_\(UUID().uuidString)"
    _ = await runInProcess(["items", "create", "--type", "t", "--properties", "{}"], store: folder.store)
    let env = ["MARFA_API_KEY": secret, "MARFA_API_URL": "http://marfa.example.com"]
    for line in [["drain"], ["--json", "drain"], ["status"], ["--json", "status"], ["queue"], ["--json", "queue"]] {
      let r = await runInProcess(line, store: folder.store, environment: env)
      #expect(!r.stdout.contains(secret) && !r.stderr.contains(secret), "\(line) printed the key")
    }
    let plain = await runInProcess(["drain"], store: folder.store, environment: env)
    #expect(plain.stderr.contains("warning: the key goes over plain http to http://marfa.example.com"))
    let json = await runInProcess(["--json", "drain"], store: folder.store, environment: env)
    let first = try #require(json.stderr.split(separator: "\n").first.flatMap { JSONValue.parse(String($0)) })
    #expect(first["warning"]?["code"]?.stringValue == "key_in_clear")
    let loopback = await runInProcess(
      ["drain"], store: folder.store, environment: ["MARFA_API_KEY": secret, "MARFA_API_URL": "http://127.0.0.1:9"])
    #expect(!loopback.stderr.contains("warning"))
    let https = await runInProcess(
      ["drain", "--url", "https://marfa.example.com"], store: folder.store, environment: ["MARFA_API_KEY": secret])
    #expect(!https.stderr.contains("warning"))
    let noKey = await runInProcess(["drain", "--url", "http://marfa.example.com"], store: folder.store)
    #expect(!noKey.stderr.contains("warning"))
  }

  @Test func onlyCommandsThatTalkToTheInstanceReadItsURL() async throws {
    let folder = TempFolder()
    let env = ["MARFA_API_URL": "localhost:8080"]
    let queued = await runInProcess(["--json", "tags", "add", "i", "t"], store: folder.store, environment: env)
    #expect(queued.code == 0, "\(queued)")
    let status = await runInProcess(["--json", "status"], store: folder.store, environment: env)
    #expect(status.code == 0)
    let drain = await runInProcess(["--json", "drain"], store: folder.store, environment: env)
    #expect(drain.code == 2)
    #expect(drain.errorCode == "usage")
    #expect(drain.envelope?["error"]?["message"]?.stringValue?.contains("'localhost:8080'") == true)
  }

  @Test func theStoreComesFromTheFlagThenTheEnvironmentThenXDG() {
    func resolve(_ line: [String], _ env: [String: String]) -> String {
      guard case .run(_, let parsed) = CommandTable.parser.parse(line) else { return "" }
      return GlobalOptions(parsed, environment: env).storePath
    }
    #expect(resolve(["--store", "/a", "queue"], ["MARFA_DB": "/b"]) == "/a")
    #expect(resolve(["queue"], ["MARFA_DB": "/b", "XDG_STATE_HOME": "/x"]) == "/b")
    #expect(resolve(["queue"], ["MARFA_DB": "", "XDG_STATE_HOME": "/x"]) == "/x/verdicts/queue.store")
    #expect(resolve(["queue"], ["HOME": "/home/u"]) == "/home/u/.local/state/verdicts/queue.store")
    #expect(
      resolve(["queue"], ["HOME": "/home/u", "XDG_STATE_HOME": "relative"])
        == "/home/u/.local/state/verdicts/queue.store")
    #expect(resolve(["queue", "--store", "~/q.store"], ["HOME": "/home/u"]) == "/home/u/q.store")
  }

  @Test func noColorComesFromTheFlagOrANonEmptyNO_COLOR() {
    func noColor(_ line: [String], _ env: [String: String]) -> Bool {
      guard case .run(_, let parsed) = CommandTable.parser.parse(line) else { return false }
      return GlobalOptions(parsed, environment: env).noColor
    }
    #expect(noColor(["--no-color", "queue"], [:]))
    #expect(noColor(["queue"], ["NO_COLOR": "1"]))
    #expect(!noColor(["queue"], ["NO_COLOR": ""]))
  }
}
