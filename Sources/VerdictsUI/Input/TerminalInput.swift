/// Input from a terminal.
package enum TerminalInput: Sendable, Hashable {
  /// A key.
  case key(Key)
  /// A click or the wheel.
  case mouse(MouseEvent)
  /// The terminal is now this size.
  case resize(width: Int, height: Int)
}
