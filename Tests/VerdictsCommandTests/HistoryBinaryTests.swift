import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

/// After the fact, through the built binary: a scripted night (a failing gateway, a dropped
/// connection, a 429, a blocked write), then `history`, `show` and `status` tell it.
@Suite(.serialized) struct HistoryBinaryTests {
  func env(_ url: URL) -> [String: String] { ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": "k1"] }

  /// A scripted night through the binary: a write met by a gateway's 502, a dropped connection
  /// and a 429 before it is accepted, and an update blocked by a version conflict; four drains.
  func night() throws -> (instance: ScriptedInstance, folder: TempFolder, w1: String, blocked: String) {
    let instance = ScriptedInstance(
      scenario: Scenario(
        name: "night", items: [SeedItem(id: "n1", type: "note")],
        rules: [
          ScriptRule(.write("w1"), answers: [.gatewayPage(status: 502), .drop, .rateLimited(seconds: 5)]),
          .once(.route("PATCH", "/items/n1"), .versionConflict),
        ]))
    let url = try instance.start()
    let t = TempFolder()
    let e = env(url)
    #expect(try Binary.run(["fill"], store: t.store, home: t.path, environment: e).code == 0)
    let first = try Binary.run(
      ["items", "create", "--type", "note", "--id", "w1", "--properties", #"{"title":"night"}"#, "--json"],
      store: t.store, home: t.path)
    let w1 = try #require(first.json?["id"]?.stringValue)
    let update = try Binary.run(
      ["items", "update", "n1", "--properties", #"{"a":1}"#, "--as-read", "--json"], store: t.store, home: t.path)
    let blocked = try #require(update.json?["id"]?.stringValue)
    for _ in 0..<4 { _ = try Binary.run(["drain"], store: t.store, home: t.path, environment: e) }
    return (instance, t, w1, blocked)
  }

  @Test func theLogTellsTheNightsDrainsAReleaseByReasonAndAFillNewestFirstAndNeverTheKey() throws {
    let (instance, t, _, blocked) = try night()
    defer { instance.stop() }
    let released = try Binary.run(["release", "--reason", "conflict_unresolved"], store: t.store, home: t.path)
    #expect(released.code == 0, "\(released)")
    let log = try Binary.run(["log"], store: t.store, home: t.path)
    #expect(log.code == 0, "\(log)")
    let lines = log.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first?.contains("release 1 blocked conflict_unresolved by verdicts release pid") == true, "\(log)")
    #expect(lines.filter { $0.contains("  drain #") }.count == 4, "\(log)")
    #expect(lines.last?.contains("filled from instance") == true, "\(log)")
    #expect(!log.stdout.contains("k1"), "a key is never in the log")
    let json = try Binary.run(["log", "--json", "--limit", "2"], store: t.store, home: t.path)
    let entries = try #require(json.json?.arrayValue)
    #expect(entries.count == 2)
    #expect(entries[0]["event"]?.stringValue == "release" && entries[0]["count"]?.intValue == 1)
    #expect(entries[1]["drain"] != nil)
    let bad = try Binary.run(["log", "--since", "yesterday"], store: t.store, home: t.path)
    #expect(bad.code == 2 && bad.stderr.contains("--since takes a time"), "\(bad)")
    _ = blocked
  }

  @Test func aScriptedNightIsToldByHistoryShowAndStatus() throws {
    let (instance, t, w1, blocked) = try night()
    defer { instance.stop() }

    // history: four drains, newest first, the first ended by the gateway, the last finished.
    let history = try Binary.run(["history", "--json"], store: t.store, home: t.path)
    #expect(history.code == 0, "\(history)")
    let drains = try #require(history.json?.arrayValue)
    #expect(drains.count == 4, "\(history.stdout)")
    #expect(drains.last?["ended"] == .string("unavailable"))
    #expect(drains.last?["why"]?.stringValue?.contains("502") == true, "\(history.stdout)")
    #expect(drains.first?["ended"] == .string("finished"))
    #expect(drains.first?["writer"]?["program"] == .string("verdicts"))
    #expect(drains.first?["writer"]?["mode"] == .string("drain"))
    #expect(drains.contains { $0["retry_after_seconds"] == .number(5) })
    let numbers = drains.compactMap { $0["number"]?.intValue }
    #expect(numbers == numbers.sorted(by: >))
    let limited = try Binary.run(["history", "--limit", "2", "--json"], store: t.store, home: t.path)
    #expect(limited.json?.arrayValue?.count == 2)
    let since = try Binary.run(["history", "--since", "1h"], store: t.store, home: t.path)
    #expect(since.code == 0)
    #expect(since.stdout.contains("unavailable") && since.stdout.contains("finished"), "\(since.stdout)")
    let future = try Binary.run(["history", "--since", "2999-01-01"], store: t.store, home: t.path)
    #expect(future.stdout.contains("no drain kept since"), "\(future.stdout)")
    let bad = try Binary.run(["history", "--since", "yesterday"], store: t.store, home: t.path)
    #expect(bad.code == 2, "\(bad)")

    // show: the night's attempts of w1, newest first, as text and JSON.
    let shown = try Binary.run(["show", w1, "--json"], store: t.store, home: t.path)
    let attempts = try #require(shown.json?["attempts"]?.arrayValue)
    #expect(attempts.compactMap { $0["result"]?.stringValue } == ["accepted", "failed", "dropped", "failed"])
    #expect(attempts.compactMap { $0["status"]?.intValue }.filter { $0 != 200 && $0 != 201 } == [429, 502])
    #expect(shown.json?["attempts_omitted"] == .number(0))
    let text = try Binary.run(["show", w1], store: t.store, home: t.path)
    #expect(text.stdout.contains("attempts"), "\(text.stdout)")
    #expect(text.stdout.contains("dropped") && text.stdout.contains("HTTP 502") && text.stdout.contains("HTTP 429"))
    let blockedText = try Binary.run(["show", blocked], store: t.store, home: t.path)
    #expect(blockedText.stdout.contains("blocked conflict_unresolved"), "\(blockedText.stdout)")

    // queue --json carries them for every write.
    let queue = try Binary.run(["queue", "--json"], store: t.store, home: t.path)
    let rows = try #require(queue.json?.arrayValue)
    #expect(rows.allSatisfy { $0["attempts"]?.arrayValue != nil && $0["attempts_omitted"] != nil })

    // status names the last drain and the last that answered.
    let status = try Binary.run(["status"], store: t.store, home: t.path)
    #expect(status.stdout.contains("drain history") && status.stdout.contains("#\(numbers[0])"), "\(status.stdout)")
    let statusJSON = try Binary.run(["status", "--json"], store: t.store, home: t.path)
    #expect(statusJSON.json?["last_drain_record"]?["number"] == .number(JSONNumber(numbers[0])))
    #expect(statusJSON.json?["last_answering_drain"]?["answered"]?.intValue ?? 0 > 0)
  }

  @Test func theScreenShowsTheAttemptsInTheDetailAndTheDrainsUnderH() throws {
    let (instance, t, _, _) = try night()
    defer { instance.stop() }
    let pty = try ScreenPty(
      ["--store", t.store, "watch"], environment: Binary.environment(store: nil, home: t.path, [:]), width: 160,
      height: 48)
    defer { pty.stop() }
    #expect(pty.waitFor("Answered 1", timeout: 20), "\(pty.text.suffix(2000).debugDescription)")
    pty.type("2")
    #expect(pty.waitFor("attempts", timeout: 20), "\(pty.text.suffix(3000).debugDescription)")
    #expect(pty.waitFor("dropped", timeout: 20), "\(pty.text.suffix(3000).debugDescription)")
    pty.type("H")
    #expect(pty.waitFor("drains kept", timeout: 20), "\(pty.text.suffix(3000).debugDescription)")
    #expect(pty.waitFor("unavailable", timeout: 20))
    pty.type("q")
    pty.type("q")
    #expect(pty.waitForExit(timeout: 20))
  }
}
