import Testing

@testable import MarfaQueue

/// The drain's decisions with no sockets and no store: every way an answer
/// is classified, the set-aside, the end, the stop, held writes and `failingAlone` at the end.
@Suite struct DrainMachineTests {
  static let refusal = Refusal(reason: "validation_error")

  static func environmental(rateLimited: Bool = false) -> Outcome {
    .environmental(
      status: rateLimited ? 429 : 503, text: nil, why: "the instance answered 503", rateLimited: rateLimited)
  }

  /// A machine that sent one write and got `outcome`.
  static func after(_ outcome: Outcome, streakBefore: Int = 0) -> (DrainMachine, DrainMachine.Action) {
    var m = DrainMachine()
    #expect(m.event(.next) == .send)
    let action = m.event(.answered(id: "w", streakBefore: streakBefore, outcome))
    return (m, action)
  }

  static let row = AnsweredRow(value: .object([("id", .string("n1"))]), text: #"{"id":"n1"}"#)

  @Test(arguments: [
    (
      Outcome.success(.accepted, row: row, replayed: false),
      DrainMachine.Action.settle(.accepted, row: row, replayed: false)
    ),
    (
      .success(.merged(fields: ["a"]), row: nil, replayed: true),
      .settle(.merged(fields: ["a"]), row: nil, replayed: true)
    ),
    (
      .success(.conflicted(siblingId: "s", fields: []), row: nil, replayed: false),
      .settle(.conflicted(siblingId: "s", fields: []), row: nil, replayed: false)
    ),
    (.refused(refusal), .settleAndReadBack(refusal)),
    (.blocked(.keySpent, refusal), .settle(.blocked(reason: .keySpent, refusal: refusal), row: nil, replayed: false)),
    (
      .blocked(.conflictUnresolved, refusal),
      .settle(.blocked(reason: .conflictUnresolved, refusal: refusal), row: nil, replayed: false)
    ),
    (
      .blocked(.credentialRefused, refusal),
      .settle(.blocked(reason: .credentialRefused, refusal: refusal), row: nil, replayed: false)
    ),
    (.unclaimedSource("src", refusal), .blockSource("src", refusal)),
    (.counted("the instance reported the key in flight"), .countRefusal),
  ])
  func everyAnswerTheInstanceGaveIsCountedAnsweredAndStoredAsItSays(_ outcome: Outcome, _ expected: DrainMachine.Action)
  {
    let (m, action) = Self.after(outcome)
    #expect(action == expected)
    #expect(m.state == .sending)
    #expect(m.report.answered == 1)
    #expect(m.report.undelivered == 0 && m.report.unavailable == nil)
  }

  @Test func aFirstEnvironmentalFailureEndsThePassAndSaysWhy() {
    var (m, action) = Self.after(Self.environmental())
    #expect(action == .recordFailure(status: 503, text: nil, addToStreak: true))
    #expect(m.state == .ended)
    #expect(m.report.undelivered == 1)
    #expect(m.report.answered == 0)
    #expect(m.report.unavailable == "the instance answered 503")
    // The writes after are only checked for readiness: held stays held, the rest undelivered.
    #expect(m.event(.next) == .checkReadiness)
    _ = m.event(.unsent(.held))
    #expect(m.event(.next) == .checkReadiness)
    _ = m.event(.unsent(.undelivered))
    #expect(m.event(.next) == .checkReadiness)
    _ = m.event(.unsent(.refused))
    #expect(m.report.held == 1 && m.report.undelivered == 2 && m.report.unsent == 1)
  }

  @Test func aWriteThatFailedInTheLastDrainTooIsSetAsideAndThePassGoesOn() {
    var (m, _) = Self.after(Self.environmental(), streakBefore: 1)
    #expect(m.state == .sending)
    #expect(m.setAside == ["w": 2])
    #expect(m.report.undelivered == 1 && m.report.unavailable == nil)
    // A second environmental failure in the same pass is an outage: it ends the pass.
    #expect(m.event(.next) == .send)
    _ = m.event(.answered(id: "v", streakBefore: 1, Self.environmental()))
    #expect(m.state == .ended)
    #expect(m.setAside.keys.sorted() == ["w"])
  }

  @Test func aRateLimitIsNeverSetAsideAndAddsNothingToTheStreak() {
    let (m, action) = Self.after(Self.environmental(rateLimited: true), streakBefore: 1)
    #expect(action == .recordFailure(status: 429, text: nil, addToStreak: false))
    #expect(m.state == .ended)
    #expect(m.setAside.isEmpty)
  }

  @Test func aSetAsideWriteWhoseStreakReachedTheMarkIsBlockedWhenAnotherWasAnswered() {
    var (m, _) = Self.after(Self.environmental(), streakBefore: QueueLimits.failingAloneStreak - 1)
    _ = m.event(.next)
    _ = m.event(.answered(id: "other", streakBefore: 0, .success(.accepted, row: nil, replayed: false)))
    #expect(m.event(.exhausted) == .blockFailingAlone(["w"]))
    #expect(m.state == .finished)
  }

  @Test func aSetAsideWriteStaysUnansweredWhenNothingElseWasAnsweredOrItsStreakIsShort() {
    var alone = Self.after(Self.environmental(), streakBefore: QueueLimits.failingAloneStreak - 1).0
    #expect(alone.event(.exhausted) == .blockFailingAlone([]))
    var short = Self.after(Self.environmental(), streakBefore: QueueLimits.failingAloneStreak - 2).0
    _ = short.event(.answered(id: "other", streakBefore: 0, .refused(Self.refusal)))
    #expect(short.event(.exhausted) == .blockFailingAlone([]))
  }

  @Test func aRefusedKeyStopsThePassAndNothingMoreIsVisited() {
    var (m, action) = Self.after(.credentialStop(Self.refusal))
    #expect(action == .park(Self.refusal))
    #expect(m.report.answered == 1, "the write that met the refusal was answered")
    #expect(m.event(.keyRefused(why: "the instance refused the key")) == .stop)
    #expect(m.state == .stopped)
    #expect(m.report.stopped == "the instance refused the key")
    #expect(m.event(.next) == .stop)
    _ = m.event(.exhausted)
    #expect(m.state == .stopped)
  }

  @Test(arguments: [
    (Outcome.contractMismatch(served: "3"), DrainMachine.Action.fail(.contractMismatch(served: "3"), keepAnswer: true)),
    (
      .redirect(status: 307, location: nil),
      .fail(.redirected(status: 307, location: nil, instance: ""), keepAnswer: false)
    ),
  ])
  func anAnswerTheDrainCannotTakeFailsItCountingNothing(_ outcome: Outcome, _ expected: DrainMachine.Action) {
    let (m, action) = Self.after(outcome)
    #expect(action == expected)
    #expect(m.report.answered == 0 && m.report.undelivered == 0)
  }

  @Test func aReadBackThatCannotBeMadeEndsThePassAfterTheRefusalIsCounted() {
    var (m, _) = Self.after(.refused(Self.refusal))
    _ = m.event(.readBackFailed(why: "a refused write's row could not be read back: timeout"))
    #expect(m.state == .ended)
    #expect(m.report.answered == 1)
    #expect(m.report.unavailable?.hasPrefix("a refused write's row") == true)
  }

  @Test func everyWriteThePassComesToLandsInExactlyOneCount() {
    var m = DrainMachine()
    let steps: [DrainMachine.Event] = [
      .unsent(.held), .unsent(.refused), .unsent(.instanceChanged), .unsent(.unmade),
      .answered(id: "a", streakBefore: 0, .success(.accepted, row: nil, replayed: false)),
      .answered(id: "b", streakBefore: 0, Self.environmental()),
      .unsent(.held), .unsent(.undelivered),
    ]
    for step in steps {
      _ = m.event(.next)
      _ = m.event(step)
    }
    _ = m.event(.exhausted)
    let r = m.report
    #expect(r.answered + r.held + r.undelivered + r.unsent + r.unmade == steps.count)
    #expect([r.answered, r.held, r.undelivered, r.unsent, r.unmade] == [1, 2, 2, 2, 1])
  }
}
