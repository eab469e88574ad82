import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

/// Write IDs as a person types them, through the built binary: the full ID, the short form the
/// screen shows (with or without `…`), a unique prefix or suffix; ambiguous and unknown ones.
@Suite(.serialized) struct WriteIDBinaryTests {
  /// A store with two answered writes: one accepted, one refused for a missing title.
  struct Answered {
    var folder: TempFolder
    var env: [String: String]
    var accepted: String
    var refused: String
    var instance: ScriptedInstance

    func run(_ line: [String]) throws -> CommandResult {
      try Binary.run(line, store: folder.store, home: folder.path, environment: env)
    }
  }

  func answered() throws -> Answered {
    let instance = ScriptedInstance(
      scenario: Scenario(name: "t", rules: [.once(.write("bad"), .validation([("title", "is required")]))]))
    let url = try instance.start()
    let t = TempFolder()
    let e = ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": "k1"]
    #expect(try Binary.run(["fill"], store: t.store, home: t.path, environment: e).code == 0)
    let a = try Binary.run(
      ["--json", "items", "create", "--type", "note", "--properties", #"{"title":"a"}"#], store: t.store, home: t.path)
    let b = try Binary.run(
      ["--json", "items", "create", "--type", "note", "--id", "bad", "--properties", "{}"], store: t.store, home: t.path
    )
    #expect(try Binary.run(["drain"], store: t.store, home: t.path, environment: e).code == 0)
    return Answered(
      folder: t, env: e, accepted: try #require(a.json?["id"]?.stringValue),
      refused: try #require(b.json?["id"]?.stringValue), instance: instance)
  }

  func ids(_ s: Answered) throws -> [String] {
    try s.run(["--json", "queue"]).json?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
  }

  @Test func showTakesTheFullIDTheShownFormWithAndWithoutEllipsisAndAUniquePrefix() throws {
    let s = try answered()
    defer { s.instance.stop() }
    let id = s.refused
    let tail = String(id.suffix(8))
    let forms: [String] = [id, "…" + tail, "..." + tail, "~" + tail, tail, String(id.dropLast())]
    for typed in forms {
      let r = try s.run(["--json", "show", typed])
      #expect(r.code == 0, "\(typed): \(r)")
      #expect(r.json?["id"]?.stringValue == id, "\(typed): \(r)")
    }
  }

  @Test func showPrintsTheDetailWithTheRefusalAndJSONIsOneValue() throws {
    let s = try answered()
    defer { s.instance.stop() }
    let text = try s.run(["show", "…" + s.refused.suffix(8)])
    #expect(text.code == 0, "\(text)")
    let lines = text.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "id           \(s.refused)")
    #expect(lines.contains { $0.hasPrefix("verdict") && $0.contains("refused") })
    #expect(lines.contains { $0.hasPrefix("refusal") })
    #expect(lines.contains { $0.hasPrefix("fields") && $0.contains("title: is required") })
    #expect(lines.contains("body"))
    #expect(lines.contains("answer"))
    let json = try s.run(["show", "--json", s.refused])
    #expect(json.json?["verdict"]?.stringValue == "refused")
    #expect(json.json?["waited_on_by"] == .array([]))
    #expect(json.json?["environmental_streak"] == .number(0))
  }

  @Test func aPartMoreThanOneWriteHasIsRefusedListingTheMatchesExitTwoAndNothingChanges() throws {
    let s = try answered()
    defer { s.instance.stop() }
    let shared = String(s.accepted.prefix(6))
    try #require(s.refused.hasPrefix(shared), "the two writes were minted far apart")
    let before = try ids(s)
    for action in [["discard"], ["forget"], ["release"], ["show"]] {
      let r = try s.run(["--json"] + action + [shared])
      #expect(r.code == 2, "\(action): \(r)")
      #expect(r.errorCode == "ambiguous", "\(action): \(r)")
      let message = r.envelope?["error"]?["message"]?.stringValue ?? ""
      #expect(message.contains(s.accepted) && message.contains(s.refused), "\(message)")
    }
    #expect(try ids(s) == before)
  }

  @Test func anUnknownIDIsNotFoundExitFourNamingTheClosest() throws {
    let s = try answered()
    defer { s.instance.stop() }
    var typo = Array(s.refused.suffix(8))
    typo[3] = typo[3] == "0" ? "1" : "0"
    let r = try s.run(["--json", "discard", "…" + String(typo)])
    #expect(r.code == 4, "\(r)")
    #expect(r.errorCode == "not_found")
    #expect(r.envelope?["error"]?["message"]?.stringValue?.contains("the closest: \(s.refused)") == true, "\(r)")
    let text = try s.run(["release", "zzzzzzzzzzzzzz"])
    #expect(text.code == 4)
    #expect(text.stderr.contains("the queue holds no write zzzzzzzzzzzzzz"), "\(text)")
  }

  @Test func discardAndForgetActOnTheWriteAShortFormNames() throws {
    let s = try answered()
    defer { s.instance.stop() }
    let discard = try s.run(["discard", String(s.refused.suffix(8))])
    #expect(discard.code == 0, "\(discard)")
    #expect(discard.stdout == "discarded \(s.refused) and the content it carried\n")
    let forget = try s.run(["forget", "…" + s.accepted.suffix(8)])
    #expect(forget.stdout == "forgot 1 answered write(s)\n", "\(forget)")
    #expect(try ids(s) == [])
  }

  @Test func releaseAndWithdrawNameTheFullIDOfAShortFormTheRuleRefuses() throws {
    let s = try answered()
    defer { s.instance.stop() }
    let short = "…" + s.accepted.suffix(8)
    let release = try s.run(["release", short])
    #expect(release.code == 0, "\(release)")
    #expect(release.stdout.hasPrefix("nothing released: \(s.accepted) is accepted"), "\(release)")
    let withdraw = try s.run(["withdraw", short])
    #expect(withdraw.stdout.hasPrefix("\(s.accepted) was not withdrawn: it is accepted"), "\(withdraw)")
  }
}
