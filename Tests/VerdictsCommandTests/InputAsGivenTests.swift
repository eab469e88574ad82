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
@Suite(.serialized) struct InputAsGivenTests {
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
    let p = ChildProcess()
    p.executableURL = URL(fileURLWithPath: "/bin/bash")
    // bash passes the bytes as they are: 'a', 0xFF, 'b'.
    p.arguments = [
      "-c", #"exec "$0" --json items create --type note --properties '{}' --id "$(printf 'a\377b')""#, binary,
    ]
    p.environment = Binary.environment(store: t.store, home: t.path, [:])
    let err = Pipe()
    p.standardError = err
    p.standardOutput = FileHandle.nullDevice
    let r = try await offPool { () -> CommandResult in
      try p.run()
      let e = err.fileHandleForReading.readDataToEndOfFile()
      p.waitUntilExit()
      return CommandResult(code: p.terminationStatus, stdout: "", stderr: String(decoding: e, as: UTF8.self))
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

/// `blobs put` hashes and copies its file a chunk at a time: a big file in constant memory.
@Suite(.serialized) struct StreamingUploadTests {
  @Test(
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "needs /usr/bin/time for the peak memory"),
    .disabled(if: SanitizerRun.active, "a memory bound: a sanitizer's shadow memory adds tens of MB"))
  func blobsPutOfA16MBFilePeaksUnder44MBAndKeepsTheSameBytesUnderTheirHash() async throws {
    let t = TempFolder()
    let file = t.file("big.bin")
    // 16 MB of a repeating pattern (not sparse, not all zeros). Read whole, the file alone took
    // three copies (48 MB) over the process's own ~30 MB; streamed, the peak does not grow with it.
    let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    var block = [UInt8](repeating: 0, count: 1 << 20)
    for i in 0..<block.count { block[i] = UInt8(truncatingIfNeeded: i &* 31 &+ 7) }
    for _ in 0..<16 { _ = block.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) } }
    close(fd)
    let p = ChildProcess()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/time")
    p.arguments = ["-f", "peak-kb %M", try Binary.require(), "--json", "blobs", "put", file]
    p.environment = Binary.environment(store: t.store, home: t.path, [:])
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    let (status, o, e) = try await offPool { () -> (Int32, Data, String) in
      try p.run()
      let o = out.fileHandleForReading.readDataToEndOfFile()
      let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      p.waitUntilExit()
      return (p.terminationStatus, o, e)
    }
    #expect(status == 0, "\(e)")
    let peak = e.split(separator: "\n").first { $0.hasPrefix("peak-kb ") }.flatMap { Int($0.dropFirst(8)) } ?? Int.max
    print("blobs put of 16 MB: peak \(peak / 1024) MB (whole process)")
    #expect(peak < 44 * 1024, "peak \(peak) KB")
    let json = JSONValue.parse(String(decoding: o, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    let hash = try #require(json?["blob"]?.stringValue, "\(String(decoding: o, as: UTF8.self))")
    #expect(json?["body"]?["size_bytes"] == .int(16 << 20))
    let copied = t.store + ".blobs/" + hash
    #expect(FileManager.default.contents(atPath: copied) == FileManager.default.contents(atPath: file))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: t.store + ".blobs").count == 1, "a partial copy was left")

    // The drain sends the upload from its file as it reads it: its peak does not grow with it.
    let instance = ScriptedInstance(scenario: Scenario(name: "t", rules: []))
    let url = try instance.start()
    defer { instance.stop() }
    let env = ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": "k1"]
    #expect(try Binary.run(["fill"], store: t.store, home: t.path, environment: env).code == 0)
    let d = ChildProcess()
    d.executableURL = URL(fileURLWithPath: "/usr/bin/time")
    d.arguments = ["-f", "peak-kb %M", try Binary.require(), "--json", "drain"]
    d.environment = Binary.environment(store: t.store, home: t.path, env)
    let dout = Pipe()
    let derr = Pipe()
    d.standardOutput = dout
    d.standardError = derr
    let (dstatus, dreport, de) = try await offPool { () -> (Int32, Data, String) in
      try d.run()
      let o = dout.fileHandleForReading.readDataToEndOfFile()
      let e = String(decoding: derr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      d.waitUntilExit()
      return (d.terminationStatus, o, e)
    }
    #expect(dstatus == 0, "\(de)")
    #expect(JSONValue.parse(String(decoding: dreport, as: UTF8.self))?["answered"] == .int(1), "\(de)")
    let dpeak = de.split(separator: "\n").first { $0.hasPrefix("peak-kb ") }.flatMap { Int($0.dropFirst(8)) } ?? Int.max
    print("drain of a 16 MB upload: peak \(dpeak / 1024) MB (whole process)")
    #expect(dpeak < 44 * 1024, "peak \(dpeak) KB")
    let sent = try #require(instance.requests.first { $0.method == "POST" && $0.path == "/blobs" })
    #expect(sent.body.count == 16 << 20 && sent.body == Array(FileManager.default.contents(atPath: file) ?? Data()))
  }
}
