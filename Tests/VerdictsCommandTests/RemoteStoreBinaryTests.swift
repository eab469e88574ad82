import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

@testable import VerdictsCommand
@testable import VerdictsRemote

#if canImport(Glibc)
  import Glibc
#endif

/// A store on another machine, through a real sshd on loopback (``SSHLab``): the device's
/// `verdicts` is the built binary, reached through the system's `ssh` (docs/remote.md).
@Suite(.serialized) struct RemoteStoreBinaryTests {
  /// A store of `count` waiting notes, filled from a scripted instance this test runs.
  static func waitingStore(_ t: TempFolder, count: Int) throws -> (ScriptedInstance, [String: String]) {
    let instance = ScriptedInstance(scenario: Scenario(name: "remote"))
    let url = try instance.start()
    let e = ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": "k-remote"]
    #expect(try Binary.run(["fill"], store: t.store, home: t.path, environment: e).code == 0)
    for i in 0..<count {
      let r = try Binary.run(
        ["items", "create", "--type", "note", "--id", "n\(i)", "--properties", "{}"], store: t.store, home: t.path)
      #expect(r.code == 0, "\(r)")
    }
    return (instance, e)
  }

  /// The environment of `verdicts` on this side of the link.
  static func near(_ lab: SSHLab, _ t: TempFolder) throws -> [String: String] {
    lab.environment(remoteBinary: try Binary.require())
  }

  /// The ids of the writes `queue --json` lists with `verdict`.
  static func ids(_ queueJSON: String, verdict: String) -> [String] {
    guard let all = JSONValue.parse(queueJSON)?.arrayValue else { return [] }
    return all.compactMap { w in w["verdict"]?.stringValue == verdict ? w["id"]?.stringValue : nil }
  }

  @Test func commandsOnARemoteStoreRunOnTheDeviceWithItsOutputAndItsExitCode() async throws {
    let lab = try SSHLab()
    let t = TempFolder()
    let demo = try await MetricsBinaryTests.touredStore(t)
    demo.stop()
    let env = try Self.near(lab, t)
    let remote = "device:\(t.store)"
    for command in [["--json", "queue"], ["--json", "history"], ["status"]] {
      let here = try Binary.run(command, store: t.store, home: t.path)
      let there = try Binary.run(command + ["--store", remote], store: nil, home: t.path, environment: env)
      #expect(there.code == here.code, "\(command): \(there)")
      #expect(there.stdout == here.stdout, "\(command)")
    }
    let unknown = try Binary.run(
      ["--store", remote, "show", "no-such-write"], store: nil, home: t.path, environment: env)
    #expect(unknown.code == 4, "\(unknown)")
    #expect(unknown.stderr.contains("no write"), "\(unknown)")
    // An action runs on the device, under its rules: the write is sent again there.
    let queue = try Binary.run(["--json", "queue", "--pane", "blocked"], store: t.store, home: t.path).stdout
    let blocked = try #require(JSONValue.parse(queue)?.arrayValue?.first?["id"]?.stringValue)
    let released = try Binary.run(["--store", remote, "release", blocked], store: nil, home: t.path, environment: env)
    #expect(released.code == 0, "\(released)")
    let after = try Binary.run(["--json", "show", blocked], store: t.store, home: t.path).stdout
    #expect(JSONValue.parse(after)?["verdict"] == .null, "\(after)")
  }

  @Test func whatADeviceCommandPrintsReachesATerminalOnlyAsVisibleText() throws {
    let lab = try SSHLab()
    let t = TempFolder()
    // A device whose `verdicts` prints a title-setting escape and colours on both streams.
    let hostile = "\(t.path)/hostile-verdicts"
    try """
    #!/bin/sh
    printf 'status \\033]0;pwned\\007 \\033[31mred\\n'
    printf 'oops \\033[2J\\n' >&2
    exit 4
    """.write(toFile: hostile, atomically: true, encoding: .utf8)
    chmod(hostile, 0o755)
    var env = try Self.near(lab, t)
    env["VERDICTS_REMOTE_PATH"] = hostile
    // On a terminal (script(1) gives it one): each line made safe, the exit code the device's.
    var ttyEnv = env
    ttyEnv["HOME"] = t.path
    ttyEnv["LANG"] = "C.UTF-8"
    ttyEnv["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let command = "'\(try Binary.require())' --store 'device:\(t.store)' status; echo \"exit $?\""
    let onTTY = try ChildProcess.run("/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"], environment: ttyEnv)
    #expect(onTTY.output.contains("exit 4"), "\(onTTY.output)")
    #expect(onTTY.output.contains("status ␛]0;pwned␇ ␛[31mred"), "\(onTTY.output)")
    #expect(onTTY.output.contains("oops ␛[2J"), "\(onTTY.output)")
    #expect(!onTTY.stdout.contains(0x1B), "an escape from the device reached the terminal")
    // Into a pipe (a script reading --json): the bytes as the device sent them.
    let piped = try Binary.run(["--store", "device:\(t.store)", "status"], store: nil, home: t.path, environment: env)
    #expect(piped.code == 4)
    #expect(piped.stdout.contains("\u{1B}]0;pwned"), "\(piped)")
  }

  @Test func aRemoteStoreNamedEachWayReachesTheSameStore() throws {
    #expect(RemoteStore("device:/a/b.store") == RemoteStore("ssh://device/a/b.store"))
    #expect(RemoteStore("ssh://ann@device:2222/x")?.port == 2222)
    #expect(RemoteStore("ssh://ann@device:2222/x")?.destination == "ann@device")
    #expect(RemoteStore("device:")?.path == nil)
    #expect(RemoteStore("ssh://device/~/q.store")?.path == "~/q.store")
    // Local paths stay local: a slash before the colon, or none at all.
    #expect(RemoteStore("./a:b") == nil)
    #expect(RemoteStore("/tmp/a:b") == nil)
    #expect(RemoteStore("store.db") == nil)
    // What ssh would read as an option is never a host.
    #expect(RemoteStore("-oProxyCommand=x:y") == nil)
    #expect(RemoteStore("ssh://-oProxyCommand=x/y") == nil)
    #expect(RemoteStore("ssh://device:99999/y") == nil)
    #expect(RemoteStore.quoted("it's") == #"'it'\''s'"#)
  }

  @Test func watchPlainOverTheLinkFollowsADrainOnTheDeviceListingEachVerdictOnce() throws {
    let lab = try SSHLab()
    let t = TempFolder()
    let (instance, e) = try Self.waitingStore(t, count: 20)
    defer { instance.stop() }
    let watch = try Spawned(
      ["--store", "device:\(t.store)", "watch", "--plain"],
      environment: Binary.environment(store: nil, home: t.path, try Self.near(lab, t)))
    defer { watch.kill() }
    #expect(waitUntil(within: .seconds(15)) { watch.stdout.components(separatedBy: " queued").count > 20 })
    let drained = try Binary.run(["drain"], store: t.store, home: t.path, environment: e)
    #expect(drained.code == 0, "\(drained)")
    #expect(
      waitUntil(within: .seconds(15)) { watch.stdout.components(separatedBy: " accepted ").count - 1 == 20 },
      "\(watch.stdout)\n\(watch.stderr)")
    for i in 0..<20 {
      let lines = watch.stdout.split(separator: "\n").filter { $0.contains(" n\(i) ") && $0.contains(" accepted ") }
      #expect(lines.count == 1, "n\(i): \(lines)")
    }
  }

  @Test func aFrozenLinkIsSaidLostWithinSecondsAndTheWatchCatchesUpAfterWithNothingLostOrDoubled() throws {
    let lab = try SSHLab()
    let t = TempFolder()
    let (instance, e) = try Self.waitingStore(t, count: 12)
    defer { instance.stop() }
    let watch = try Spawned(
      ["--store", "device:\(t.store)", "watch", "--plain"],
      environment: Binary.environment(store: nil, home: t.path, try Self.near(lab, t)))
    defer { watch.kill() }
    #expect(waitUntil(within: .seconds(15)) { watch.stdout.components(separatedBy: " queued").count > 12 })
    // The cable pulled: nothing crosses and nothing is closed.
    let frozen = Date()
    lab.freezeLinks()
    #expect(try Binary.run(["drain"], store: t.store, home: t.path, environment: e).code == 0)
    #expect(waitUntil(within: .seconds(30)) { watch.stderr.contains(" lost at ") }, "\(watch.stderr)")
    let seen = Date().timeIntervalSince(frozen)
    #expect(seen < 25, "the lost link was said after \(seen) s")
    #expect(!watch.stdout.contains(" accepted "), "nothing crossed a frozen link")
    // The cable back (the frozen sessions end; the server still listens): it is made again and
    // the watch reads what it missed.
    lab.cutLinks()
    #expect(waitUntil(within: .seconds(30)) { watch.stderr.contains(" back at ") }, "\(watch.stderr)")
    #expect(
      waitUntil(within: .seconds(15)) { watch.stdout.components(separatedBy: " accepted ").count - 1 == 12 },
      "\(watch.stdout)\n\(watch.stderr)")
    for i in 0..<12 {
      let lines = watch.stdout.split(separator: "\n").filter { $0.contains(" n\(i) ") && $0.contains(" accepted ") }
      #expect(lines.count == 1, "n\(i): \(lines)")
    }
  }

  @Test func aKeyPinnedToServeReadOnlyWatchesButEveryActionAndEveryOtherCommandIsRefused() async throws {
    let t = TempFolder()
    let demo = try await MetricsBinaryTests.touredStore(t)
    demo.stop()
    let binary = try Binary.require()
    let lab = try SSHLab(forcedCommand: "\(binary) --store \(t.store) serve --read-only")
    let env = try Self.near(lab, t)
    let status = try Binary.run(["--store", "device:\(t.store)", "status"], store: nil, home: t.path, environment: env)
    #expect(status.code == 4, "\(status)")
    #expect(status.stderr.contains("this key may only watch"), "\(status)")
    #expect(!status.stdout.contains("greeting"), "\(status)")
    let source = try RemoteSource(store: try #require(RemoteStore("device:\(t.store)")), environment: env, writer: true)
    defer { source.close() }
    #expect(source.greeting.readOnly)
    #expect(!source.handle.isWriter)
    let counts = try await source.status().counts
    #expect(counts.blocked > 0)
    let blocked = try await source.page(.blocked, offset: 0, limit: 1, filter: nil).writes[0].id
    await #expect(throws: (any Error).self) { try await source.release(blocked) }
    do {
      _ = try await source.release(blocked)
    } catch {
      #expect("\(error)".contains("only watch"), "\(error)")
    }
    #expect(try await source.write(blocked).verdict?.blockedReason != nil, "still blocked on the device")
  }

  @Test func aDeviceWithoutVerdictsOrWithAnOlderOneIsSaidInOneLine() throws {
    let lab = try SSHLab()
    let t = TempFolder()
    var env = try Self.near(lab, t)
    func watch(_ remoteBinary: String) throws -> CommandResult {
      env["VERDICTS_REMOTE_PATH"] = remoteBinary
      return try Binary.run(
        ["--store", "device:\(t.store)", "watch", "--plain"], store: nil, home: t.path, environment: env,
        timeout: 30)
    }
    let missing = try watch("\(t.path)/no-such/verdicts")
    #expect(missing.code == 3, "\(missing)")
    #expect(missing.stderr.contains("verdicts was not found on device"), "\(missing)")
    #expect(missing.stderr.split(separator: "\n").filter { $0.hasPrefix("verdicts:") }.count == 1, "\(missing)")
    // A release before `serve`: the command line refuses the word.
    let old = "\(t.path)/old-verdicts"
    try "#!/bin/sh\necho \"verdicts: unknown command 'serve'\" >&2\nexit 2\n".write(
      toFile: old, atomically: true, encoding: .utf8)
    chmod(old, 0o755)
    let tooOld = try watch(old)
    #expect(tooOld.code == 3, "\(tooOld)")
    #expect(tooOld.stderr.contains("too old"), "\(tooOld)")
    // A later release that speaks only a newer protocol.
    let newer = "\(t.path)/newer-verdicts"
    let greeting =
      #"{"greeting":{"versions":[7],"offers":[],"program":"verdicts 9.0","store":"x","#
      + #""handle":{"writer":{}},"readOnly":false}}"#
    try "#!/bin/sh\necho '\(greeting)'\nsleep 5\n".write(toFile: newer, atomically: true, encoding: .utf8)
    chmod(newer, 0o755)
    let tooNew = try watch(newer)
    #expect(tooNew.code == 3, "\(tooNew)")
    #expect(tooNew.stderr.contains("speaks remote protocol 7; this one speaks 1"), "\(tooNew)")
  }

  @Test func aDeviceThatOffersFewerCallsIsWatchedWithWhatItHas() async throws {
    let lab = try SSHLab()
    let t = TempFolder()
    let (instance, e) = try Self.waitingStore(t, count: 5)
    defer { instance.stop() }
    // An older release: the same protocol, without file news, `changed` nor `page_summaries`.
    let older = "\(t.path)/older-verdicts"
    let binary = try Binary.require()
    try """
    #!/bin/sh
    "\(binary)" "$@" | sed -u '1s/"follow_files",//; 1s/,"follow_files"//; 1s/"changed",//; 1s/,"page_summaries"//'
    """.write(toFile: older, atomically: true, encoding: .utf8)
    chmod(older, 0o755)
    var env = try Self.near(lab, t)
    env["VERDICTS_REMOTE_PATH"] = older
    let source = try RemoteSource(
      store: try #require(RemoteStore("device:\(t.store)")), environment: env, writer: false)
    defer { source.close() }
    #expect(!source.greeting.offers.contains("follow_files") && !source.greeting.offers.contains("page_summaries"))
    #expect(source.storeFileEvents() == nil, "no file news is asked of a device that does not offer it")
    await #expect(throws: RemoteSource.LinkFailure.self) { _ = try await source.changed(since: nil) }
    // What it has still works: the counts, the pages (`page_rows`), and the queue's changes as
    // they happen.
    #expect(try await source.status().counts.waiting == 5)
    let page = try await source.page(.waiting, offset: 0, limit: 3, filter: nil)
    #expect(source.pagesAreSummaries && page.writes.count == 3 && page.total == 5)
    #expect(try await source.page(.waiting, offset: 0, limit: 3, filter: nil) == page)
    var changes = source.changes().makeAsyncIterator()
    #expect(try Binary.run(["drain"], store: t.store, home: t.path, environment: e).code == 0)
    #expect(await changes.next() != nil)
    #expect(try await source.status().counts.answered == 5)
  }

  @Test func actionsFromARemoteScreenRunOnTheDeviceAndUndoPutsBackWhatTheyTook() async throws {
    let lab = try SSHLab()
    let t = TempFolder()
    let demo = try await MetricsBinaryTests.touredStore(t)
    demo.stop()
    let env = try Self.near(lab, t)
    let source = try RemoteSource(store: try #require(RemoteStore("device:\(t.store)")), environment: env, writer: true)
    defer { source.close() }
    #expect(source.handle.isWriter)
    let changes = source.changes()
    var seen = changes.makeAsyncIterator()
    let blocked = try await source.page(.blocked, offset: 0, limit: 1, filter: nil).writes[0].id
    #expect(try await source.release(blocked))
    #expect(try await source.write(blocked).verdict == nil)
    #expect(await seen.next() != nil, "the release came back as a change")
    let taken = try await source.takeAnswered()
    #expect(!taken.isEmpty)
    let here = try Binary.run(["--json", "queue"], store: t.store, home: t.path).stdout
    let left = Set(JSONValue.parse(here)?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [])
    #expect(taken.allSatisfy { !left.contains($0.id) }, "the device's queue still holds a taken write")
    let outcome = try await source.undo(taken[0].id)
    guard case .restored = outcome else {
      Issue.record("undo: \(outcome)")
      return
    }
    #expect(try await source.write(taken[0].id).id == taken[0].id)
  }

  @Test func aDrainFromTheRemoteScreenRunsOnTheDeviceWithTheURLTypedHereAndTheKeyGivenWithK() async throws {
    let lab = try SSHLab()
    let t = TempFolder()
    let (instance, e) = try Self.waitingStore(t, count: 5)
    defer { instance.stop() }
    let source = try RemoteSource(
      store: try #require(RemoteStore("device:\(t.store)")), environment: try Self.near(lab, t), writer: true,
      instance: e["MARFA_API_URL"])
    defer { source.close() }
    #expect(source.handle.isWriter)
    #expect(source.instanceURL == e["MARFA_API_URL"])
    try await source.useKey(try #require(e["MARFA_API_KEY"]))
    let report = try await source.drain()
    #expect(report.answered == 5, "\(report)")
    #expect(try await source.status().counts.answered == 5)
    #expect(instance.requests.contains { $0.header("Authorization") == "Bearer k-remote" })
    // `d` on a copy to fill again fills it on the device, from the same instance, with that key.
    let pagesBefore = instance.requests.filter { $0.path.hasPrefix("/items") && $0.method == "GET" }.count
    try await source.fill()
    #expect(try await source.status().fill == .complete)
    #expect(instance.requests.filter { $0.path.hasPrefix("/items") && $0.method == "GET" }.count > pagesBefore)
  }

  @Test func aPageReadAgainSendsOnlyTheRowsThatChanged() async throws {
    let lab = try SSHLab()
    let t = TempFolder()
    let (instance, e) = try Self.waitingStore(t, count: 30)
    defer { instance.stop() }
    let source = try RemoteSource(
      store: try #require(RemoteStore("device:\(t.store)")), environment: try Self.near(lab, t), writer: false)
    defer { source.close() }
    var before = source.bytesReceived
    let first = try await source.page(.waiting, offset: 0, limit: 20, filter: nil)
    let firstBytes = source.bytesReceived - before
    before = source.bytesReceived
    let again = try await source.page(.waiting, offset: 0, limit: 20, filter: nil)
    let againBytes = source.bytesReceived - before
    #expect(again == first, "the page rebuilt from what the screen held is the page")
    // A pane's rows are summaries; the detail reads its write whole.
    #expect(source.pagesAreSummaries)
    #expect(first.writes.allSatisfy { $0.body == .null && $0.answer == nil })
    #expect(try await source.shownWrite(first.writes[0].id).body != .null)
    #expect(againBytes * 4 < firstBytes, "an unchanged page took \(againBytes) bytes, the first \(firstBytes)")
    // A write queued after them changes the pane's count, not its first rows.
    let queued = try Binary.run(
      ["items", "create", "--type", "note", "--id", "late", "--properties", "{}"], store: t.store, home: t.path)
    #expect(queued.code == 0, "\(queued)")
    before = source.bytesReceived
    let grown = try await source.page(.waiting, offset: 0, limit: 20, filter: nil)
    #expect(grown.total == first.total + 1 && grown.writes == first.writes)
    #expect((source.bytesReceived - before) * 4 < firstBytes)
    _ = e
  }

  @Test func anIdleLinkCarriesNothingAndADrainCrossesItAsAFewChangesASecond() async throws {
    let lab = try SSHLab()
    let t = TempFolder()
    let (instance, e) = try Self.waitingStore(t, count: 200)
    defer { instance.stop() }
    let source = try RemoteSource(
      store: try #require(RemoteStore("device:\(t.store)")), environment: try Self.near(lab, t), writer: false)
    defer { source.close() }
    let changes = Task {
      var n = 0
      for await _ in source.changes() { n += 1 }
      return n
    }
    _ = try await source.status()
    try await Task.sleep(for: .seconds(1))
    let idleFrom = source.bytesReceived
    try await Task.sleep(for: .seconds(5))
    #expect(source.bytesReceived == idleFrom, "an idle link carried \(source.bytesReceived - idleFrom) bytes")
    let started = Date()
    let drained = try await offThePool { try Binary.run(["drain"], store: t.store, home: t.path, environment: e) }
    #expect(drained.code == 0, "\(drained)")
    try await Task.sleep(for: .seconds(1))
    let seconds = Date().timeIntervalSince(started)
    let bytes = source.bytesReceived - idleFrom
    // At most one `saved` change each 250 ms, whatever the drain's pace, and each change small.
    #expect(Double(bytes) < (seconds / 0.25 + 8) * 120, "\(bytes) bytes in \(seconds) s")
    source.close()
    #expect(await changes.value > 0)
  }
}

/// The screen over the link on a big store: what it costs to open.
@Suite(.serialized) struct RemoteFirstViewTests {
  @Test func theFirstViewOfABigStoreCrossesTheLinkInUnder50KB() throws {
    let writes = Int(ProcessInfo.processInfo.environment["VERDICTS_REMOTE_WRITES"] ?? "") ?? 100_000
    let lab = try SSHLab()
    let t = TempFolder()
    // Made by a writer first (the schema, the indexes, the history), emptied, then filled in bulk.
    _ = try Binary.run(["items", "create", "--type", "note", "--properties", "{}"], store: t.store, home: t.path)
    try SQLiteScript.run("DELETE FROM queue;", on: t.store)
    try MetricsScaleTests.generate(t.store, writes: writes)
    // ssh, with every byte the device sends (before ssh's compression) copied to a file.
    let counted = "\(t.path)/counted-ssh"
    try "#!/bin/sh\nssh -F \(lab.folder.path)/ssh_config \"$@\" | tee -a \(t.path)/link.bytes\n".write(
      toFile: counted, atomically: true, encoding: .utf8)
    chmod(counted, 0o755)
    var env = lab.environment(remoteBinary: try Binary.require())
    env["VERDICTS_SSH"] = counted
    env["HOME"] = t.path
    env["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let pty = try ScreenPty(["--store", "device:\(t.store)", "watch"], environment: env, width: 80, height: 24)
    #expect(pty.waitFor("Dead", timeout: 30), "\(pty.text)")
    // Settled: the first frame's reads, the detail and the writer are in.
    Thread.sleep(forTimeInterval: 3)
    let bytes = (try? FileManager.default.attributesOfItem(atPath: "\(t.path)/link.bytes")[.size] as? Int) ?? 0
    #expect(bytes > 0)
    #expect(bytes < 50_000, "the first view of \(writes) writes took \(bytes) bytes")
    print("first view of \(writes) writes over the link: \(bytes) bytes")
    pty.type("q")
    #expect(pty.waitForExit(timeout: 10))
  }
}
