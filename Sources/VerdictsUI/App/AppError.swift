import Glibc
import MarfaWire

/// Why the TUI could not start.
public enum AppError: Error, Sendable, Hashable {
  /// Stdin or stdout is not a terminal.
  case noTerminal(term: String?)
  /// The terminal cannot address the cursor (`TERM=dumb`, unset, or one curses does not know).
  case cannotAddressCursor(term: String?)
  /// Curses would not take the terminal (`newterm` failed) for a reason other than what `TERM`
  /// names: the size it reports is said with it.
  case cursesRefused(term: String?, width: Int?, height: Int?)

  /// One plain sentence for a person, naming `watch --plain`, said once.
  public var message: String {
    switch self {
    case .noTerminal:
      return "the TUI needs a terminal on standard input and output; for pipes and logs use `verdicts watch --plain`"
    case .cannotAddressCursor(let term):
      return
        "TERM=\(term.map { $0.isEmpty ? "(empty)" : $0 } ?? "(unset)") cannot address the cursor, which the TUI needs; "
        + "use `verdicts watch --plain`, or a TERM such as xterm-256color"
    case .cursesRefused(let term, let width, let height):
      // A TERM terminfo knows is not the reason: say what is known (never "use the TERM you use").
      guard let term, Self.terminfoKnows(term) else { return AppError.cannotAddressCursor(term: term).message }
      let size = width.flatMap { w in height.map { "\(w)×\($0)" } } ?? "of no size it reports"
      return
        "curses could not take this terminal (TERM=\(Sanitizer.clean(term)), \(size)); "
        + "use `verdicts watch --plain`, or another terminal"
    }
  }

  /// Whether a terminfo entry for `term` is in one of the folders curses reads.
  static func terminfoKnows(_ term: String, environment: [String: String] = [:]) -> Bool {
    guard let first = term.first, !term.contains("/"), !term.contains("..") else { return false }
    var folders = ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo", "/usr/lib/terminfo"]
    if let own = environment["TERMINFO"] { folders.insert(own, at: 0) }
    if let home = environment["HOME"] { folders.insert(home + "/.terminfo", at: 0) }
    let hex = String(first.asciiValue ?? 0, radix: 16)
    return folders.contains { folder in
      access("\(folder)/\(first)/\(term)", R_OK) == 0 || access("\(folder)/\(hex)/\(term)", R_OK) == 0
    }
  }

  /// Why the TUI cannot run here, before curses touches the terminal: nil when it can try.
  static func check(stdinIsTerminal: Bool, stdoutIsTerminal: Bool, term: String?) -> AppError? {
    guard stdinIsTerminal, stdoutIsTerminal else { return .noTerminal(term: term) }
    guard let term, !term.isEmpty, term != "dumb" else { return .cannotAddressCursor(term: term) }
    return nil
  }
}
