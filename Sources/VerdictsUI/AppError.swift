/// Why the TUI could not start.
public enum AppError: Error, Sendable, Hashable {
  /// Stdin or stdout is not a terminal.
  case noTerminal(term: String?)
  /// The terminal cannot address the cursor (`TERM=dumb`, unset, or one curses does not know).
  case cannotAddressCursor(term: String?)

  /// One plain sentence for a person, naming `watch --plain`, said once.
  public var message: String {
    switch self {
    case .noTerminal:
      return "the TUI needs a terminal on standard input and output; for pipes and logs use `verdicts watch --plain`"
    case .cannotAddressCursor(let term):
      return
        "TERM=\(term.map { $0.isEmpty ? "(empty)" : $0 } ?? "(unset)") cannot address the cursor, which the TUI needs; "
        + "use `verdicts watch --plain`, or a TERM such as xterm-256color"
    }
  }

  /// Why the TUI cannot run here, before curses touches the terminal: nil when it can try.
  static func check(stdinIsTerminal: Bool, stdoutIsTerminal: Bool, term: String?) -> AppError? {
    guard stdinIsTerminal, stdoutIsTerminal else { return .noTerminal(term: term) }
    guard let term, !term.isEmpty, term != "dumb" else { return .cannotAddressCursor(term: term) }
    return nil
  }
}
