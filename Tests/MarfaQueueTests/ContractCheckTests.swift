import Foundation
import ScriptedInstance
import Testing

@testable import MarfaQueue

/// The root is read before anything else, without the key, and a root on another contract (or
/// none) is refused before the key goes anywhere; a redirect is never followed.
@Suite struct ContractCheckTests {
  /// A root answering `contract` as given (left out when nil), the header naming ours.
  static func root(contract: ScriptedJSON?) -> ScriptRule {
    var body: [String: ScriptedJSON] = ["name": "other", "instance_id": .string(Scenario.defaultInstanceId)]
    if let contract { body["contract"] = contract }
    return .always(.route("GET", "/"), .json(200, .object(body)))
  }

  @Test func theRootIsReadWithoutTheKey() async throws {
    let h = try await DrainHarness()
    _ = try await h.note()
    _ = try await h.copy.queue.drain()
    let roots = h.requests("GET", "/").filter { $0.path == "/" }
    #expect(!roots.isEmpty)
    #expect(roots.allSatisfy { $0.header("Authorization") == nil })
    #expect(h.requests("POST", "/items").first?.header("Authorization") == "Bearer k1")
  }

  @Test(arguments: [ScriptedJSON.number(3), .string("3"), .null, nil])
  func aFillRefusesARootNamingAnotherContractOrNoneSendingNothingElse(_ contract: ScriptedJSON?) async throws {
    let h = try await DrainHarness(rules: [Self.root(contract: contract)], fill: false)
    await #expect {
      try await h.copy.fill()
    } throws: { error in
      guard case QueueError.rootContractMismatch(_, let instance)? = error as? QueueError else { return false }
      return (error as? QueueError)?.code == "contract_mismatch" && instance == h.url.absoluteString
    }
    #expect(h.instance.requests.map(\.path) == ["/"])
    #expect(h.instance.requests.allSatisfy { $0.header("Authorization") == nil })
    // The copy is as it was: no fill under way.
    #expect(try await h.copy.status().fill == .never)
  }

  @Test func aDrainRefusesARootOnAnotherContractBeforeSendingAWrite() async throws {
    let h = try await DrainHarness()
    let w = try await h.note()
    h.instance.addRule(Self.root(contract: .number(3)))
    await #expect(throws: QueueError.rootContractMismatch(served: "3", instance: h.url.absoluteString)) {
      _ = try await h.copy.queue.drain()
    }
    #expect(h.requests("POST", "/items").isEmpty)
    #expect(try await h.write(w.id).verdict == nil)
  }

  @Test(arguments: ["http://127.0.0.1:1/next", nil])
  func aRedirectNamingAnotherContractIsRefusedAsARedirectAndTheWriteIsKept(_ location: String?) async throws {
    var answer = ScriptedAnswer.status(307, body: "{}").contract("999999")
    if let location { answer = answer.header("Location", location) }
    let h = try await DrainHarness(rules: [.once(.write("w-307"), answer)])
    let w = try await h.note(id: "w-307")
    let before = try await h.write(w.id)
    await #expect(throws: QueueError.redirected(status: 307, location: location, instance: h.url.absoluteString)) {
      _ = try await h.copy.queue.drain()
    }
    let after = try await h.write(w.id)
    #expect(after.verdict == nil && after.refusals == 0 && after.idempotencyKey == before.idempotencyKey)
    let message = QueueError.redirected(status: 307, location: location, instance: h.url.absoluteString).message
    #expect(message.contains(h.url.absoluteString) && message.contains(location ?? "nowhere it named"))
  }
}
