/// The decisions of one drain pass, with no I/O (contract 5 with docs/rules.md): which write
/// goes, how each answer is counted, when a write is set aside, when the pass ends or stops, and
/// which set-aside writes are blocked `failingAlone` at its end.
///
/// ``DrainPass`` is the thin loop around it that reads the store and sends the requests: it tells
/// the machine each ``Event`` and does the ``Action`` it answers. The machine keeps the report's
/// counts, so every write the pass comes to lands in exactly one of them.
struct DrainMachine: Sendable {
  /// Where the pass stands.
  enum State: Sendable, Equatable {
    /// Sending the writes in order.
    case sending
    /// Ended early (an environmental failure, a read-back that could not be made): the writes
    /// after are only checked for readiness, never sent.
    case ended
    /// Stopped by a refused key: the writes after are not visited.
    case stopped
    /// The queue was gone through.
    case finished
  }

  /// What a write came to without a request, as the loop found it.
  enum Unsent: Sendable, Equatable {
    /// Held behind another write (marked waiting).
    case held
    /// Refused unsent by the drain itself.
    case refused
    /// Queued against another instance: blocked `instanceChanged`, not sent.
    case instanceChanged
    /// Its request could not be made: counted against the ceiling.
    case unmade
    /// Free to go, but the pass had ended: not sent.
    case undelivered
    /// Answered or taken out since the batch was read.
    case gone
  }

  /// What the loop tells the machine.
  enum Event: Sendable {
    /// The pass comes to the next unanswered write.
    case next
    /// The write came to this without a request.
    case unsent(Unsent)
    /// The answer to a sent write (or its transport failure), classified; `streakBefore` is the
    /// write's environmental streak before this drain.
    case answered(id: String, streakBefore: Int, Outcome)
    /// A refused write's row could not be read back: nothing more is sent.
    case readBackFailed(why: String)
    /// A refused key stopped the drain (every unanswered write parked).
    case keyRefused(why: String)
    /// No unanswered write is left.
    case exhausted
  }

  /// What the machine asks the loop to do.
  enum Action: Sendable, Equatable {
    /// Nothing more for this event.
    case none
    /// Plan the write and send it.
    case send
    /// The pass ended: check the write's readiness only, and tell ``Unsent``.
    case checkReadiness
    /// The pass is stopped: visit nothing more.
    case stop
    /// Block these set-aside writes `failingAlone`, in this order.
    case blockFailingAlone([String])
    /// Store the verdict on the write (its failure cleared; the row the answer carried taken in).
    case settle(Verdict, row: AnsweredRow?, replayed: Bool)
    /// Store the instance's refusal, then read the write's row back as the instance holds it.
    case settleAndReadBack(Refusal)
    /// Block the write `credentialRefused`, with every unanswered create naming this source.
    case blockSource(String, Refusal)
    /// Park every unanswered write `credentialRefused`, then tell ``Event/keyRefused(why:)``.
    case park(Refusal)
    /// Count one refusal against the ceiling (the write is dead at ``QueueLimits/ceiling``).
    case countRefusal
    /// Keep what the failure left (`lastFailure`) and add to the streak unless rate-limited.
    case recordFailure(status: Int?, text: String?, addToStreak: Bool)
    /// End the drain with this error, the answer kept on the write when `keepAnswer`.
    case fail(QueueError, keepAnswer: Bool)
  }

  private(set) var state = State.sending
  /// The counts, `unavailable` and `stopped` of the pass (the loop lists the verdicts).
  var report = DrainReport()
  /// Writes set aside in this pass (failing while others are answered), with their streak now.
  private(set) var setAside: [String: Int] = [:]
  /// The order writes were set aside in.
  private var setAsideOrder: [String] = []
  /// Environmental failures met in this pass.
  private(set) var environmentalFailures = 0
  /// Writes the instance answered in this pass (set-aside writes are never answered in it).
  private(set) var answeredOthers = 0

  /// Takes one event; returns what the loop does next.
  mutating func event(_ event: Event) -> Action {
    switch event {
    case .next:
      switch state {
      case .sending: return .send
      case .ended: return .checkReadiness
      case .stopped, .finished: return .stop
      }
    case .unsent(let unsent):
      switch unsent {
      case .held: report.held += 1
      case .refused, .instanceChanged: report.unsent += 1
      case .unmade: report.unmade += 1
      case .undelivered: report.undelivered += 1
      case .gone: break
      }
      return .none
    case .answered(let id, let streakBefore, let outcome):
      return answered(id, streakBefore: streakBefore, outcome)
    case .readBackFailed(let why):
      end(why)
      return .none
    case .keyRefused(let why):
      report.stopped = why
      state = .stopped
      return .stop
    case .exhausted:
      if state != .stopped { state = .finished }
      guard answeredOthers > 0 else { return .blockFailingAlone([]) }
      return .blockFailingAlone(setAsideOrder.filter { (setAside[$0] ?? 0) >= QueueLimits.failingAloneStreak })
    }
  }

  /// Counts an answer and says what to store (contract 3.3's classification, row by row); an
  /// environmental failure sets the write aside or ends the pass.
  private mutating func answered(_ id: String, streakBefore: Int, _ outcome: Outcome) -> Action {
    switch outcome {
    case .success(let verdict, let row, let replayed):
      countAnswered()
      return .settle(verdict, row: row, replayed: replayed)
    case .refused(let refusal):
      countAnswered()
      return .settleAndReadBack(refusal)
    case .blocked(let reason, let refusal):
      countAnswered()
      return .settle(.blocked(reason: reason, refusal: refusal), row: nil, replayed: false)
    case .unclaimedSource(let source, let refusal):
      countAnswered()
      return .blockSource(source, refusal)
    case .counted:
      countAnswered()
      return .countRefusal
    case .credentialStop(let refusal):
      // The write that met the refusal was answered; the others the stop parks are the
      // exception to one count per write (the report's `stopped` says them).
      countAnswered()
      return .park(refusal)
    case .contractMismatch(let served):
      // The drain throws; nothing is counted.
      return .fail(.contractMismatch(served: served), keepAnswer: true)
    case .redirect(let status, let location):
      // The pass names the instance (``DrainPass/take(_:for:answer:now:)``).
      return .fail(.redirected(status: status, location: location, instance: ""), keepAnswer: false)
    case .environmental(let status, let text, let why, let rateLimited):
      report.undelivered += 1
      environmentalFailures += 1
      let streak = rateLimited ? streakBefore : streakBefore + 1
      if environmentalFailures == 1 && !rateLimited && streak >= 2 {
        // It failed in the last drain too: set it aside and go on with what doesn't need it.
        setAside[id] = streak
        setAsideOrder.append(id)
      } else {
        end(why)
      }
      return .recordFailure(status: status, text: text, addToStreak: !rateLimited)
    }
  }

  /// One more write the instance answered in this pass.
  private mutating func countAnswered() {
    report.answered += 1
    answeredOthers += 1
  }

  /// Ends the pass early, saying why.
  private mutating func end(_ why: String) {
    guard state == .sending else { return }
    state = .ended
    report.unavailable = why
  }
}
