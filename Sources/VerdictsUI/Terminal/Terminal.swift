/// Where frames go and keys come from: ncurses on a real terminal, a grid in tests.
///
/// Every call comes from the one UI thread.
package protocol Terminal: AnyObject {
  /// The current size in columns and rows.
  var size: (width: Int, height: Int) { get }
  /// A file descriptor to wait on for input (nil: input comes only through ``readInput()``).
  var inputDescriptor: Int32? { get }
  /// Whether the terminal can draw Unicode borders and glyphs.
  var supportsUnicode: Bool { get }
  /// How many colours it shows.
  var colorDepth: ColorDepth { get }
  /// Sets the theme its roles are drawn in.
  func setTheme(_ theme: Theme, depth: ColorDepth)
  /// Shows a frame, sending only what changed since the last one.
  func present(_ grid: Grid)
  /// Every key or resize waiting, without blocking.
  func readInput() -> [TerminalInput]
  /// Makes the next frame redraw every cell (ctrl-l).
  func invalidate()
  /// Gives the terminal back as it was.
  func restore()
  /// Writes a sequence the terminal acts on itself (OSC 52, the clipboard), after the last frame.
  func sendRaw(_ bytes: [UInt8])
  /// The bytes sent to the terminal so far (what frames cost the byte budget, ``FramePacer``).
  var bytesWritten: Int { get }
}
