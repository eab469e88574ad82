import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Input that must arrive as given, and only where it is meant, through the built binary: path
/// segments, argument bytes, odd store paths, a race of two creates, ports,
/// scenarios, the writer's pid.
@Suite(.serialized) struct InputBytesBinaryTests {
  @Test func everyDotOrEmptyPathSegmentIsRefusedExitTwoAndNothingIsQueued() async throws {
    let t = TempFolder()
    let created = try await Binary.runOff(
      ["--json", "items", "create", "--type", "note", "--properties", "{}"], store: t.store, home: t.path)
    #expect(created.code == 0, "\(created)")
    let item = try #require(created.json?["item_id"]?.stringValue)
    let queueBefore = try await Binary.runOff(["--json", "queue"], store: t.store, home: t.path).stdout
    let bytesBefore = t.storeBytes()
    let lines: [[String]] = [
      ["tags", "remove", item, ".."], ["tags", "remove", item, "."], ["tags", "add", "..", "t"],
      ["tags", "add", item, ""],
      ["extensions", "write", item, "..", "--body", "{}"], ["extensions", "delete", item, "."],
      ["extensions", "delete", "..", "ns"],
      ["items", "update", "..", "--version", "1", "--properties", "{}"], ["items", "delete", ".", "--version", "1"],
      ["items", "restore", ".."], ["items", "transition", "..", "--state", "archived"],
      ["items", "create", "--type", "note", "--properties", "{}", "--id", ".."],
      ["edges", "create", "--source", "..", "--target", item, "--type", "t"],
      ["edges", "update", "..", "--version", "1", "--properties", "{}"], ["edges", "delete", "."],
      ["metadata", "replace", ".."], ["metadata", "merge", "..", "--tag", "x"],
    ]
    for line in lines {
      let r = try await Binary.runOff(["--json"] + line, store: t.store, home: t.path)
      #expect(r.code == 2, "\(line): \(r)")
      #expect(r.errorCode == "usage", "\(line): \(r)")
    }
    #expect(t.storeBytes() == bytesBefore, "a refused line changed the store")
    #expect(try await Binary.runOff(["--json", "queue"], store: t.store, home: t.path).stdout == queueBefore)
  }

  @Test func anArgumentThatIsNotUTF8IsRefusedExitTwoAndNothingIsCreated() async throws {
    let t = TempFolder()
    let binary = try Binary.require()
    let environment = Binary.environment(store: t.store, home: t.path, [:])
    let r = try await offPool { () -> CommandResult in
      // bash passes the bytes as they are: 'a', 0xFF, 'b'.
      let run = try ChildProcess.run(
        "/bin/bash",
        ["-c", #"exec "$0" --json items create --type note --properties '{}' --id "$(printf 'a\377b')""#, binary],
        environment: environment)
      return CommandResult(code: run.status, stdout: "", stderr: run.errors)
    }
    #expect(r.code == 2, "\(r)")
    #expect(r.errorCode == "usage", "\(r)")
    #expect(r.envelope?["error"]?["message"]?.stringValue?.contains("--id") == true, "\(r)")
    #expect(!t.exists(t.store), "the store was created for a refused line")
  }

  @Test func aStorePathNamingAFIFOOrAFolderIsRefusedAtOnce() async throws {
    let t = TempFolder()
    let fifo = t.file("pipe.store")
    #expect(mkfifo(fifo, 0o600) == 0)
    let folder = t.file("folder.store")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for (store, word) in [(fifo, "FIFO"), (folder, "folder")] {
      for line in [["status"], ["queue"], ["items", "create", "--type", "note", "--properties", "{}"], ["drain"]] {
        let started = Date()
        let r = try await Binary.runOff(["--json"] + line, store: store, home: t.path, timeout: 20)
        #expect(Date().timeIntervalSince(started) < 10, "\(line) took \(Date().timeIntervalSince(started)) s")
        #expect(r.code == 3, "\(line): \(r)")
        #expect(r.errorCode == "store", "\(line): \(r)")
        #expect(r.envelope?["error"]?["message"]?.stringValue?.contains(word) == true, "\(line): \(r)")
      }
    }
    #expect(!t.exists(fifo + ".lock") && !t.exists(folder + ".lock"), "a lock was made beside what is not a store")
  }

  @Test func aStorePathWhoseDotDotFollowsAMissingFolderIsRefusedAndCreatesNothing() async throws {
    let t = TempFolder()
    let r = try await Binary.runOff(
      ["--json", "items", "create", "--type", "note", "--properties", "{}"], store: t.path + "/a/missing/../b.store",
      home: t.path)
    #expect(r.code == 3, "\(r)")
    #expect(r.envelope?["error"]?["message"]?.stringValue?.contains("does not exist") == true, "\(r)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: t.path).isEmpty, "something was created")
  }

  @Test func twoCreatesStartedTogetherOnAMissingStoreMakeOneStoreAndQueueBothWrites() async throws {
    var failures: [String] = []
    for attempt in 0..<20 {
      let t = TempFolder()
      let env = Binary.environment(store: t.path + "/sub/queue.store", home: t.path, [:])
      let line = ["--json", "items", "create", "--type", "note", "--properties", "{}"]
      let both = try await offPool { () -> [CommandResult] in
        let a = try Spawned(line, environment: env)
        let b = try Spawned(line, environment: env)
        _ = a.wait(timeout: 30)
        _ = b.wait(timeout: 30)
        return [a.result(), b.result()]
      }
      for r in both where r.code != 0 { failures.append("try \(attempt): \(r)") }
      let queue = try await Binary.runOff(["--json", "queue"], store: t.path + "/sub/queue.store", home: t.path)
      let ids = Set(queue.json?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [])
      if ids.count != 2 { failures.append("try \(attempt): the queue holds \(ids.count) writes") }
      let left = try FileManager.default.contentsOfDirectory(atPath: t.path + "/sub").filter { $0.contains("creating") }
      if !left.isEmpty { failures.append("try \(attempt): left behind \(left)") }
    }
    #expect(failures.isEmpty, "\(failures)")
  }

  @Test func aPortOutsideOneTo65535IsAUsageErrorAndCreatesNothing() async throws {
    let t = TempFolder()
    for url in ["http://127.0.0.1:99999/", "http://127.0.0.1:0/", "http://127.0.0.1:-1/", "http://127.0.0.1:8x/"] {
      let r = try await Binary.runOff(["--json", "--url", url, "fill"], store: t.store, home: t.path)
      #expect(r.code == 2, "\(url): \(r)")
      #expect(r.errorCode == "usage", "\(url): \(r)")
      #expect(r.envelope?["error"]?["message"]?.stringValue?.contains("port") == true, "\(url): \(r)")
    }
    #expect(!t.exists(t.store))
  }

  @Test func aScenarioThatIsNotAFileSaysWhatItIs() async throws {
    let t = TempFolder()
    let r = try await Binary.runOff(
      ["--json", "instance", "--scenario", "/dev/zero"], store: t.store, home: t.path, timeout: 20)
    #expect(r.code == 2, "\(r)")
    #expect(r.envelope?["error"]?["message"]?.stringValue?.contains("character device") == true, "\(r)")
  }
}
