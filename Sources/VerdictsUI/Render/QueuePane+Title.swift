import MarfaQueue

extension QueuePane {
  /// The pane's title on the screen: `Waiting`, `Answered`, `Blocked`, `Dead` (the engine
  /// names panes only by ``QueuePane/name``).
  public var title: String {
    switch self {
    case .waiting: return "Waiting"
    case .answered: return "Answered"
    case .blocked: return "Blocked"
    case .dead: return "Dead"
    }
  }
}
