import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

/// A JSON number given on the command line reaches the instance as its text, digit for digit.
@Suite(.serialized) struct NumberRoundTripTests {
  @Test func numbersADoubleWouldChangeReachTheInstanceExactlyAsTyped() throws {
    let instance = ScriptedInstance(scenario: Scenario(name: "t", rules: []))
    let url = try instance.start()
    defer { instance.stop() }
    let t = TempFolder()
    let e = ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": "k1"]
    #expect(try Binary.run(["fill"], store: t.store, home: t.path, environment: e).code == 0)
    let numbers = #"{"big":12345678901234567890,"odd":9007199254740993,"huge":1e400,"neg":-0,"frac":1.50}"#
    let queued = try Binary.run(
      ["--json", "items", "create", "--type", "note", "--id", "n1", "--properties", numbers], store: t.store,
      home: t.path)
    #expect(queued.code == 0, "\(queued)")
    #expect(queued.stdout.contains(numbers), "the queued write shows the numbers as given: \(queued.stdout)")
    let drain = try Binary.run(["drain", "--json"], store: t.store, home: t.path, environment: e)
    #expect(drain.code == 0, "\(drain)")
    let create = try #require(instance.requests.first { $0.method == "POST" && $0.path == "/items" })
    let sent = String(decoding: create.body, as: UTF8.self)
    #expect(sent.contains(numbers), "the instance received: \(sent)")
  }
}
