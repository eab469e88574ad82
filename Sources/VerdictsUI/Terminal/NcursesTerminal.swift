import CNcurses
import FoundationEssentials
import Glibc

/// The real terminal, through ncursesw: the only file that calls curses, always from one thread.
///
/// `setlocale` runs before `newterm` (curses' `initscr` without the exit on failure); keys come from `wget_wch` (wide characters, `KEY_RESIZE`);
/// each frame writes only the cells that changed, then one `wnoutrefresh` and one `doupdate`,
/// so ncurses sends the difference and an idle screen sends nothing. `clear` is never called in
/// steady state, only on ctrl-l and after a resize.
package final class NcursesTerminal: Terminal {
  private let window: UnsafeMutablePointer<WINDOW>
  private var last: Grid?
  private var styles: [Role: (attr: attr_t, pair: Int16)] = [:]
  private var cleared = false
  private var isRestored = false
  /// The bytes sent to the terminal so far: what `doupdate` and ``sendRaw(_:)`` wrote, read from
  /// the kernel's count of this thread's writes (an estimate of one byte a changed cell where it
  /// cannot say).
  public private(set) var bytesWritten = 0
  /// Whether the locale's codeset is UTF-8.
  public let supportsUnicode: Bool
  /// How many colours the terminal shows (none when colour is off).
  public let colorDepth: ColorDepth

  /// Takes the terminal: locale, curses mode, keypad, colours; nil when stdin or stdout is not
  /// a terminal or `TERM` names none curses knows.
  ///
  /// - Parameters:
  ///   - colors: false to draw without colour (`NO_COLOR`, `--no-color`).
  ///   - crashReport: where a crash report goes (``FatalSignalGuard``), when the program set it.
  public init?(colors: Bool = true, crashReport: String? = nil) {
    guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { return nil }
    setlocale(LC_ALL, "")
    let codeset = nl_langinfo(nl_item(CODESET)).map { String(cString: $0) } ?? ""
    supportsUnicode = codeset.uppercased().replacing("-", with: "") == "UTF8"
    // The modes a shell left, for the fatal-signal handler to put back (curses keeps its own copy).
    var saved = termios()
    let hasSaved = tcgetattr(STDOUT_FILENO, &saved) == 0
    guard let window = cnc_open_terminal() else { return nil }
    self.window = window
    FatalSignalGuard.install(
      terminal: STDOUT_FILENO, saved: hasSaved ? saved : nil,
      reset: FatalSignalGuard.resetBytes(
        sgr0: Self.capability("sgr0"), cnorm: Self.capability("cnorm"), rmkx: Self.capability("rmkx"),
        mouse: Self.capability("kmous") != nil, rmcup: Self.capability("rmcup")),
      report: crashReport)
    cbreak()
    noecho()
    nonl()
    intrflush(window, false)
    keypad(window, true)
    // Lets curses move whole lines by scrolling (insert/delete line) when that sends less.
    idlok(window, true)
    nodelay(window, true)
    set_escdelay(25)
    curs_set(0)
    if colors && has_colors() {
      start_color()
      use_default_colors()
      colorDepth = ColorDepth(colorCount: Int(cnc_colors()))
    } else {
      colorDepth = .none
    }
  }

  deinit { restore() }

  /// A string capability of the terminal's terminfo entry, nil when it has none.
  private static func capability(_ name: String) -> [UInt8]? {
    guard let p = tigetstr(name), Int(bitPattern: p) != -1 else { return nil }
    return Array(String(cString: p).utf8)
  }

  public var size: (width: Int, height: Int) { (Int(cnc_maxx(window)), Int(cnc_maxy(window))) }

  public var inputDescriptor: Int32? { STDIN_FILENO }

  /// Turns mouse reports (clicks and the wheel) on or off.
  public func setMouse(_ on: Bool) { cnc_mouse(on ? 1 : 0) }

  /// Writes the bytes straight to standard output, after what curses has sent.
  public func sendRaw(_ bytes: [UInt8]) {
    fflush(nil)
    defer { bytesWritten += bytes.count }
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
      if n <= 0 { break }
      sent += n
    }
  }

  public func setTheme(_ theme: Theme, depth: ColorDepth) {
    styles = [:]
    for role in Role.allCases {
      let s = theme.resolved(role, depth: colorDepth == .none ? .none : depth)
      var attr = cnc_a_normal()
      if s.attributes.contains(.bold) { attr |= cnc_a_bold() }
      if s.attributes.contains(.dim) { attr |= cnc_a_dim() }
      if s.attributes.contains(.underline) { attr |= cnc_a_underline() }
      if s.attributes.contains(.reverse) { attr |= cnc_a_reverse() }
      var pair: Int16 = 0
      if colorDepth != .none, s.foreground != nil || s.background != nil {
        let p = alloc_pair(Int32(s.foreground ?? -1), Int32(s.background ?? -1))
        if p > 0 && p <= Int32(Int16.max) { pair = Int16(p) }
      } else if colorDepth != .none, let p = defaultPair {
        pair = p
      }
      styles[role] = (attr, pair)
    }
    last = nil
  }

  /// A colour pair of the terminal's own colours that is not pair 0, for text with no colour.
  ///
  /// Curses leaves a coloured run for pair 0 with `sgr0` as well as the colour reset (`ESC [39m`
  /// then `ESC ( B ESC [m`, 11 bytes); leaving it for another pair of the default colours is
  /// only the colour reset (5 bytes). Coloured text sits beside plain text on every row, so a
  /// frame that repaints rows sends about a sixth less. The last pair is taken (``alloc_pair``,
  /// which places the theme's pairs, starts from the first and skips pairs `init_pair` set).
  private lazy var defaultPair: Int16? = {
    let last = min(Int(cnc_color_pairs()) - 1, Int(Int16.max))
    guard last > 0, init_pair(Int16(last), -1, -1) == cnc_ok() else { return nil }
    return Int16(last)
  }()

  public func present(_ grid: Grid) {
    let (w, h) = size
    let before = ThreadWrites.now()
    var changed = 0
    if last == nil || last?.width != grid.width || last?.height != grid.height || cleared {
      werase(window)
      last = nil
      cleared = false
    }
    // The last frame, unwrapped once: not once a cell.
    let previous = last
    for y in 0..<min(h, grid.height) {
      for x in 0..<min(w, grid.width) {
        let cell = grid[x, y]
        if cell.isContinuation { continue }
        if let previous, previous[x, y] == cell,
          !(cell.width == 2 && x + 1 < grid.width && previous[x + 1, y] != grid[x + 1, y])
        {
          continue
        }
        put(cell, x: x, y: y, maxX: w)
        changed += 1
      }
    }
    last = grid
    wnoutrefresh(window)
    doupdate()
    if let before, let after = ThreadWrites.now() {
      bytesWritten += max(0, after - before)
    } else {
      bytesWritten += changed
    }
  }

  private func put(_ cell: Cell, x: Int, y: Int, maxX: Int) {
    if cell.width == 2 && x + 1 >= maxX { return }
    let style = styles[cell.role] ?? (cnc_a_normal(), 0)
    var attr = style.attr
    if cell.attributes.contains(.bold) { attr |= cnc_a_bold() }
    if cell.attributes.contains(.reverse) { attr |= cnc_a_reverse() }
    if cell.attributes.contains(.underline) { attr |= cnc_a_underline() }
    if cell.attributes.contains(.dim) { attr |= cnc_a_dim() }
    // Outside a UTF-8 locale only ASCII reaches the terminal: a byte 0x80–0x9F of another
    // encoding is a C1 control (CSI) to an 8-bit terminal. The screen already draws in ASCII
    // glyphs there; what is left (text from the instance) shows as `?`.
    // A cell's scalars (at most 4, then a NUL) on the stack: a screen puts thousands a frame.
    withUnsafeTemporaryAllocation(of: wchar_t.self, capacity: 5) { chars in
      var n = 0
      for scalar in cell.text.unicodeScalars {
        if n == 4 { break }
        chars[n] = wchar_t(bitPattern: supportsUnicode || scalar.isASCII ? scalar.value : 0x3F)
        n += 1
      }
      if n == 0 {
        chars[0] = 32
        n = 1
      }
      chars[n] = 0
      var cc = cchar_t()
      setcchar(&cc, chars.baseAddress, attr, style.pair, nil)
      mvwadd_wch(window, Int32(y), Int32(x), &cc)
    }
  }

  public func readInput() -> [TerminalInput] {
    var out: [TerminalInput] = []
    var ch: wint_t = 0
    while true {
      let r = wget_wch(window, &ch)
      if r == cnc_err() { break }
      if r == cnc_key_code_yes() {
        if Int32(ch) == cnc_key_mouse() {
          var x: Int32 = 0
          var y: Int32 = 0
          switch cnc_get_mouse(&x, &y) {
          case 1: out.append(.mouse(MouseEvent(.click, x: Int(x), y: Int(y))))
          case 4: out.append(.mouse(MouseEvent(.wheelUp, x: Int(x), y: Int(y))))
          case 5: out.append(.mouse(MouseEvent(.wheelDown, x: Int(x), y: Int(y))))
          default: break
          }
        } else if Int32(ch) == KEY_RESIZE {
          last = nil
          // The kernel's size, not curses' (kept at most the screen's largest, ``syncSize()``).
          let (w, h) = kernelSize ?? size
          out.append(.resize(width: w, height: h))
        } else if let key = Self.key(code: Int32(ch)) {
          out.append(.key(key))
        }
      } else if let key = Self.key(char: UInt32(ch)) {
        out.append(.key(key))
      }
    }
    return out
  }

  static func key(code: Int32) -> Key? {
    switch code {
    case KEY_UP: return .up
    case KEY_DOWN: return .down
    case KEY_LEFT: return .left
    case KEY_RIGHT: return .right
    case KEY_NPAGE: return .pageDown
    case KEY_PPAGE: return .pageUp
    case KEY_HOME: return .home
    case KEY_END: return .end
    case KEY_BTAB: return .backTab
    case KEY_ENTER: return .enter
    case KEY_BACKSPACE: return .backspace
    case KEY_DC: return .delete
    default:
      for n in 1...12 where code == cnc_key_f(Int32(n)) { return .function(n) }
      return nil
    }
  }

  static func key(char: UInt32) -> Key? {
    switch char {
    case 9: return .tab
    case 10, 13: return .enter
    case 27: return .escape
    case 8, 127: return .backspace
    case 1...26: return .ctrl(Character(Unicode.Scalar(char + 96)!))
    default:
      guard let s = Unicode.Scalar(char), char >= 32 else { return nil }
      return .char(Character(s))
    }
  }

  /// After a SIGWINCH caught on the UI thread: reads the kernel's size, resizes curses, and
  /// reports the new size.
  public func syncSize() -> TerminalInput? {
    var rows: Int32 = 0
    var cols: Int32 = 0
    guard cnc_winsize(STDOUT_FILENO, &rows, &cols) == 0, rows > 0, cols > 0 else { return nil }
    // Curses is never made larger than the screen draws (it would hold a cell for each of a
    // 65535×65535 terminal's): past it, the state is given the size and draws one line.
    resizeterm(min(rows, Int32(Layout.maximumHeight)), min(cols, Int32(Layout.maximumWidth)))
    last = nil
    return .resize(width: Int(cols), height: Int(rows))
  }

  /// The terminal's size as the kernel reports it, nil when it reports none.
  private var kernelSize: (width: Int, height: Int)? {
    var rows: Int32 = 0
    var cols: Int32 = 0
    guard cnc_winsize(STDOUT_FILENO, &rows, &cols) == 0, rows > 0, cols > 0 else { return nil }
    return (Int(cols), Int(rows))
  }

  public func invalidate() {
    clearok(window, true)
    cleared = true
  }

  public func restore() {
    guard !isRestored else { return }
    isRestored = true
    curs_set(1)
    endwin()
    FatalSignalGuard.uninstall()
  }
}
