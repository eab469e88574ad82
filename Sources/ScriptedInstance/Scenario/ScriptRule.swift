/// One rule of a script: the requests it answers and the answers it gives them, in turn.
///
/// Once its answers are used up the rule stops matching (later rules, then the model, answer), unless
/// `repeatsLast` is set, when its last answer is given for good.
public struct ScriptRule: Sendable, Hashable {
  /// The requests this rule answers.
  public var match: ScriptMatch
  /// The answers, given one per matching request.
  public var answers: [ScriptedAnswer]
  /// Whether the last answer repeats once the others are used.
  package var repeatsLast: Bool

  /// A rule giving `answers` in turn to the requests `match` names.
  public init(_ match: ScriptMatch, answers: [ScriptedAnswer], repeatsLast: Bool = false) {
    self.match = match
    self.answers = answers
    self.repeatsLast = repeatsLast
  }

  /// A rule giving one answer to every request `match` names, for good.
  public static func always(_ match: ScriptMatch, _ answer: ScriptedAnswer) -> ScriptRule {
    ScriptRule(match, answers: [answer], repeatsLast: true)
  }

  /// A rule giving one answer to the first request `match` names, then letting it through.
  public static func once(_ match: ScriptMatch, _ answer: ScriptedAnswer) -> ScriptRule {
    ScriptRule(match, answers: [answer])
  }
}
