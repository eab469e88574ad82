import FoundationEssentials

extension WriteAttempt {
  /// The attempt a request made, from how the drain read its answer (`status` and `text`: the
  /// answer's status and the start of its text, nil when no answer came).
  init(_ outcome: Outcome, at: Date, drain: Int?, milliseconds: Int, status: Int?, text: String?) {
    let result: Result
    var code: String?
    var replayed = false
    var said = text
    var status = status
    switch outcome {
    case .success(let verdict, _, let again):
      switch verdict {
      case .merged: result = .merged
      case .conflicted: result = .conflicted
      default: result = .accepted
      }
      replayed = again
      said = nil
    case .refused(let refusal):
      result = .refused
      code = refusal.reason
    case .blocked(let reason, _):
      result = .blocked
      code = reason.wireName
    case .unclaimedSource, .credentialStop:
      result = .blocked
      code = BlockedReason.credentialRefused.wireName
    case .counted(let why):
      result = .failed
      // Why it was counted, then the start of the answer: an unreadable 2xx says what was wrong.
      said = LastFailure.cut(why + (text.map { ": \($0)" } ?? ""))
    case .environmental(let failed, let failure, let why, _):
      status = status ?? failed
      said = failure ?? text ?? why
      result = status != nil ? .failed : Self.transportResult(failure ?? why)
    case .contractMismatch(let served):
      result = .failed
      said = "the answer named another contract (\(served ?? "none"))"
    case .redirect(_, let location):
      result = .failed
      said = "a redirect, not followed" + (location.map { " (to \($0))" } ?? "")
    }
    self.init(
      at: at, drain: drain, result: result, status: status, code: code, replayed: replayed,
      milliseconds: milliseconds, text: said)
  }

  /// What a request that met no answer met, from the transport's words (``CurlOutcome/message``).
  static func transportResult(_ message: String) -> Result {
    if message.hasPrefix("the request timed out") { return .timedOut }
    if message.hasPrefix("the connection was dropped") { return .dropped }
    return .noAnswer
  }
}
