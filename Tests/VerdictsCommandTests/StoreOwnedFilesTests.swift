import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Through the built binary: the files a store owns (its blob folder and
/// blobs, its lock, its log and index) are opened as its own, never through a symbolic link; a
/// blob is checked against its hash before it is queued over or sent; a lock file of another
/// owner is refused; a store others can write is warned about.
@Suite(.serialized) struct StoreOwnedFilesTests {
  /// A folder with a store holding one write, a secret file and a file to upload.
  struct Planting {
    let t = TempFolder()
    var store: String { t.store }
    var secret: String { t.file("secret.txt") }
    var upload: String { t.file("up.txt") }
    static let secretText = "SECRET-LINE-4242\n"

    init() throws {
      #expect(FileManager.default.createFile(atPath: secret, contents: Data(Self.secretText.utf8)))
      #expect(FileManager.default.createFile(atPath: upload, contents: Data("the bytes to upload\n".utf8)))
      let created = try Binary.run(
        ["--json", "items", "create", "--type", "t", "--properties", "{}"], store: store, home: t.path)
      #expect(created.code == 0, "\(created)")
    }

    /// The SHA-256 of `file`, as `blobs put` names it (put in a store of its own).
    /// The hex digits of the bytes' name (`sha256:<hex>`), which name their file beside the store.
    func hash(of file: String) throws -> String {
      let scratch = t.file("scratch-\(UUID().uuidString).store")
      let put = try Binary.run(["--json", "blobs", "put", file], store: scratch, home: t.path)
      let name = try #require(put.json?["blob"]?.stringValue, "\(put)")
      #expect(name.hasPrefix("sha256:"))
      return String(name.dropFirst("sha256:".count))
    }

    /// The queue's writes.
    func writes() throws -> [JSONValue] {
      try #require(try Binary.run(["--json", "queue"], store: store, home: t.path).json?.arrayValue)
    }

    /// What is at `path`, not followed: its type and bytes (a link's target).
    func contents(_ path: String) -> String {
      if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) { return "link → \(target)" }
      return FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? "nothing"
    }
  }

  @Test func aLinkToASecretPlantedWhereTheBlobGoesIsRefusedAndNothingIsQueued() throws {
    let p = try Planting()
    let hash = try p.hash(of: p.upload)
    try FileManager.default.createDirectory(atPath: p.store + ".blobs", withIntermediateDirectories: false)
    #expect(symlink(p.secret, p.store + ".blobs/" + hash) == 0)
    let put = try Binary.run(["--json", "blobs", "put", p.upload], store: p.store, home: p.t.path)
    #expect(put.code == 3, "\(put)")
    #expect(put.errorCode == "store", "\(put)")
    let message = put.envelope?["error"]?["message"]?.stringValue ?? ""
    #expect(
      message.contains(hash) && message.contains("symbolic link") && message.contains("nothing was queued"),
      "\(message)")
    #expect(put.stdout.isEmpty)
    #expect(try p.writes().count == 1)
    #expect(p.contents(p.store + ".blobs/" + hash) == "link → \(p.secret)")
    #expect(p.contents(p.secret) == Planting.secretText)
  }

  @Test func otherBytesPlantedWhereTheBlobGoesAreNotQueuedOver() throws {
    let p = try Planting()
    let hash = try p.hash(of: p.upload)
    try FileManager.default.createDirectory(atPath: p.store + ".blobs", withIntermediateDirectories: false)
    #expect(FileManager.default.createFile(atPath: p.store + ".blobs/" + hash, contents: Data("planted\n".utf8)))
    let put = try Binary.run(["blobs", "put", p.upload], store: p.store, home: p.t.path)
    #expect(put.code == 3, "\(put)")
    #expect(put.stderr.contains("is already there and is not these bytes"), "\(put)")
    #expect(put.stderr.contains("8 bytes hash to") && put.stderr.contains("nothing was queued"), "\(put)")
    #expect(try p.writes().count == 1)
    #expect(p.contents(p.store + ".blobs/" + hash) == "planted\n")
    // The same bytes under their name are taken as they are.
    try FileManager.default.removeItem(atPath: p.store + ".blobs/" + hash)
    try FileManager.default.copyItem(atPath: p.upload, toPath: p.store + ".blobs/" + hash)
    let again = try Binary.run(["--json", "blobs", "put", p.upload], store: p.store, home: p.t.path)
    #expect(again.code == 0, "\(again)")
    #expect(try p.writes().count == 2)
  }

  @Test func aBlobFolderThatIsALinkIsRefusedAndNothingIsMadeWhereItPoints() throws {
    let p = try Planting()
    let elsewhere = p.t.file("elsewhere")
    try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
    #expect(symlink(elsewhere, p.store + ".blobs") == 0)
    let put = try Binary.run(["blobs", "put", p.upload], store: p.store, home: p.t.path)
    #expect(put.code == 3, "\(put)")
    #expect(put.stderr.contains("blob folder") && put.stderr.contains("symbolic link"), "\(put)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    #expect(try p.writes().count == 1)
  }

  @Test func aBlobReplacedAfterItWasQueuedIsRefusedUnsentSayingWhyAndNothingIsPosted() async throws {
    let p = try Planting()
    let instance = ScriptedInstance(scenario: Scenario(name: "t", rules: []))
    let url = try instance.start()
    defer { instance.stop() }
    let env = ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": "k1"]
    #expect(try await Binary.runOff(["fill"], store: p.store, home: p.t.path, environment: env).code == 0)
    // Three uploads queued as they should be, then each blob swapped under the store.
    var queued: [(id: String, hash: String)] = []
    for n in 1...3 {
      let file = p.t.file("up\(n).txt")
      #expect(FileManager.default.createFile(atPath: file, contents: Data("upload number \(n)\n".utf8)))
      let put = try await Binary.runOff(["--json", "blobs", "put", file], store: p.store, home: p.t.path)
      let id = try #require(put.json?["id"]?.stringValue, "\(put)")
      queued.append((id, try #require(put.json?["blob"]?.stringValue)))
    }
    let blobs = p.store + ".blobs/"
    // Each upload names its bytes `sha256:<hex>`; their file beside the store is named by the hex.
    func file(_ name: String) -> String { blobs + String(name.dropFirst("sha256:".count)) }
    try FileManager.default.removeItem(atPath: file(queued[0].hash))
    #expect(symlink(p.secret, file(queued[0].hash)) == 0)
    #expect(
      FileManager.default.createFile(atPath: file(queued[1].hash), contents: Data("upload number 9\n".utf8)))
    try FileManager.default.removeItem(atPath: file(queued[2].hash))
    instance.clearRequests()
    let drain = try await Binary.runOff(["--json", "drain"], store: p.store, home: p.t.path, environment: env)
    #expect(drain.json?["unsent"] == .int(3), "\(drain)")
    #expect(!instance.requests.contains { $0.path == "/blobs" }, "an upload was sent")
    #expect(!instance.requests.contains { $0.bodyText.contains("SECRET-LINE") }, "the secret was sent")
    let writes = try p.writes()
    func reason(_ id: String) -> String {
      writes.first { $0["id"]?.stringValue == id }?["reason"]?.stringValue ?? "none"
    }
    for (id, _) in queued {
      #expect(writes.first { $0["id"]?.stringValue == id }?["verdict"]?.stringValue == "refused", "\(writes)")
    }
    #expect(reason(queued[0].id).contains("are not the bytes queued (it is a symbolic link to \(p.secret)"))
    #expect(reason(queued[1].id).contains("are not the bytes queued (its 16 bytes hash to "))
    #expect(reason(queued[1].id).contains("put the file again, then release this write"))
    #expect(reason(queued[2].id) == "the bytes of \(queued[2].hash) are no longer held beside the working copy")
    // `show` says why, as the drain's own refusal.
    let show = try await Binary.runOff(["show", queued[0].id], store: p.store, home: p.t.path)
    #expect(show.stdout.contains("are not the bytes queued"), "\(show)")
    #expect(p.contents(p.secret) == Planting.secretText)
    // Once the right bytes are back, the write is released and sent: those bytes, once.
    try FileManager.default.removeItem(atPath: file(queued[0].hash))
    try FileManager.default.copyItem(atPath: p.t.file("up1.txt"), toPath: file(queued[0].hash))
    let release = try await Binary.runOff(["--json", "release", queued[0].id], store: p.store, home: p.t.path)
    #expect(release.json == .int(1), "\(release)")
    let again = try await Binary.runOff(["--json", "drain"], store: p.store, home: p.t.path, environment: env)
    #expect(again.json?["answered"] == .int(1), "\(again)")
    let sent = instance.requests.filter { $0.path == "/blobs" }
    #expect(sent.count == 1 && sent.first?.bodyText == "upload number 1\n", "\(sent.map(\.bodyText))")
  }

  @Test func aLockFilePlantedAsALinkIsNeverFollowedNorCreatedThrough() throws {
    let p = try Planting()
    let elsewhere = p.t.file("elsewhere")
    try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
    try FileManager.default.removeItem(atPath: p.store + ".lock")
    #expect(symlink(elsewhere + "/planted", p.store + ".lock") == 0)
    let create = try Binary.run(
      ["--json", "items", "create", "--type", "t", "--properties", "{}"], store: p.store, home: p.t.path)
    #expect(create.code == 3, "\(create)")
    #expect(create.errorCode == "store", "\(create)")
    let message = create.envelope?["error"]?["message"]?.stringValue ?? ""
    #expect(message.contains(p.store + ".lock") && message.contains("symbolic link"), "\(message)")
    #expect(!p.t.exists(elsewhere + "/planted"), "the lock was created through the link")
    #expect(try p.writes().count == 1)
    // Reading goes on, and says why it only reads.
    let status = try Binary.run(["--json", "status"], store: p.store, home: p.t.path)
    #expect(status.code == 0 && status.json?["handle"]?.stringValue == "reader", "\(status)")
    // A store not made yet is not made beside a planted lock either.
    let fresh = p.t.file("fresh.store")
    #expect(symlink(elsewhere + "/planted2", fresh + ".lock") == 0)
    let made = try Binary.run(["items", "create", "--type", "t", "--properties", "{}"], store: fresh, home: p.t.path)
    #expect(made.code == 3, "\(made)")
    #expect(made.stderr.contains("symbolic link"), "\(made)")
    #expect(!p.t.exists(fresh) && !p.t.exists(elsewhere + "/planted2"))
  }

  @Test(.enabled(if: geteuid() == 0, "needs root to give the lock file to another user"))
  func aLockFileOfAnotherOwnerIsRefusedWithExitThreeNamingIt() throws {
    let p = try Planting()
    let lock = p.store + ".lock"
    #expect(chown(lock, 4242, 4242) == 0)
    #expect(chmod(lock, 0o666) == 0)
    for line in [["items", "create", "--type", "t", "--properties", "{}"], ["tags", "add", "i", "t"]] {
      let r = try Binary.run(["--json"] + line, store: p.store, home: p.t.path)
      #expect(r.code == 3, "\(line): \(r)")
      #expect(r.errorCode == "store", "\(line): \(r)")
      let message = r.envelope?["error"]?["message"]?.stringValue ?? ""
      #expect(message.contains(lock) && message.contains("belongs to another user (uid 4242)"), "\(message)")
    }
    #expect(try p.writes().count == 1)
    var st = stat()
    #expect(stat(lock, &st) == 0 && st.st_uid == 4242 && st.st_mode & 0o777 == 0o666)
  }

  @Test func aStoreWhoseFolderOrLockOthersCanWriteIsWarnedAboutOnce() throws {
    let t = TempFolder()
    let folder = t.file("open")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    let store = folder + "/s.store"
    #expect(chmod(folder, 0o777) == 0)
    let create = try Binary.run(["items", "create", "--type", "t", "--properties", "{}"], store: store, home: t.path)
    #expect(create.code == 0, "\(create)")
    let warnings = create.stderr.split(separator: "\n").filter { $0.hasPrefix("verdicts: warning: ") }
    #expect(
      warnings == [
        "verdicts: warning: the store's folder \(folder) can be written by other users (mode 0777, no sticky bit): they could replace the store or plant links beside it; make it private (chmod 700 \(folder))"
      ], "\(create)")
    let json = try Binary.run(["--json", "status"], store: store, home: t.path)
    #expect(json.code == 0)
    let lines = json.stderr.split(separator: "\n").compactMap { JSONValue.parse(String($0)) }
    #expect(lines.count == 1 && lines.first?["warning"]?["code"]?.stringValue == "store_open_to_others", "\(json)")
    // A sticky folder (like /tmp) lets no one replace the store's files: no warning.
    #expect(chmod(folder, 0o1777) == 0)
    #expect(try Binary.run(["status"], store: store, home: t.path).stderr.isEmpty)
    // A lock file others can write.
    #expect(chmod(folder, 0o700) == 0)
    #expect(chmod(store + ".lock", 0o666) == 0)
    let lock = try Binary.run(["queue"], store: store, home: t.path)
    #expect(
      lock.stderr
        == "verdicts: warning: the lock beside the store \(store).lock can be written by other users (mode 0666); make it private (chmod go-w \(store).lock)\n",
      "\(lock)")
    // A folder writable by a group that is not the user's own.
    #expect(chmod(store + ".lock", 0o600) == 0)
    if geteuid() == 0 {
      #expect(chown(folder, 0, 4242) == 0)
      #expect(chmod(folder, 0o770) == 0)
      let group = try Binary.run(["status"], store: store, home: t.path)
      #expect(group.stderr.contains("can be written by other users (mode 0770, group 4242)"), "\(group)")
    }
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1)"))
  func theTUISaysAStoreOthersCanWriteOnItsStatusLine() async throws {
    let t = TempFolder()
    let folder = t.file("open")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    let store = folder + "/s.store"
    let created = try await Binary.runOff(
      ["items", "create", "--type", "t", "--properties", "{}"], store: store, home: t.path)
    #expect(created.code == 0, "\(created)")
    #expect(chmod(folder, 0o777) == 0)
    let home = t.path
    for arguments in [[String](), ["watch"]] {
      let run = try await offPool {
        try DiskFaultBinaryTests.runTUI(arguments, store: store, home: home, seconds: 2)
      }
      #expect(run.code == 0, "\(arguments): exit \(run.code)")
      #expect(run.screen.contains("can be written by other users"), "\(arguments): \(run.screen.suffix(1500))")
    }
  }

  @Test func aLinkPlantedAsTheStoresLogOrIndexIsRefusedAndNotFollowed() throws {
    let p = try Planting()
    #expect(symlink(p.secret, p.store + "-wal") == 0)
    let queue = try Binary.run(["--json", "queue"], store: p.store, home: p.t.path)
    #expect(queue.code == 3, "\(queue)")
    #expect(queue.errorCode == "store", "\(queue)")
    let message = queue.envelope?["error"]?["message"]?.stringValue ?? ""
    #expect(message.contains(p.store + "-wal") && message.contains("symbolic link"), "\(message)")
    #expect(p.contents(p.secret) == Planting.secretText)
    try FileManager.default.removeItem(atPath: p.store + "-wal")
    let target = p.t.file("made-through-shm")
    #expect(symlink(target, p.store + "-shm") == 0)
    let create = try Binary.run(
      ["items", "create", "--type", "t", "--properties", "{}"], store: p.store, home: p.t.path)
    #expect(create.code == 3, "\(create)")
    #expect(create.stderr.contains("-shm beside it is a symbolic link"), "\(create)")
    #expect(!p.t.exists(target))
    try FileManager.default.removeItem(atPath: p.store + "-shm")
    #expect(try p.writes().count == 1)
  }
}
