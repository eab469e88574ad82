/// Input from a terminal.
public enum TerminalInput: Sendable, Hashable {
  /// A key.
  case key(Key)
  /// The terminal is now this size.
  case resize(width: Int, height: Int)
}
