import Foundation
import ScriptedInstance

/// A started instance for one test, with one-shot raw requests against it.
final class Harness {
  let instance: ScriptedInstance
  let port: UInt16

  init(_ scenario: Scenario = .empty, rules: [ScriptRule] = []) throws {
    instance = ScriptedInstance(scenario: scenario)
    instance.addRules(rules)
    port = UInt16(try instance.start().port!)
  }

  deinit { instance.stop() }

  var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// One request on a fresh connection.
  func send(
    _ method: String, _ target: String, json: String = "", key: String? = nil, headers: [String: String] = [:]
  ) throws -> RawResponse {
    let connection = try RawConnection(port: port)
    var all = headers
    if !json.isEmpty { all["Content-Type"] = "application/json" }
    if let key { all["Idempotency-Key"] = key }
    connection.request(method, target, headers: all, body: json)
    return try connection.readResponse()
  }

  /// Creates a note and returns its id.
  @discardableResult
  func create(_ id: String, type: String = "note", properties: String = #"{"title":"first"}"#) throws -> String {
    let r = try send("POST", "/items", json: #"{"id":"\#(id)","type":"\#(type)","properties":\#(properties)}"#)
    precondition(r.status == 201, "create answered \(r.status): \(r.text)")
    return id
  }
}
