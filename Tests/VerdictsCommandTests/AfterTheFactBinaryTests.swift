import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

@testable import VerdictsCommand

/// Through the built binary: a night of failures, a refused write discarded by mistake, then
/// `departed`, `show`, `undo` and `report` (docs/cli.md, "After the fact").
@Suite(.serialized) struct AfterTheFactBinaryTests {
  static let key = "k-night-secret-7f3a"
  static let password = "hunter2-pw-91c"

  func env(_ url: URL) -> [String: String] { ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": Self.key] }

  /// A filled store after one drain: `ok` accepted, `bad` refused (its refusal names a URL with a
  /// password), `anc` blocked ancestor_unavailable, `flaky` met a gateway's page.
  func night(_ t: TempFolder) throws -> (ScriptedInstance, [String: String]) {
    let instance = ScriptedInstance(
      scenario: Scenario(
        name: "night",
        rules: [
          .once(.write("bad"), .validation([("title", "see https://ops:\(Self.password)@wiki.example/rules")])),
          .once(.write("anc"), .ancestorUnavailable),
          .always(.write("flaky"), .gatewayPage(status: 502)),
        ]))
    let url = try instance.start()
    let e = env(url)
    #expect(try Binary.run(["fill"], store: t.store, home: t.path, environment: e).code == 0)
    for (id, title) in [("ok", "fine"), ("bad", "the content a person typed"), ("anc", "a"), ("flaky", "b")] {
      let r = try Binary.run(
        ["items", "create", "--type", "note", "--id", id, "--properties", #"{"title":"\#(title)"}"#],
        store: t.store, home: t.path)
      #expect(r.code == 0, "\(r)")
    }
    _ = try Binary.run(["drain"], store: t.store, home: t.path, environment: e)
    return (instance, e)
  }

  func id(of item: String, _ t: TempFolder) throws -> String {
    let queue = try Binary.run(["--json", "queue"], store: t.store, home: t.path)
    return try #require(queue.json?.arrayValue?.first { $0["item_id"] == .string(item) }?["id"]?.stringValue)
  }

  @Test func aRefusedWriteDiscardedByMistakeIsListedShownAndPutBackAsItWas() throws {
    let t = TempFolder()
    let (instance, _) = try night(t)
    defer { instance.stop() }
    let bad = try id(of: "bad", t)
    let before = try Binary.run(["--json", "queue"], store: t.store, home: t.path)
    #expect(before.json?.arrayValue?.first { $0["id"] == .string(bad) }?["verdict"] == .string("refused"))

    #expect(try Binary.run(["discard", bad], store: t.store, home: t.path).code == 0)
    let departed = try Binary.run(["--json", "departed"], store: t.store, home: t.path)
    #expect(departed.code == 0, "\(departed)")
    let kept = try #require(departed.json?.arrayValue?.first)
    #expect(kept["id"] == .string(bad))
    #expect(kept["departed"]?["event"] == .string("discarded"))
    #expect(kept["departed"]?["by"]?["mode"] == .string("discard"))
    #expect(kept["body"]?["properties"]?["title"] == .string("the content a person typed"))
    let listed = try Binary.run(["departed"], store: t.store, home: t.path)
    #expect(listed.stdout.contains(bad) && listed.stdout.contains("discarded"), "\(listed)")

    let shown = try Binary.run(["show", String(bad.suffix(8))], store: t.store, home: t.path)
    #expect(shown.code == 0, "\(shown)")
    #expect(shown.stdout.hasPrefix("left the queue: discarded at "), "\(shown)")
    #expect(shown.stdout.contains("verdicts undo \(bad) puts it back"))

    let undo = try Binary.run(["undo", String(bad.suffix(8))], store: t.store, home: t.path)
    #expect(undo.code == 0, "\(undo)")
    #expect(undo.stdout.hasPrefix("put back \(bad) (discarded "), "\(undo)")
    let after = try Binary.run(["--json", "queue"], store: t.store, home: t.path)
    #expect(after.json == before.json)
    let again = try Binary.run(["undo", bad], store: t.store, home: t.path)
    #expect(again.code == 4)
    #expect(again.stderr.contains("cannot be put back: is in the queue"), "\(again)")
  }

  @Test func aWithdrawnWriteIsNotPutBackAndTheMessageSaysWhyWhileShowStillReadsIt() throws {
    let t = TempFolder()
    let (instance, e) = try night(t)
    defer { instance.stop() }
    let anc = try id(of: "anc", t)
    let withdraw = try Binary.run(["withdraw", anc], store: t.store, home: t.path, environment: e)
    #expect(withdraw.code == 0, "\(withdraw)")
    let undo = try Binary.run(["--json", "undo", anc], store: t.store, home: t.path)
    #expect(undo.code == 4, "\(undo)")
    let envelope = try #require(JSONValue.parse(String(undo.stderr.split(separator: "\n").last ?? "")))
    #expect(envelope["error"]?["code"] == .string("undo_refused"))
    let message = envelope["error"]?["message"]?.stringValue ?? ""
    #expect(message.contains("was withdrawn") && message.contains("refused"), "\(message)")
    let shown = try Binary.run(["--json", "show", anc], store: t.store, home: t.path)
    #expect(shown.json?["departed"]?["event"] == .string("withdrawn"))
    #expect(shown.json?["departed"]?["undoable"] == .bool(false))
    #expect(shown.json?["body"]?["properties"]?["title"] == .string("a"))
    // As text: when and why it left, and no action offered for a write no longer in the queue.
    let text = try Binary.run(["show", anc], store: t.store, home: t.path)
    #expect(text.stdout.hasPrefix("left the queue: withdrawn at "), "\(text)")
    #expect(text.stdout.contains("verdict      ■ blocked"), "\(text)")
    #expect(!text.stdout.contains("clears by"), "\(text)")
    #expect(!text.stdout.contains("release (r)") && !text.stdout.contains("withdraw (w)"), "\(text)")
  }

  @Test func theReportParsesHoldsNoKeyNoPasswordAndNoBodiesUnlessAsked() throws {
    let t = TempFolder()
    let (instance, e) = try night(t)
    defer { instance.stop() }
    let bad = try id(of: "bad", t)
    _ = try Binary.run(["discard", bad], store: t.store, home: t.path)
    let json = try Binary.run(["--json", "report"], store: t.store, home: t.path, environment: e)
    #expect(json.code == 0, "\(json)")
    let report = try #require(json.json)
    #expect(report["report"]?["tool"] == .string(CommandTable.version))
    #expect(report["store"]?["kind"] == .string("verdicts"))
    #expect(report["store"]?["fill"] == .string("complete"))
    #expect(report["counts"]?["blocked"] == .number(1))
    #expect(report["blocked_reasons"]?["ancestor_unavailable"] == .number(1))
    let problems = try #require(report["problem_writes"]?.arrayValue)
    let anc = try #require(problems.first { $0["item_id"] == .string("anc") })
    // The blocked write's attempts, as `show --json` gives them, and the drains, as `history --json`.
    let shownAnc = try Binary.run(["--json", "show", try id(of: "anc", t)], store: t.store, home: t.path)
    #expect(anc["attempts"]?.arrayValue?.first?["result"] == .string("blocked"))
    #expect(anc["attempts"] == shownAnc.json?["attempts"])
    #expect(anc["attempts_omitted"] == .int(0))
    let history = try Binary.run(["--json", "history"], store: t.store, home: t.path)
    #expect(report["drain_history"] == history.json)
    #expect(report["drain_history"]?.arrayValue?.count == 1)
    #expect(report["departed_last_7_days"]?.arrayValue?.first?["id"] == .string(bad))
    #expect(report["departed_last_7_days"]?.arrayValue?.first?["body"] == .null)
    #expect(report["last_drain"]?["answered"] != nil)
    #expect(report["not_kept"] == .array([]))
    let text = try Binary.run(["report"], store: t.store, home: t.path, environment: e)
    #expect(text.code == 0)
    #expect(text.stdout.contains("== problem writes =="))
    #expect(text.stdout.contains("== drain history =="))
    #expect(text.stdout.contains(" #1 blocked "), "\(text.stdout)")
    #expect(!text.stdout.contains("not yet in this report"))
    for out in [json.stdout, text.stdout] {
      #expect(!out.contains(Self.key), "the key travelled")
      #expect(!out.contains(Self.password), "a URL's password travelled")
      #expect(!out.lowercased().contains("authorization"))
      #expect(!out.contains("the content a person typed"), "a body travelled without --with-bodies")
    }
    let bodies = try Binary.run(["--json", "report", "--with-bodies"], store: t.store, home: t.path, environment: e)
    #expect(bodies.stdout.contains("the content a person typed"))
    #expect(!bodies.stdout.contains(Self.key) && !bodies.stdout.contains(Self.password))
  }

  @Test func reportOutputIsANewOwnerOnlyFileAndNeverWritesOverOne() throws {
    let t = TempFolder()
    let (instance, e) = try night(t)
    defer { instance.stop() }
    let file = t.file("ticket.txt")
    let r = try Binary.run(["report", "--output", file], store: t.store, home: t.path, environment: e)
    #expect(r.code == 0, "\(r)")
    let written = try String(contentsOfFile: file, encoding: .utf8)
    #expect(written.hasPrefix("verdicts report\n"))
    let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let again = try Binary.run(["report", "--output", file], store: t.store, home: t.path, environment: e)
    #expect(again.code == 2, "\(again)")
    #expect(try String(contentsOfFile: file, encoding: .utf8) == written)
  }

  @Test func theReportReadsAStoreAnotherProcessHoldsAsWriter() throws {
    let t = TempFolder()
    let (instance, _) = try night(t)
    defer { instance.stop() }
    let holder = try Spawned(
      ["--json", "hold", "--seconds", "60"], environment: Binary.environment(store: t.store, home: t.path, [:]))
    defer {
      holder.kill()
      _ = holder.wait(timeout: 10)
    }
    #expect(holder.waitForLine(timeout: 20), "hold printed nothing: \(holder.stderr)")
    let r = try Binary.run(["--json", "report"], store: t.store, home: t.path)
    #expect(r.code == 0, "\(r)")
    #expect(r.json?["store"]?["opened_as"]?.stringValue?.hasPrefix("reader") == true, "\(r.stdout.prefix(600))")
  }
}

extension AfterTheFactBinaryTests {
  @Test func theReportOfAMarfaCoreStoreSaysWhatThatStoreDoesNotKeepAndChangesNothing() throws {
    let t = TempFolder()
    let path = t.file("device.sqlite")
    let fixture = try CoreStoreFixture.everyShape(path: path)
    defer { fixture.close() }
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let r = try Binary.run(["--json", "report"], store: path, home: t.path)
    #expect(r.code == 0, "\(r)")
    #expect(r.json?["store"]?["kind"] == .string("marfa_core"))
    let notKept = r.json?["not_kept"]?.arrayValue?.compactMap(\.stringValue) ?? []
    #expect(notKept.contains { $0.contains("keeps no archive") }, "\(notKept)")
    #expect(notKept.contains { $0.contains("keeps no attempt") }, "\(notKept)")
    #expect(notKept.contains { $0.contains("keeps no history of its drains") }, "\(notKept)")
    #expect(r.json?["drain_history"] == .array([]))
    #expect(r.json?["problem_writes"]?.arrayValue?.isEmpty == false)
    let text = try Binary.run(["report"], store: path, home: t.path)
    #expect(text.code == 0 && text.stdout.contains("== not kept =="))
    let departed = try Binary.run(["departed"], store: path, home: t.path)
    #expect(departed.code == 0 && departed.stdout.contains("keeps no archive"))
    #expect(try Binary.run(["undo", "w-held"], store: path, home: t.path).code == 4)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }
}
