/// The four panes a write can sit in, by its verdict.
public enum QueuePane: Int, Sendable, Codable, Hashable, CaseIterable {
  /// No verdict yet: queued, in flight, or held behind another write.
  case waiting = 0
  /// Accepted, merged, conflicted or refused.
  case answered = 1
  /// Blocked for one of six reasons.
  case blocked = 2
  /// Refused ``QueueLimits/ceiling`` (five) times.
  case dead = 3

  /// The pane's name in lower case, as the command line's `--pane` takes it: `waiting`, … `dead`.
  public var name: String {
    switch self {
    case .waiting: return "waiting"
    case .answered: return "answered"
    case .blocked: return "blocked"
    case .dead: return "dead"
    }
  }
}

extension QueuePane {
  /// The SQL that computes a write's pane from its `verdict` column, written from
  /// ``VerdictName/pane``: `CASE WHEN verdict IS NULL THEN 0 WHEN verdict = 'blocked' THEN 2 …`.
  /// The answered pane is the `ELSE`. The store's generated `pane` column is this expression.
  static var sqlFromVerdict: String {
    var parts = ["CASE WHEN verdict IS NULL THEN \(QueuePane.waiting.rawValue)"]
    for pane in allCases where pane != .waiting && pane != .answered {
      let names = VerdictName.allCases.filter { $0.pane == pane }
      let test = names.count == 1 ? "verdict = \(names[0].sql)" : "verdict IN (\(VerdictName.sqlList(names)))"
      parts.append("WHEN \(test) THEN \(pane.rawValue)")
    }
    parts.append("ELSE \(QueuePane.answered.rawValue) END")
    return parts.joined(separator: " ")
  }

  /// `pane = <n>` for SQL.
  var sqlTest: String { "pane = \(rawValue)" }
}

/// One page of a pane, read from the store without loading the rest.
public struct QueuePage: Sendable, Codable, Hashable {
  /// The pane the page is of.
  public var pane: QueuePane
  /// The index of the first write of `writes` within the pane.
  public var offset: Int
  /// The writes, in send order.
  public var writes: [QueuedWrite]
  /// How many writes the pane holds (under the filter).
  public var total: Int

  /// Creates a page.
  public init(pane: QueuePane, offset: Int, writes: [QueuedWrite], total: Int) {
    self.pane = pane
    self.offset = offset
    self.writes = writes
    self.total = total
  }
}

/// How many writes each pane holds.
public struct QueueCounts: Sendable, Codable, Hashable {
  /// Writes with no verdict yet.
  public var waiting: Int
  /// Accepted, merged, conflicted and refused writes.
  public var answered: Int
  /// Blocked writes.
  public var blocked: Int
  /// Dead writes.
  public var dead: Int

  /// Creates counts.
  public init(waiting: Int = 0, answered: Int = 0, blocked: Int = 0, dead: Int = 0) {
    self.waiting = waiting
    self.answered = answered
    self.blocked = blocked
    self.dead = dead
  }

  /// The count for one pane.
  public subscript(pane: QueuePane) -> Int {
    get {
      switch pane {
      case .waiting: return waiting
      case .answered: return answered
      case .blocked: return blocked
      case .dead: return dead
      }
    }
    set {
      switch pane {
      case .waiting: waiting = newValue
      case .answered: answered = newValue
      case .blocked: blocked = newValue
      case .dead: dead = newValue
      }
    }
  }

  /// Every write in the queue.
  public var total: Int { waiting + answered + blocked + dead }
}
