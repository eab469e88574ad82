import MarfaWire

/// One problem in a file the TUI reads at start: the file (or where a setting came from), its line
/// (nil: the whole file), and what is wrong; every part made safe for a terminal.
public struct ConfigFinding: Sendable, Hashable {
  /// The file, or `--theme` / `VERDICTS_THEME` for a theme name that names nothing.
  public var file: String
  /// The 1-based line, nil when the problem is the whole file.
  public var line: Int?
  /// What is wrong, in words.
  public var message: String

  /// Creates a finding; the file and message are cleaned of control characters.
  public init(file: String, line: Int?, message: String) {
    self.file = Sanitizer.clean(file)
    self.line = line
    self.message = Sanitizer.clean(message)
  }

  /// `FILE:LINE: message` (`FILE: message` for the whole file).
  public var located: String { line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)" }
}
