/// Why the TUI could not start.
public enum AppError: Error, Sendable, Hashable {
  /// Stdin or stdout is not a terminal, or `TERM` names none curses knows.
  case noTerminal(term: String?)

  /// One plain sentence for a person.
  public var message: String {
    switch self {
    case .noTerminal(let term):
      return "the TUI needs a terminal (TERM=\(term ?? "unset")); use `watch --plain` for pipes and logs"
    }
  }
}
