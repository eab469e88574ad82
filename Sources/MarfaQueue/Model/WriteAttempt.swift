import FoundationEssentials

/// One request a drain sent for a write, and what it met (docs/rules.md "Each write's attempts").
///
/// A store keeps the last ``kept`` of each write, newest first when read; the earlier ones are
/// counted (``WriteAttempts/omitted``).
public struct WriteAttempt: Sendable, Codable, Hashable {
  /// What the request met, in one word.
  public enum Result: String, Sendable, Hashable, Codable, CaseIterable {
    /// The instance took the write as sent.
    case accepted
    /// The instance merged it with a concurrent change.
    case merged
    /// The instance kept both, as a conflicted copy.
    case conflicted
    /// The instance refused it (``WriteAttempt/code`` names its code).
    case refused
    /// The instance's answer blocked it (``WriteAttempt/code`` names the reason).
    case blocked
    /// An answer that was neither (a gateway's 502, a 429, a 5xx, an unreadable 2xx, a counted failure).
    case failed
    /// The connection was dropped before a whole answer came.
    case dropped
    /// No whole answer came within the request's deadline.
    case timedOut = "timed_out"
    /// No answer: the connection was refused, the host not found, or the request failed otherwise.
    case noAnswer = "no_answer"
  }

  /// How many attempts a store keeps of each write.
  public static let kept = 20

  /// When the request went out.
  public var at: Date
  /// The drain that sent it (its number in the history, ``DrainRecord/number``); nil when unknown.
  public var drain: Int?
  /// What it met.
  public var result: Result
  /// The HTTP status, when an answer's head came.
  public var status: Int?
  /// The refusal's code or the blocked reason, as the instance or the drain named it.
  public var code: String?
  /// Whether the instance answered from its idempotency record.
  public var replayed: Bool
  /// How long the request took, in milliseconds.
  public var milliseconds: Int
  /// The start of the answer's text or of what the network said, cut as ``LastFailure/text`` is
  /// (nil for an accepted, merged or conflicted answer: the write keeps that answer whole).
  public var text: String?

  /// Creates an attempt, cutting `text` to ``LastFailure/textLimit`` Unicode scalars.
  public init(
    at: Date, drain: Int? = nil, result: Result, status: Int? = nil, code: String? = nil, replayed: Bool = false,
    milliseconds: Int = 0, text: String? = nil
  ) {
    self.at = at
    self.drain = drain
    self.result = result
    self.status = status
    self.code = code
    self.replayed = replayed
    self.milliseconds = milliseconds
    self.text = text.map(LastFailure.cut)
  }
}
