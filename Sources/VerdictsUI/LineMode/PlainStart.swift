/// Where `watch --plain` starts (`--from`).
public enum PlainStart: Sendable, Hashable {
  /// Every write the queue holds first, then what changes (the default).
  case everything
  /// No listing: only what changes from now on (`--from now`).
  case now
  /// The writes after this send-order cursor first (`--from ID`: the write's place in the
  /// queue, ``Queue/sendOrder(of:)``), then what changes.
  case after(cursor: Int)
}
