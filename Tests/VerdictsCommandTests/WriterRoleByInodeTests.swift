import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Through the built binary: the writer role is taken on the store file itself
/// (its device and inode), so every other name of a held store (a symbolic link, a hard link, a
/// relative path, `./`, `//`, `..`, a bind mount) opens as a reader.
@Suite(.serialized) struct WriterRoleByInodeTests {
  /// A store with one write, held by `verdicts hold` until the returned process is killed (its own
  /// limit, 600 s, far past the test: the whole suite once took 71 s and a 60 s hold ran out).
  static func heldStore(_ t: TempFolder, name: String = "A.store") throws -> (store: String, holder: Spawned) {
    let store = t.file(name)
    let created = try Binary.run(
      ["--json", "items", "create", "--type", "t", "--properties", "{}"], store: store, home: t.path)
    #expect(created.code == 0, "\(created)")
    let holder = try Spawned(
      ["--json", "hold", "--seconds", "600"], environment: Binary.environment(store: store, home: t.path, [:]))
    #expect(holder.waitForLine(timeout: 20), "hold printed nothing: \(holder.stderr)")
    return (store, holder)
  }

  /// What every other name of the held store must do: `status` says the role is taken, a
  /// queueing command is refused `reading_handle` (exit 4), and nothing is queued.
  static func expectReader(_ name: String, home: String, directory: String? = nil, holder: Int32, byPid: Bool) throws {
    let status = try Binary.run(["--json", "status"], store: name, home: home, directory: directory)
    #expect(status.code == 0, "\(name): \(status)")
    #expect(status.json?["handle"]?.stringValue == "reader", "\(name): \(status)")
    let reason = status.json?["handle_reason"]?.stringValue ?? ""
    #expect(reason.contains("another process holds the writer role"), "\(name): \(reason)")
    if byPid { #expect(reason.contains("pid \(holder)"), "\(name): \(reason)") }
    let text = try Binary.run(["status"], store: name, home: home, directory: directory)
    #expect(!text.stdout.contains("free (this process could write)"), "\(name): \(text)")
    let create = try Binary.run(
      ["--json", "items", "create", "--type", "t", "--properties", "{}"], store: name, home: home,
      directory: directory)
    #expect(create.code == 4, "\(name): \(create)")
    #expect(create.errorCode == "reading_handle", "\(name): \(create)")
    let queue = try Binary.run(["--json", "queue"], store: name, home: home, directory: directory)
    #expect(queue.json?.arrayValue?.count == 1, "\(name): \(queue)")
  }

  @Test func aSymlinkAHardLinkAndEveryRelativeSpellingOfAHeldStoreAreReaders() throws {
    let t = TempFolder()
    let (store, holder) = try Self.heldStore(t)
    defer {
      holder.kill()
      _ = holder.wait(timeout: 10)
    }
    let pid = holder.process.processIdentifier
    #expect(symlink("A.store", t.file("L.store")) == 0)
    #expect(link(store, t.file("H.store")) == 0)
    try FileManager.default.createDirectory(atPath: t.file("sub"), withIntermediateDirectories: true)
    // The lock file beside the resolved path is the holder's: its pid is named.
    for name in [t.file("L.store"), t.path + "//A.store", t.path + "/./A.store", t.file("sub") + "/../A.store"] {
      try Self.expectReader(name, home: t.path, holder: pid, byPid: true)
    }
    for name in ["A.store", "./A.store", "L.store", "sub/../L.store"] {
      try Self.expectReader(name, home: t.path, directory: t.path, holder: pid, byPid: true)
    }
    // A hard link has its own name beside it; the store file's own lock still meets the holder.
    try Self.expectReader(t.file("H.store"), home: t.path, holder: pid, byPid: false)
    #expect(!t.exists(t.file("L.store.lock")), "a lock was made beside the link, not beside the store")
    // And once the holder is gone, a name of the store is the writer again.
    holder.kill()
    #expect(holder.wait(timeout: 10))
    let again = try Binary.run(
      ["--json", "items", "create", "--type", "t", "--properties", "{}"], store: t.file("H.store"), home: t.path)
    #expect(again.code == 0, "\(again)")
  }

  /// The holder's record itself may not be seen through a hard link (SQLite keeps the log
  /// beside the name it was opened by, so what the holder has not checkpointed is in its own);
  /// that a writer lives is (the lock on the file), and that it is gone once it is.
  @Test func aWatcherThroughAHardLinkSeesThatAWriterLivesAndWhenItIsGone() async throws {
    let t = TempFolder()
    let (_, holder) = try Self.heldStore(t)
    defer {
      holder.kill()
      _ = holder.wait(timeout: 10)
    }
    #expect(link(t.file("A.store"), t.file("H.store")) == 0)
    let reader = try await WorkingCopy.openReader(store: URL(fileURLWithPath: t.file("H.store")))
    defer { reader.close() }
    let record = try await reader.writer()
    #expect(record?.state == .live, "\(String(describing: record))")
    let status = try await reader.status()
    #expect(status.writer?.state == .live, "\(String(describing: status.writer))")
    holder.kill()
    #expect(holder.wait(timeout: 10))
    let after = try await reader.writer()
    #expect(after == nil || after?.state != .live, "\(String(describing: after))")
  }

  @Test(.enabled(if: FileSystemFaults.canMount, "needs mount (root) for bind mounts"))
  func aBindMountOfAHeldStoreOrOfItsFolderIsAReader() throws {
    let t = TempFolder()
    let (store, holder) = try Self.heldStore(t)
    defer {
      holder.kill()
      _ = holder.wait(timeout: 10)
    }
    let pid = holder.process.processIdentifier
    // The file alone, mounted under another name in another folder.
    let other = t.file("other")
    try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
    let alias = other + "/B.store"
    #expect(FileManager.default.createFile(atPath: alias, contents: nil))
    #expect(Tmpfs.tool(Tmpfs.mountTool, ["--bind", store, alias]))
    defer { FileSystemFaults.unmount(alias) }
    // Its folder, mounted elsewhere.
    let seen = t.file("seen")
    try FileManager.default.createDirectory(atPath: seen, withIntermediateDirectories: true)
    #expect(Tmpfs.tool(Tmpfs.mountTool, ["--bind", t.path, seen]))
    defer { FileSystemFaults.unmount(seen) }
    try Self.expectReader(alias, home: t.path, holder: pid, byPid: false)
    try Self.expectReader(seen + "/A.store", home: t.path, holder: pid, byPid: true)
  }

  @Test func twoDrainsThroughTwoNamesOfOneStoreAreOneDrainAndSendEachWriteOnce() async throws {
    let t = TempFolder()
    let store = t.file("A.store")
    let instance = ScriptedInstance(scenario: Scenario(name: "t", rules: []))
    let url = try instance.start()
    defer { instance.stop() }
    let env = ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": "k1"]
    let fill = try await Binary.runOff(["fill"], store: store, home: t.path, environment: env)
    #expect(fill.code == 0, "\(fill)")
    let copy = try await WorkingCopy.open(store: URL(fileURLWithPath: store), server: nil)
    for _ in 0..<40 { _ = try await copy.createItem(type: "t", properties: .object([])) }
    copy.close()
    #expect(symlink("A.store", t.file("L.store")) == 0)
    #expect(link(store, t.file("H.store")) == 0)
    // 40 writes a quarter of a second apart: the first drain holds the role for ~10 s, however
    // slowly a loaded machine starts the other two.
    instance.writeDelay = 0.25
    let first = try Spawned(["--json", "drain"], environment: Binary.environment(store: store, home: t.path, env))
    defer { first.kill() }
    waitUntil(within: .seconds(20), every: .milliseconds(5)) { instance.requests.contains { $0.method == "POST" } }
    for name in [t.file("L.store"), t.file("H.store")] {
      let second = try await Binary.runOff(["--json", "drain"], store: name, home: t.path, environment: env)
      #expect(second.code == 4, "\(name): \(second)")
      #expect(second.errorCode == "reading_handle", "\(name): \(second)")
    }
    let ended = try await offPool { first.wait(timeout: 60) }
    #expect(ended)
    #expect(first.result().code == 0, "\(first.result())")
    #expect(first.result().json?["answered"] == .int(40), "\(first.result())")
    let posts = instance.requests.filter { $0.method == "POST" && $0.path == "/items" }
    let keys = posts.compactMap(\.idempotencyKey)
    #expect(posts.count == 40 && Set(keys).count == 40, "\(posts.count) creates sent, \(Set(keys).count) keys")
    let status = try await Binary.runOff(["--json", "status"], store: t.file("H.store"), home: t.path)
    #expect(status.json?["last_drain"]?["answered"] == .int(40), "\(status)")
  }
}
