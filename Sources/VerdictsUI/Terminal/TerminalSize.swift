import Glibc

/// A terminal's size as the kernel reports it (`TIOCGWINSZ`), read without curses.
package struct TerminalSize: Hashable {
  package var width: Int
  package var height: Int

  /// The size of the terminal on `fd`; nil when it is not one or reports none.
  package static func read(_ fd: Int32 = STDOUT_FILENO) -> TerminalSize? {
    var size = winsize()
    guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0 else { return nil }
    return TerminalSize(width: Int(size.ws_col), height: Int(size.ws_row))
  }

  /// Whether the screen draws at this size (``Layout/isTooLarge(width:height:)``).
  var isTooLarge: Bool { Layout.isTooLarge(width: width, height: height) }
}
