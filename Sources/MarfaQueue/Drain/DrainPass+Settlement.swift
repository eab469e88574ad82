extension DrainPass {
  /// A verdict the pass reached for a write, with what is stored beside it (``store(_:_:in:)``).
  struct Settlement: Sendable {
    /// The verdict.
    var verdict: Verdict
    /// When it was reached (``Timestamp``).
    var now: String
    /// Whether the write's last failure and streak are cleared with it: an answer and a refusal
    /// clear them, a block the drain decided alone (``BlockedReason/instanceChanged``) does not.
    var clearsFailure = true
    /// Whether the write is marked sent (false: the drain refused it unsent).
    var sent = true
    /// The instance's answer, kept on the write.
    var answer: String? = nil
    /// Whether the instance answered from its idempotency record.
    var replayed = false
    /// The row the answer carried, taken into the copy.
    var row: AnsweredRow? = nil

    /// A write the drain itself refused, unsent, for `reason`.
    static func refusedUnsent(_ reason: String, now: String) -> Settlement {
      Settlement(verdict: .refused(Refusal(reason: reason)), now: now, sent: false)
    }
  }
}
