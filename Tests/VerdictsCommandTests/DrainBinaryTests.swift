import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

/// The built binary against a scripted instance, as users run it: fill, queue, drain, exit codes.
@Suite(.serialized) struct DrainBinaryTests {
  func env(_ url: URL, key: String = "k1") -> [String: String] {
    ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": key]
  }

  @Test func drainJSONPrintsTheWholeReportAndExitsZeroWhateverTheVerdicts() throws {
    let instance = ScriptedInstance(
      scenario: Scenario(name: "t", rules: [.once(.write("bad"), .validation([("title", "is required")]))]))
    let url = try instance.start()
    defer { instance.stop() }
    let t = TempFolder()
    let e = env(url)
    #expect(try Binary.run(["fill"], store: t.store, home: t.path, environment: e).code == 0)
    #expect(
      try Binary.run(
        ["items", "create", "--type", "note", "--properties", #"{"title":"a"}"#], store: t.store, home: t.path
      ).code == 0)
    #expect(
      try Binary.run(
        ["items", "create", "--type", "note", "--id", "bad", "--properties", "{}"], store: t.store, home: t.path
      ).code == 0)
    let drain = try Binary.run(["drain", "--json"], store: t.store, home: t.path, environment: e)
    #expect(drain.code == 0, "\(drain)")
    #expect(drain.json?["answered"] == .number(2))
    #expect(drain.json?["verdicts"]?.arrayValue?.count == 2)
    let queue = try Binary.run(["queue", "--json"], store: t.store, home: t.path)
    let verdicts = queue.json?.arrayValue?.compactMap { $0["verdict"]?.stringValue }
    #expect(verdicts == ["accepted", "refused"])
    #expect(queue.json?.arrayValue?.last?["refusal"]?["fields"]?.arrayValue?.first?["field"] == .string("title"))
    #expect(!queue.stdout.contains("k1"))
  }

  @Test func aDrainThatLeftWritesUndeliveredExitsThree() throws {
    let instance = ScriptedInstance(scenario: Scenario(name: "t", rules: [.once(.write("w"), .serverFault)]))
    let url = try instance.start()
    defer { instance.stop() }
    let t = TempFolder()
    let e = env(url)
    _ = try Binary.run(["fill"], store: t.store, home: t.path, environment: e)
    _ = try Binary.run(
      ["items", "create", "--type", "note", "--id", "w", "--properties", "{}"], store: t.store, home: t.path)
    let drain = try Binary.run(["drain", "--json"], store: t.store, home: t.path, environment: e)
    #expect(drain.code == 3, "\(drain)")
    #expect(drain.json?["undelivered"] == .number(1))
    // The report on stdout says why; stderr stays empty, as the contract's command has it.
    #expect(drain.stderr.isEmpty, "\(drain)")
    let queue = try Binary.run(["queue", "--json"], store: t.store, home: t.path)
    #expect(queue.json?.arrayValue?.first?["last_failure"]?["status"] == .number(500))
    #expect(queue.json?.arrayValue?.first?["environmental_streak"] == .number(1))
  }

  @Test func aDrainStoppedByARefusedKeyExitsFiveAndAnotherKeySendsIt() throws {
    let instance = ScriptedInstance(scenario: Scenario(name: "t"))
    instance.acceptedKeys = ["good"]
    let url = try instance.start()
    defer { instance.stop() }
    let t = TempFolder()
    _ = try Binary.run(["fill"], store: t.store, home: t.path, environment: env(url, key: "good"))
    _ = try Binary.run(["items", "create", "--type", "note", "--properties", "{}"], store: t.store, home: t.path)
    let stopped = try Binary.run(["drain", "--json"], store: t.store, home: t.path, environment: env(url, key: "bad"))
    #expect(stopped.code == 5, "\(stopped)")
    #expect(stopped.json?["stopped"]?.stringValue?.contains("parked") == true)
    let again = try Binary.run(["drain", "--json"], store: t.store, home: t.path, environment: env(url, key: "good"))
    #expect(again.code == 0, "\(again)")
    #expect(again.json?["answered"] == .number(1))
  }

  @Test func aDrainBeforeAnyFillIsRefusedNoCursorWithExitFour() throws {
    let instance = ScriptedInstance(scenario: Scenario(name: "t"))
    let url = try instance.start()
    defer { instance.stop() }
    let t = TempFolder()
    _ = try Binary.run(["items", "create", "--type", "note", "--properties", "{}"], store: t.store, home: t.path)
    let drain = try Binary.run(["drain", "--json"], store: t.store, home: t.path, environment: env(url))
    #expect(drain.code == 4)
    #expect(drain.errorCode == "no_cursor")
    #expect(instance.requests.filter { $0.method == "POST" }.isEmpty)
  }

  @Test func withdrawReadsTheRowBackFromTheInstance() throws {
    let instance = ScriptedInstance(
      scenario: Scenario(
        name: "t", items: [SeedItem(id: "n1", type: "note")],
        rules: [.once(.route("PATCH", "/items/n1"), .versionConflict)]))
    let url = try instance.start()
    defer { instance.stop() }
    let t = TempFolder()
    let e = env(url)
    _ = try Binary.run(["fill"], store: t.store, home: t.path, environment: e)
    let queued = try Binary.run(
      ["items", "update", "n1", "--properties", #"{"a":1}"#, "--as-read", "--json"], store: t.store, home: t.path)
    let id = try #require(queued.json?["id"]?.stringValue)
    _ = try Binary.run(["drain"], store: t.store, home: t.path, environment: e)
    let withdraw = try Binary.run(["withdraw", id, "--json"], store: t.store, home: t.path, environment: e)
    #expect(withdraw.code == 0, "\(withdraw)")
    #expect(withdraw.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "true")
    #expect(instance.requests.contains { $0.method == "GET" && $0.path == "/items/n1" })
  }
}
