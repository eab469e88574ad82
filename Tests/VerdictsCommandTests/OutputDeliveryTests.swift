import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Nothing is cleared before it is delivered, and output that cannot be written is a failure
/// (the built binary with its standard output on `/dev/full`, closed, or a
/// pipe whose reader is gone).
@Suite(.serialized) struct OutputDeliveryTests {
  /// A store holding `answered` accepted writes (filled, queued and drained against a scripted
  /// instance), and the instance, to drain more.
  final class AnsweredStore: Sendable {
    let folder = TempFolder()
    let instance = ScriptedInstance(scenario: Scenario(name: "t"))
    let url: URL
    var store: String { folder.store }
    var env: [String: String] { ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": "k1"] }

    init(answered: Int) async throws {
      url = try instance.start()
      #expect(await runInProcess(["fill"], store: folder.store, environment: env).code == 0)
      try await queue(answered)
      let drain = await runInProcess(["--json", "drain"], store: folder.store, environment: env)
      #expect(drain.code == 0, "\(drain)")
      #expect(try await answeredIDs().count == answered)
    }

    deinit { instance.stop() }

    /// Queues `count` item creates.
    func queue(_ count: Int) async throws {
      for i in 0..<count {
        let r = await runInProcess(
          ["--json", "items", "create", "--type", "note", "--properties", "{\"n\":\(i)}"], store: folder.store)
        #expect(r.code == 0, "\(r)")
      }
    }

    /// The ids of the answered writes the store holds, in send order.
    func answeredIDs() async throws -> [String] {
      let r = await runInProcess(["--json", "queue", "--pane", "answered"], store: folder.store)
      return try #require(r.json?.arrayValue).compactMap { $0["id"]?.stringValue }
    }
  }

  @Test func takeAnsweredWhoseOutputCannotBeWrittenExitsThreeAndKeepsEveryAnsweredWrite() async throws {
    let s = try await AnsweredStore(answered: 50)
    let before = try await s.answeredIDs()
    for output in BrokenOutput.allCases {
      for json in [true, false] {
        let line = (json ? ["--json"] : []) + ["take-answered"]
        let r = try #require(try output.run(line, store: s.store, home: s.folder.path), "\(line) on \(output) hung")
        #expect(r.code == 3, "\(line) on \(output): \(r)")
        if json {
          #expect(r.errorCode == "write_error", "\(line) on \(output): \(r)")
          #expect(r.envelope?["exit"] == .number(3))
        } else {
          #expect(r.stderr.hasPrefix("verdicts: write error: \(output.reason); nothing was taken"), "\(r)")
          #expect(r.stderr.contains("the 50 answered write(s) are still in the store"), "\(r)")
        }
        #expect(try await s.answeredIDs() == before, "\(line) on \(output) lost answered writes")
      }
    }
    // Delivered, they go.
    let taken = try Binary.run(["--json", "take-answered"], store: s.store, home: s.folder.path)
    #expect(taken.code == 0, "\(taken)")
    #expect(taken.json?.arrayValue?.compactMap { $0["id"]?.stringValue } == before)
    #expect(try await s.answeredIDs().isEmpty)
  }

  @Test func takeAnsweredIntoAFileWritesItSyncedThenClearsAndNeverWritesOverOne() async throws {
    let s = try await AnsweredStore(answered: 20)
    let before = try await s.answeredIDs()
    let file = s.folder.file("taken.json")
    let r = try Binary.run(["take-answered", "--output", file], store: s.store, home: s.folder.path)
    #expect(r.code == 0, "\(r)")
    #expect(r.stdout == "took 20 answered write(s) into \(file)\n")
    let data = try #require(FileManager.default.contents(atPath: file))
    let written = try #require(JSONValue.parse(String(decoding: data, as: UTF8.self))?.arrayValue)
    #expect(written.compactMap { $0["id"]?.stringValue } == before)
    #expect(written.allSatisfy { $0["verdict"]?.stringValue == "accepted" })
    #expect(try await s.answeredIDs().isEmpty)
    var info = stat()
    #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o600, "the file is the owner's only")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: s.folder.path).filter { $0.hasPrefix(".") }
    #expect(leftovers.isEmpty, "\(leftovers)")

    // A file that is there is never written over: it may hold the only copy of earlier writes.
    try await s.queue(3)
    #expect(await runInProcess(["drain"], store: s.store, environment: s.env).code == 0)
    let again = try await s.answeredIDs()
    for json in [false, true] {
      let r2 = try Binary.run(
        (json ? ["--json"] : []) + ["take-answered", "--output", file], store: s.store, home: s.folder.path)
      #expect(r2.code == 2, "\(r2)")
      if json { #expect(r2.errorCode == "usage") } else { #expect(r2.stderr.contains("already exists"), "\(r2)") }
      #expect(FileManager.default.contents(atPath: file) == data)
      #expect(try await s.answeredIDs() == again)
    }
    // Nor is a folder that does not exist made.
    let nowhere = s.folder.file("missing/taken.json")
    let r3 = try Binary.run(["take-answered", "--output", nowhere], store: s.store, home: s.folder.path)
    #expect(r3.code == 2, "\(r3)")
    #expect(r3.stderr.contains("does not exist"), "\(r3)")
    #expect(!s.folder.exists(s.folder.file("missing")))
    #expect(try await s.answeredIDs() == again)
  }

  @Test(
    "take answered into a file on a full disk exits 3 leaves no file and keeps every answered write",
    .enabled(if: Tmpfs.canMount, "mounting a tmpfs is not allowed here"))
  func takeAnsweredIntoAFileOnAFullDiskExitsThreeLeavesNoFileAndKeepsEveryAnsweredWrite() async throws {
    let s = try await AnsweredStore(answered: 50)
    let before = try await s.answeredIDs()
    let disk = s.folder.file("disk")
    try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
    #expect(Tmpfs.mount(disk, kilobytes: 64))
    defer { Tmpfs.unmount(disk) }
    _ = Tmpfs.fill(disk, leaving: 8_192)
    let file = disk + "/taken.json"
    let r = try Binary.run(["--json", "take-answered", "--output", file], store: s.store, home: s.folder.path)
    #expect(r.code == 3, "\(r)")
    #expect(r.errorCode == "write_error", "\(r)")
    #expect(r.envelope?["error"]?["message"]?.stringValue?.contains("No space left on device") == true, "\(r)")
    #expect(r.stdout.isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: disk) == ["filler"], "a partial file was left")
    #expect(try await s.answeredIDs() == before)
  }

  @Test func everyCommandWhoseOutputCannotBeWrittenExitsThreeSayingWhy() async throws {
    let s = try await AnsweredStore(answered: 2)
    let id = try #require(try await s.answeredIDs().first)
    let lines: [[String]] = [
      ["queue"], ["--json", "queue"], ["status"], ["--json", "status"], ["show", id], ["--version"], ["--help"],
    ]
    for output in BrokenOutput.allCases {
      for line in lines {
        let r = try #require(try output.run(line, store: s.store, home: s.folder.path), "\(line) on \(output) hung")
        #expect(r.code == 3, "\(line) on \(output): \(r)")
        if line.first == "--json" {
          #expect(r.errorCode == "write_error", "\(line) on \(output): \(r)")
        } else {
          #expect(r.stderr == "verdicts: write error: \(output.reason)\n", "\(line) on \(output): \(r)")
        }
      }
      // A queued write is queued all the same, and the message says so.
      let create = ["items", "create", "--type", "note", "--properties", "{}"]
      let queued = try #require(try output.run(create, store: s.store, home: s.folder.path))
      #expect(queued.code == 3, "\(queued)")
      #expect(queued.stderr.contains("write error: \(output.reason); the write is queued all the same"), "\(queued)")
      // A drain's report is lost, its verdicts are not.
      let drain = try #require(try output.run(["drain"], store: s.store, home: s.folder.path, environment: s.env))
      #expect(drain.code == 3, "\(drain)")
      #expect(drain.stderr.contains("write error: \(output.reason); the drain ran and its verdicts are in the store"))
      let queue = await runInProcess(["--json", "queue"], store: s.store)
      #expect(queue.json?.arrayValue?.allSatisfy { $0["verdict"]?.stringValue == "accepted" } == true, "\(queue)")
    }
    #expect(try await s.answeredIDs().count == 2 + BrokenOutput.allCases.count)
  }

  @Test func watchPlainEndsWithExitThreeWhenItsOutputIsGone() async throws {
    let s = try await AnsweredStore(answered: 2)
    for output in BrokenOutput.allCases {
      let started = Date()
      let r = try #require(
        try output.run(["watch", "--plain"], store: s.store, home: s.folder.path, timeout: 15),
        "watch --plain on \(output) ran on")
      #expect(r.code == 3, "\(output): \(r)")
      #expect(r.stderr == "verdicts: write error: \(output.reason)\n", "\(output): \(r)")
      #expect(Date().timeIntervalSince(started) < 10)
    }
  }

  @Test func watchPlainEndsWhenTheReaderOfItsPipeGoesAwayWhileNothingChanges() async throws {
    let s = try await AnsweredStore(answered: 2)
    var fds: [Int32] = [-1, -1]
    #expect(pipe(&fds) == 0)
    let p = ChildProcess()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["--default-signal=PIPE", try Binary.require(), "watch", "--plain"]
    p.environment = Binary.environment(store: s.store, home: s.folder.path, [:])
    p.standardInput = FileHandle.nullDevice
    p.standardOutput = FileHandle(fileDescriptor: fds[1], closeOnDealloc: false)
    let err = Pipe()
    p.standardError = err
    try p.run()
    close(fds[1])
    // The header and the two writes' lines, then nothing changes.
    var seen = Data()
    var byte: UInt8 = 0
    while seen.filter({ $0 == 0x0A }).count < 3, read(fds[0], &byte, 1) == 1 { seen.append(byte) }
    #expect(String(decoding: seen, as: UTF8.self).hasPrefix("time id kind rows"))
    // A fixed pause: an exit that does not come has no event to wait on.
    try await Task.sleep(nanoseconds: 500_000_000)
    #expect(p.isRunning, "watch --plain ended while its reader was there")
    let closed = Date()
    close(fds[0])
    await eventually(within: .seconds(10)) { !p.isRunning }
    if p.isRunning { kill(p.processIdentifier, SIGKILL) }
    p.waitUntilExit()
    #expect(Date().timeIntervalSince(closed) < 5, "it ran on after its reader left")
    #expect(p.terminationReason == .exit && p.terminationStatus == 3)
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(stderr == "verdicts: write error: Broken pipe\n")
  }
}
