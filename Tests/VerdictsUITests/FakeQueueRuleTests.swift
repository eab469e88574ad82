import MarfaQueue
import Testing

@testable import VerdictsUI

/// The test fake asks the engine's rule (``QueuedWrite/allows(_:)``), so the screen's tests
/// see what the engine would do, for every verdict and action.
@Suite struct FakeQueueRuleTests {
  static let subjects: [QueuedWrite] =
    Fixtures.waiting + Fixtures.answered + Fixtures.blockedWrites + Fixtures.dead + [
      Fixtures.write("r-unsent", .addTag, verdict: .refused(Refusal(reason: "the create_item it waits for was dead")))
        .with { $0.sent = false },
      Fixtures.write(
        "r-gone", .addTag, verdict: .refused(Refusal(reason: "the create_item it waits for was withdrawn"))
      )
      .with {
        $0.sent = false
        $0.dependencyGone = true
      },
    ]

  @Test func everyActionOfTheFakeAnswersAsTheRuleDoes() async throws {
    for w in Self.subjects {
      for action in WriteAction.allCases {
        let q = FakeQueue(writes: [w])
        let rule = w.allows(action).isAllowed
        let done: Bool
        switch action {
        case .release: done = try await q.release(w.id)
        case .withdraw: done = try await q.withdraw(w.id)
        case .discard: done = try await q.discard(w.id)
        case .forget: done = try await q.forgetAnswered(ids: [w.id]) == 1
        }
        #expect(done == rule, "\(action) × \(w.id) (\(w.stateWords)): fake \(done), rule \(rule)")
      }
    }
  }

  @Test func theFakeRefusesADiscardOrForgetAWaitingWriteDependsOnAsTheStoreDoes() async throws {
    let create = Fixtures.write("c-1", .createItem, item: "n-1", verdict: .refused(Fixtures.refusal))
    let dependant = Fixtures.write("t-1", .addTag, item: "n-1", dependsOn: ["c-1"])
    let q = FakeQueue(writes: [create, dependant])
    #expect(try await q.discard("c-1") == false)
    #expect(FakeQueue.answer(.discard, for: create, in: [create, dependant]) == .notAllowed(.waitingDependant))
  }
}

extension QueuedWrite {
  /// A copy changed by `body`.
  func with(_ body: (inout QueuedWrite) -> Void) -> QueuedWrite {
    var w = self
    body(&w)
    return w
  }
}
