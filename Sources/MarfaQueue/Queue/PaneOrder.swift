/// How a pane's writes are ordered; each order breaks its ties by send order.
///
/// The raw value is the order's short name, as the pane title and `queue --sort` spell it.
public enum PaneOrder: String, Sendable, Codable, Hashable, CaseIterable {
  /// Send order: the order the drain sends them in (the default).
  case sendOrder = "sent"
  /// Send order reversed: the newest write first.
  case newestFirst = "newest"
  /// Longest in its state first: by when it was answered (Answered, Blocked, Dead), by when it
  /// was queued when it has no answer (Waiting).
  case age
  /// The longest environmental streak first.
  case streak
  /// By blocked reason (Blocked); by verdict name in the panes without reasons.
  case reason
  /// By kind of write.
  case kind

  /// The short word the pane title shows: `sent`, `newest`, `age`, `streak`, `reason`, `kind`.
  public var title: String { rawValue }

  /// The order `s` moves to from this one (after the last, the first again).
  public var next: PaneOrder {
    let all = PaneOrder.allCases
    return all[(all.firstIndex(of: self)! + 1) % all.count]
  }

  /// The order a name (``title``) spells, case-insensitive; nil for any other word.
  public init?(name: String) {
    self.init(rawValue: name.lowercased())
  }

  /// The value a write is ordered by (nil: no value, ordered first as SQLite orders NULL); nil
  /// for send order and newest first, which use the send order alone. The same value as the
  /// store's ``sqlKey``.
  func key(of w: QueuedWrite) -> OrderKey? {
    switch self {
    case .sendOrder, .newestFirst: return nil
    case .age: return .text(w.answeredAt ?? w.queuedAt)
    case .streak: return .int(w.environmentalStreak)
    case .reason: return (w.verdict?.blockedReason?.rawValue ?? w.verdict?.name.rawValue).map(OrderKey.text)
    case .kind: return .text(w.kind.rawValue)
    }
  }

  /// Whether the key runs from the largest value down (the streak).
  var descending: Bool { self == .streak }

  /// `writes` (in send order) in this order: for sources without SQL to sort in (the Marfa
  /// core's store, in-memory queues). The same order as the store's `ORDER BY`.
  public func sorted(_ writes: [QueuedWrite]) -> [QueuedWrite] {
    switch self {
    case .sendOrder: return writes
    case .newestFirst: return writes.reversed()
    default:
      let keyed = writes.enumerated().map { (i: $0.offset, key: key(of: $0.element), w: $0.element) }
      let down = descending
      return keyed.sorted { a, b in
        guard let ka = a.key, let kb = b.key, ka != kb else {
          if a.key == b.key { return a.i < b.i }
          // nil (SQL's NULL) first going up, last going down.
          return down ? b.key == nil : a.key == nil
        }
        return down ? kb < ka : ka < kb
      }.map(\.w)
    }
  }
}
