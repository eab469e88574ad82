/// The SQL conditions the store's statements share, each written once from the enums
/// (``VerdictName``, ``QueueColumn``, ``WriteKind``): no statement spells them again.
extension SQLite {
  /// The SQL condition that the write (named `alias`, or the statement's one table) is
  /// outstanding: no verdict, blocked or dead (``QueuedWrite/isOutstanding``). With
  /// `orRefused`, a refused write counts too (what a later write to the same row follows).
  static func outstanding(_ alias: String? = nil, orRefused: Bool = false) -> String {
    let verdict = (alias.map { $0 + "." } ?? "") + QueueColumn.verdict.name
    let names = (orRefused ? [VerdictName.refused] : []) + VerdictName.outstanding
    return "(\(verdict) IS NULL OR \(VerdictName.sqlOneOf(verdict, names)))"
  }

  /// The SQL `SET` list that clears a write's last failure and its streak: what an answer, a
  /// refusal and a release do (``LastFailure``, ``QueuedWrite/environmentalStreak``).
  static let failureCleared =
    [QueueColumn.lastFailureStatus, .lastFailureText].map { "\($0.name) = NULL" }
    .joined(separator: ", ") + ", \(QueueColumn.environmentalStreak.name) = 0"
}
