/// Why a typed filter was refused: a field it does not know, or a value its field cannot take.
/// The screen shows ``message`` under the filter as it is typed; `queue --filter` exits 2 with it.
public struct WriteFilterProblem: Error, Sendable, Hashable {
  /// One plain sentence naming the word and what would be taken: `unknown filter field 'reasn'
  /// in 'reasn:x' (did you mean reason?); the fields are reason, kind, status, verdict, row, streak, body`.
  public let message: String
}
