import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Through the built binary: a full disk, `/dev/full`
/// as the log, a read-only file system under a held store.
@Suite(.serialized) struct DiskFaultBinaryTests {
  @Test(
    "a disk full for a moment mid-drain ends it storage_full and no report lists a verdict the store lost",
    .enabled(if: FileSystemFaults.canMount, "needs mount for a small tmpfs"))
  func aDiskFullForAMomentMidDrainEndsItStorageFullAndNoReportListsAVerdictTheStoreLost() async throws {
    let outer = TempFolder()
    let dir = outer.file("small")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    #expect(FileSystemFaults.mountTmpfs(dir, kilobytes: 8192))
    defer { FileSystemFaults.unmount(dir) }
    let victim = try await DrainVictim(writes: 24, store: dir + "/queue.store")
    // Every answer held back 150 ms (more than a group's span, so the group is committed while
    // the drain waits); the disk is filled as the 5th write goes and freed 100 ms later, before
    // its answer comes: the commit in between fails, and the statements after it would succeed.
    let filler = dir + "/filler"
    let proxy = try SlowProxy(upstream: victim.url, answerDelay: 0.15) { n in
      guard n == 5 else { return }
      _ = FileSystemFaults.fill(dir, leaving: 0)
      DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { unlink(filler) }
    }
    defer { proxy.stop() }
    var environment = victim.environment
    environment["MARFA_API_URL"] = proxy.url.absoluteString

    let drain = try await Binary.runOff(
      ["--json", "drain"], store: victim.store, home: victim.folder.path, environment: environment, timeout: 120)
    unlink(filler)
    let stored = try await victim.queueNow()
    let storedVerdicts = Dictionary(uniqueKeysWithValues: stored.map { ($0.id, $0.verdict) })
    if drain.code == 0 {
      // No commit failed (the machine was too slow for the timing): the report must still match.
      let reported = drain.json?["verdicts"]?.arrayValue ?? []
      for v in reported {
        let id = v["id"]?.stringValue ?? ""
        #expect(
          storedVerdicts[id]??.wireName == v["verdict"]?.stringValue,
          "reported \(v) but the store holds \(String(describing: storedVerdicts[id]))")
      }
      #expect(drain.json?["answered"]?.intValue == stored.filter { $0.verdict != nil }.count, "\(drain)")
    } else {
      #expect(drain.code == 3, "\(drain)")
      #expect(drain.errorCode == "storage_full", "\(drain)")
      #expect(drain.stdout.isEmpty, "a drain that lost verdicts printed a report: \(drain.stdout)")
      // The lost group is not saved as the last drain either.
      let status = try await Binary.runOff(["--json", "status"], store: victim.store, home: victim.folder.path)
      let last = status.json?["last_drain"]
      let answeredInStore = stored.filter { $0.verdict != nil }.count
      if let answered = last?["answered"]?.intValue {
        #expect(
          answered <= answeredInStore, "the last drain says \(answered) answered; the store holds \(answeredInStore)")
      }
    }
    print(
      "disk full for a moment mid-drain: exit \(drain.code) \(drain.errorCode ?? "") \(drain.stderr) answered in store \(stored.filter { $0.verdict != nil }.count)"
    )
    #expect(stored.allSatisfy { $0.refusals == 0 }, "a full disk was counted against a write")
    // Room again: every write goes once (the lost verdicts are sent again under their keys).
    let finals = try victim.drainToCompletion()
    #expect(finals.last?.code == 0, "\(String(describing: finals.last))")
    let problems = victim.problems(after: try await victim.queueNow())
    #expect(problems.isEmpty, "\(problems.prefix(20))")
  }

  @Test(.enabled(if: FileSystemFaults.canMount, "needs mount for a small tmpfs"))
  func aFullDiskIsStorageFullExitThreeFromEveryCommandThatWrites() async throws {
    let outer = TempFolder()
    let dir = outer.file("small")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    #expect(FileSystemFaults.mountTmpfs(dir, kilobytes: 8192))
    defer { FileSystemFaults.unmount(dir) }
    let victim = try await DrainVictim(writes: 3, store: dir + "/queue.store")
    let item = victim.queued[0].itemId ?? "x"
    let filler = FileSystemFaults.fill(dir, leaving: 0)
    defer { unlink(filler) }
    let big = #"{"pad":"\#(String(repeating: "p", count: 20_000))"}"#
    let lines: [[String]] = [
      ["--json", "items", "create", "--type", "note", "--properties", big],
      ["--json", "items", "update", item, "--version", "0", "--properties", big],
      ["--json", "tags", "add", item, String(repeating: "t", count: 60)],
      ["--json", "drain"],
    ]
    for line in lines {
      let r = try await Binary.runOff(
        line, store: victim.store, home: victim.folder.path, environment: victim.environment)
      #expect(r.code == 3, "\(line): \(r)")
      #expect(r.errorCode == "storage_full", "\(line): \(r)")
    }
    // A store that does not exist yet, on the full disk.
    let fresh = try await Binary.runOff(
      ["--json", "items", "create", "--type", "note", "--properties", "{}"], store: dir + "/new.store",
      home: victim.folder.path)
    #expect(fresh.code == 3, "\(fresh)")
    #expect(fresh.errorCode == "storage_full", "\(fresh)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/new.store"), "a half-made store was left behind")
    #expect(victim.posts == 0, "a drain on a full disk sent writes it could not record")
  }

  @Test(
    "a queueing command on a read-only file system under a held store is store exit 3 not reading_handle",
    .enabled(if: FileSystemFaults.canMount, "needs mount for a read-only bind (root ignores chmod)"))
  func aQueueingCommandOnAReadOnlyFileSystemUnderAHeldStoreIsStoreExitThreeNotReadingHandle() async throws {
    let outer = TempFolder()
    let dir = outer.file("ro")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let store = dir + "/queue.store"
    let created = try await Binary.runOff(
      ["--json", "items", "create", "--type", "t", "--properties", "{}"], store: store, home: outer.path)
    #expect(created.code == 0, "\(created)")
    let holder = try Spawned(
      ["--json", "hold", "--seconds", "60"], environment: Binary.environment(store: store, home: outer.path, [:]))
    defer {
      holder.kill()
      _ = holder.wait(timeout: 10)
    }
    #expect(holder.waitForLine(timeout: 20), "hold printed nothing: \(holder.stderr)")
    #expect(FileSystemFaults.bindReadOnly(dir))
    defer { FileSystemFaults.unmount(dir) }
    for line in [
      ["--json", "items", "create", "--type", "t", "--properties", "{}"], ["--json", "tags", "add", "i", "t"],
    ] {
      let r = try await Binary.runOff(line, store: store, home: outer.path)
      #expect(r.code == 3, "\(line): \(r)")
      #expect(r.errorCode == "store", "\(line): \(r)")
      #expect(r.envelope?["error"]?["message"]?.stringValue?.contains("Read-only file system") == true, "\(r)")
    }
  }

  /// Runs the TUI under `script` (a pseudo-terminal), sends `q` after `seconds`, and returns
  /// the exit code and everything it drew.
  static func runTUI(_ arguments: [String], store: String, home: String, seconds: Double) throws -> (
    code: Int32, screen: String
  ) {
    let binary = try Binary.require()
    let p = ChildProcess()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    let command = ([binary] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(
      separator: " ")
    p.arguments = ["-qefc", command, "/dev/null"]
    p.environment = Binary.environment(
      store: store, home: home, ["TERM": "xterm-256color", "COLUMNS": "160", "LINES": "30"])
    let input = Pipe()
    let out = Pipe()
    p.standardInput = input
    p.standardOutput = out
    p.standardError = out
    try p.run()
    let reader = Task.detached { out.fileHandleForReading.readDataToEndOfFile() }
    // Runs for the time the caller asked (the screen keeps drawing), then quits.
    Thread.sleep(forTimeInterval: seconds)
    input.fileHandleForWriting.write(Data("q".utf8))
    waitUntil(within: .seconds(15)) { !p.isRunning }
    if p.isRunning { kill(p.processIdentifier, SIGKILL) }
    p.waitUntilExit()
    try? input.fileHandleForWriting.close()
    let data = try awaitResult(reader)
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  static func awaitResult(_ task: Task<Data, Never>) throws -> Data {
    let box = SharedValue(Data())
    let done = DispatchSemaphore(value: 0)
    Task.detached {
      let data = await task.value
      box.update { $0 = data }
      done.signal()
    }
    _ = done.wait(timeout: .now() + 10)
    return box.value
  }

  /// (A device such as `/dev/full` is refused as a log before the screen starts,
  /// `NamedFileBinaryTests`: the full disk is a small tmpfs filled to the last byte.)
  @Test(
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script") && FileSystemFaults.canMount,
      "needs script(1) for a pseudo-terminal and mount for a small tmpfs"))
  func aLogOnAFullDiskIsSaidOnceOnTheStatusLineAndTheTUIRunsAndQuitsCleanly() async throws {
    let t = TempFolder()
    let created = try await Binary.runOff(
      ["--json", "items", "create", "--type", "t", "--properties", "{}"], store: t.store, home: t.path)
    #expect(created.code == 0, "\(created)")
    let dir = t.file("full")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    #expect(FileSystemFaults.mountTmpfs(dir, kilobytes: 64))
    defer { FileSystemFaults.unmount(dir) }
    let log = dir + "/tui.log"
    #expect(FileManager.default.createFile(atPath: log, contents: nil))
    _ = FileSystemFaults.fill(dir, leaving: 0)
    let (store, home) = (t.store, t.path)
    let run = try await offPool { try Self.runTUI(["--log", log], store: store, home: home, seconds: 2) }
    #expect(run.code == 0, "exit \(run.code): \(run.screen.suffix(400).debugDescription)")
    #expect(run.screen.contains("log cannot be written"), "\(run.screen.suffix(2000).debugDescription)")
    #expect(!run.screen.contains("Fatal error"), "\(run.screen.suffix(400).debugDescription)")
    // The terminal is given back: the alternate screen is left after the last frame.
    let left = run.screen.range(of: "\u{1B}[?1049l", options: .backwards)
    let message = run.screen.range(of: "log cannot be written", options: .backwards)
    #expect(left != nil && message != nil && left!.lowerBound > message!.lowerBound, "the terminal was not restored")
  }
}
