import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

/// Through the built binary, against the scripted instance: a night of a failing gateway, a
/// dropped connection, a 429, a write that ends blocked and a refused one discarded by mistake,
/// told afterwards by `history`, `show`, `departed`, `undo` and `report` (docs/cli.md, "After
/// the fact").
@Suite(.serialized) struct ScriptedNightBinaryTests {
  static let key = "k-scripted-night-5be1"
  static let password = "night-pw-3d8e"

  func json(_ args: [String], _ t: TempFolder, _ e: [String: String] = [:]) throws -> CommandResult {
    let r = try Binary.run(["--json"] + args, store: t.store, home: t.path, environment: e)
    #expect(r.code == 0, "\(args): \(r)")
    return r
  }

  func write(of item: String, _ t: TempFolder) throws -> JSONValue {
    let queue = try json(["queue"], t)
    return try #require(queue.json?.arrayValue?.first { $0["item_id"] == .string(item) })
  }

  @Test(
    "a night of failures is told afterwards and a write discarded by mistake comes back exactly and the report keeps no secret"
  ) func aNightOfFailuresIsToldAfterwardsAndAWriteDiscardedByMistakeComesBackExactlyAndTheReportKeepsNoSecret()
    throws
  {
    let gateway = ScriptedAnswer.status(
      502, body: "<html><title>502 Bad Gateway</title>proxy https://ops:\(Self.password)@proxy.example/ down</html>",
      contentType: "text/html"
    ).withoutContract()
    let instance = ScriptedInstance(
      scenario: Scenario(
        name: "scripted-night",
        rules: [
          ScriptRule(.write("night"), answers: [gateway, .drop, .rateLimited(seconds: 1), gateway], repeatsLast: true),
          .once(.write("bad"), .validation([("title", "see https://ops:\(Self.password)@wiki.example/rules")])),
        ]))
    let url = try instance.start()
    defer { instance.stop() }
    let e = ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": Self.key]
    let t = TempFolder()
    #expect(try Binary.run(["fill"], store: t.store, home: t.path, environment: e).code == 0)
    for (id, title) in [("night", "the night's write"), ("ok", "fine"), ("bad", "the content a person typed")] {
      _ = try json(["items", "create", "--type", "note", "--id", id, "--properties", #"{"title":"\#(title)"}"#], t)
    }
    // Drain until the failing write is blocked, a fresh write beside it each time, so the
    // instance answers another write in each pass (docs/failing-alone.md).
    var drains = 0
    while try write(of: "night", t)["verdict"] != .string("blocked"), drains < 8 {
      drains += 1
      _ = try json(["items", "create", "--type", "note", "--id", "late-\(drains)", "--properties", "{}"], t)
      let d = try Binary.run(["drain"], store: t.store, home: t.path, environment: e)
      #expect([0, 1, 3].contains(d.code), "\(d)")
    }
    let night = try write(of: "night", t)
    #expect(night["verdict"] == .string("blocked"))
    #expect(night["reason"] == .string("failing_alone"), "\(night)")
    let nightID = try #require(night["id"]?.stringValue)

    // Each drain is kept; the 429's wait is named.
    let history = try json(["history"], t)
    let kept = try #require(history.json?.arrayValue)
    #expect(kept.count == drains)
    #expect(kept.contains { $0["retry_after_seconds"] == .int(1) }, "\(kept)")
    #expect(kept.contains { $0["ended"] == .string("unavailable") })
    let historyText = try Binary.run(["history"], store: t.store, home: t.path)
    #expect(historyText.code == 0 && historyText.stdout.contains("unavailable"), "\(historyText)")

    // Each attempt the blocked write met, newest first: the gateway, the drop, the 429.
    let shown = try json(["show", nightID], t)
    let attempts = try #require(shown.json?["attempts"]?.arrayValue)
    #expect(attempts.count == drains, "\(attempts)")
    #expect(attempts.contains { $0["result"] == .string("failed") && $0["status"] == .int(502) })
    #expect(attempts.contains { $0["result"] == .string("dropped") })
    #expect(attempts.contains { $0["status"] == .int(429) })
    let drainsNewestFirst = attempts.compactMap { $0["drain"]?.text }
    #expect(drainsNewestFirst == drainsNewestFirst.sorted { Int($0)! > Int($1)! })
    let shownText = try Binary.run(["show", nightID], store: t.store, home: t.path)
    #expect(shownText.stdout.contains("failed HTTP 502") && shownText.stdout.contains("dropped"), "\(shownText)")

    // The refused write, discarded by mistake, is listed, shown, and put back exactly.
    let bad = try write(of: "bad", t)
    #expect(bad["verdict"] == .string("refused"))
    let badID = try #require(bad["id"]?.stringValue)
    let before = try json(["show", badID], t)
    let queueBefore = try json(["queue"], t)
    #expect(try Binary.run(["discard", badID], store: t.store, home: t.path).code == 0)
    let departed = try json(["departed"], t)
    #expect(departed.json?.arrayValue?.first?["id"] == .string(badID))
    #expect(departed.json?.arrayValue?.first?["departed"]?["event"] == .string("discarded"))
    let departedText = try Binary.run(["departed"], store: t.store, home: t.path)
    #expect(departedText.stdout.contains(badID), "\(departedText)")
    let gone = try Binary.run(["show", badID], store: t.store, home: t.path)
    #expect(gone.stdout.hasPrefix("left the queue: discarded at "), "\(gone)")
    let undo = try Binary.run(["undo", badID], store: t.store, home: t.path)
    #expect(undo.code == 0, "\(undo)")
    #expect(try json(["show", badID], t).json == before.json)
    #expect(try json(["queue"], t).json == queueBefore.json)

    // The ticket's report: it parses, carries the blocked write's attempts and the drains, and
    // no key and no URL password, within 1 MB.
    let report = try json(["report"], t, e)
    let value = try #require(report.json)
    let entry = try #require(value["problem_writes"]?.arrayValue?.first { $0["id"] == .string(nightID) })
    // The attempts as `show --json` gives them, but each text's URL without its userinfo.
    let carried = try #require(entry["attempts"]?.arrayValue)
    #expect(carried.map { $0.setting("text", .null) } == attempts.prefix(5).map { $0.setting("text", .null) })
    let redacted = attempts.prefix(5).map {
      $0.setting(
        "text", ($0["text"]?.stringValue?.replacing("ops:\(Self.password)@", with: "")).map(JSONValue.string) ?? .null)
    }
    #expect(carried == redacted)
    #expect(report.stdout.contains("proxy https://proxy.example/ down"))
    #expect(entry["attempts_omitted"] == .int(max(0, attempts.count - 5)))
    #expect(value["drain_history"] == history.json)
    let text = try Binary.run(["report"], store: t.store, home: t.path, environment: e)
    #expect(text.code == 0 && text.stdout.contains("failed HTTP 502"), "\(text)")
    for out in [report.stdout, text.stdout] {
      #expect(out.utf8.count <= 1_000_000)
      #expect(!out.contains(Self.key), "the key travelled")
      #expect(!out.contains(Self.password), "a URL's password travelled")
      #expect(!out.lowercased().contains("authorization"))
    }
    // The password did reach the store (the attempts keep the gateway's page): the report cut it.
    #expect(shown.stdout.contains(Self.password))
  }
}
