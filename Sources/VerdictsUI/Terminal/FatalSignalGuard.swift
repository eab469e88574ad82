import Glibc

/// What the fatal-signal handler reads: set once by ``FatalSignalGuard/install(terminal:saved:reset:report:)``
/// before the handlers are, never freed, so the handler touches no allocator and takes no lock.
nonisolated(unsafe) private var guardTerminal: Int32 = -1
/// The descriptor curses draws through, and `/dev/null` to put in its place once the program
/// crashes, so a frame drawn by another thread meanwhile cannot undo the restore.
nonisolated(unsafe) private var guardScreen: Int32 = -1
nonisolated(unsafe) private var guardNull: Int32 = -1
/// The terminal's saved modes, in memory of their own: as a global of the imported `termios`,
/// the copy into it was reported by AddressSanitizer as writing past the global's end.
nonisolated(unsafe) private var guardSaved: UnsafeMutablePointer<termios>?
/// The terminal's reset sequences (leave the alternate screen, show the cursor, …) then the
/// messages, one buffer; `guardPieces[i]` is (offset, count) of piece i (``FatalSignalGuard/Piece``).
nonisolated(unsafe) private var guardBytes: UnsafeMutablePointer<UInt8>?
nonisolated(unsafe) private var guardPieces: UnsafeMutablePointer<(Int, Int)>?
/// The handlers that were there before (the Swift runtime's backtracer, or the defaults), by signal number.
nonisolated(unsafe) private var guardPrevious: UnsafeMutablePointer<sigaction>?
nonisolated(unsafe) private var guardInstalled = false

/// Gives the terminal back before a fatal signal ends the program.
///
/// A trap (`fatalError`, an overflow, a bad index), a crash in C code or an abort ends the
/// process by a signal; curses never runs its `endwin`, so the person's terminal would be left
/// without echo, without line editing, in the alternate screen with the cursor hidden. The
/// handler installed here, on SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE and SIGABRT, does only
/// async-signal-safe things: writes the terminal modes saved before curses took it back with
/// `tcsetattr`, writes the terminal's reset sequences and one line saying what happened, then
/// hands the signal to the handler that was there before (the Swift runtime's backtracer, which
/// writes its report to the file named in `SWIFT_BACKTRACE`, see `ProcessStart`) or to the
/// default, so the process still ends by the same signal.
enum FatalSignalGuard {
  /// The signals that end the program with a crash.
  static let signals: [Int32] = [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT]

  /// The pieces of the guard's buffer; after them one line per signal of ``signals``, in order.
  enum Piece: Int, CaseIterable {
    case reset, reportBefore, reportAfter, noReport
  }

  /// The names of ``signals``, in order.
  static let names = ["SIGILL", "SIGTRAP", "SIGSEGV", "SIGBUS", "SIGFPE", "SIGABRT"]

  /// Installs the handlers.
  ///
  /// - Parameters:
  ///   - terminal: the descriptor of the terminal curses draws on.
  ///   - saved: its modes before curses changed them (nil when they could not be read).
  ///   - reset: the bytes that put the terminal back (from its terminfo entry).
  ///   - report: where the Swift backtracer writes its report, when the program set it.
  static func install(terminal: Int32, saved: termios?, reset: [UInt8], report: String?) {
    guard !guardInstalled else { return }
    let before = Array("verdicts: writing the crash report to \(report ?? "")\r\n".utf8)
    let after = Array("verdicts: the crash report is in \(report ?? "")\r\n".utf8)
    let none = Array(
      "verdicts: no crash report was written (no Swift backtracer here); run it again with --log FILE for its last steps\r\n"
        .utf8)
    let crashed = names.map {
      Array("\r\nverdicts: stopped by a fatal error (\($0)); the terminal was restored.\r\n".utf8)
    }
    let pieces = [reset, before, after, none] + crashed
    let total = pieces.reduce(0) { $0 + $1.count }
    let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, total))
    let offsets = UnsafeMutablePointer<(Int, Int)>.allocate(capacity: pieces.count)
    var at = 0
    for (i, piece) in pieces.enumerated() {
      piece.withUnsafeBufferPointer { (bytes + at).initialize(from: $0.baseAddress!, count: $0.count) }
      offsets[i] = (at, piece.count)
      at += piece.count
    }
    let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
    previous.initialize(repeating: sigaction(), count: 65)
    guardBytes = bytes
    guardPieces = offsets
    guardPrevious = previous
    // A descriptor of the terminal of its own: the one curses writes to is silenced on a crash.
    guardTerminal = fcntl(terminal, F_DUPFD_CLOEXEC, 3)
    guardScreen = terminal
    guardNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
    if let saved {
      let modes = UnsafeMutablePointer<termios>.allocate(capacity: 1)
      modes.initialize(to: saved)
      guardSaved = modes
    }
    // Without a report path the report line is left out (a user's own SWIFT_BACKTRACE).
    if report == nil {
      offsets[Piece.reportBefore.rawValue] = (0, 0)
      offsets[Piece.reportAfter.rawValue] = (0, 0)
    }
    var action = sigaction()
    action.__sigaction_handler.sa_sigaction = fatalSignalHandler
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER | Int32(bitPattern: UInt32(SA_RESETHAND))
    sigemptyset(&action.sa_mask)
    for sig in signals { sigaction(sig, &action, previous + Int(sig)) }
    guardInstalled = true
  }

  /// Puts back the handlers that were there before, once the terminal is given back.
  static func uninstall() {
    guard guardInstalled, let previous = guardPrevious else { return }
    for sig in signals { sigaction(sig, previous + Int(sig), nil) }
    guardInstalled = false
  }

  /// The bytes that leave a terminal as a shell expects it, from its terminfo strings (each may
  /// be missing): attributes off, the cursor shown, keypad mode off, mouse reports off, the
  /// alternate screen left.
  static func resetBytes(sgr0: [UInt8]?, cnorm: [UInt8]?, rmkx: [UInt8]?, mouse: Bool, rmcup: [UInt8]?) -> [UInt8] {
    // CAN first: it cancels an escape sequence a frame cut short left open.
    var out: [UInt8] = [0x18]
    out += sgr0 ?? []
    out += cnorm ?? []
    out += rmkx ?? []
    if mouse { out += Array("\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l".utf8) }
    out += rmcup ?? []
    return out
  }
}

/// Writes piece `piece` of the guard's buffer to `fd` (async-signal-safe: `write(2)` only).
private func writePiece(_ piece: FatalSignalGuard.Piece, to fd: Int32) { writePiece(at: piece.rawValue, to: fd) }

/// The line naming signal `sig`, from the pieces after ``FatalSignalGuard/Piece``.
private func writeCrashed(_ sig: Int32, to fd: Int32) {
  var i = 0
  for s in FatalSignalGuard.signals {
    if s == sig { break }
    i += 1
  }
  writePiece(at: FatalSignalGuard.Piece.allCases.count + min(i, FatalSignalGuard.signals.count - 1), to: fd)
}

/// Writes piece number `index` of the guard's buffer to `fd`.
private func writePiece(at index: Int, to fd: Int32) {
  guard let bytes = guardBytes, let pieces = guardPieces else { return }
  let (offset, count) = pieces[index]
  var sent = 0
  while sent < count {
    let n = write(fd, bytes + offset + sent, count - sent)
    if n <= 0 {
      if n < 0 && errno == EINTR { continue }
      return
    }
    sent += n
  }
}

/// Puts the terminal's saved modes back (async-signal-safe).
private func restoreModes() {
  guard guardTerminal >= 0, let modes = guardSaved else { return }
  _ = tcsetattr(guardTerminal, TCSANOW, modes)
}

/// The handler: the terminal first, then the handler that was there before, then the default.
private func fatalSignalHandler(
  _ sig: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?
) {
  let fd = guardTerminal >= 0 ? guardTerminal : STDERR_FILENO
  // Nothing more of the screen reaches the terminal (the UI thread may be mid-frame).
  if guardNull >= 0, guardTerminal >= 0 { dup2(guardNull, guardScreen) }
  restoreModes()
  writePiece(.reset, to: fd)
  writeCrashed(sig, to: fd)
  // SA_RESETHAND left the default in place for this signal; the other signals keep this handler
  // until the one before takes over.
  if let previous = guardPrevious, sig > 0, sig < 65 {
    var before = previous[Int(sig)]
    let handler = before.__sigaction_handler.sa_handler
    let isFunction = handler != nil && unsafeBitCast(handler, to: Int.self) != 1  // SIG_IGN is 1
    if before.sa_flags & SA_SIGINFO != 0, let chained = before.__sigaction_handler.sa_sigaction {
      writePiece(.reportBefore, to: fd)
      for s in FatalSignalGuard.signals { sigaction(s, previous + Int(s), nil) }
      chained(sig, info, context)
      // The backtracer ran while the other threads were held; a frame drawn since is undone.
      restoreModes()
      writePiece(.reportAfter, to: fd)
    } else if isFunction, let plain = handler {
      writePiece(.noReport, to: fd)
      sigaction(sig, &before, nil)
      plain(sig)
    } else {
      writePiece(.noReport, to: fd)
    }
  } else {
    writePiece(.noReport, to: fd)
  }
  // Returning re-runs the trapping instruction under the default action; a signal that was
  // sent (kill, raise) is sent again with the default in place.
  signal(sig, SIG_DFL)
  if info?.pointee.si_code ?? 0 <= 0 { raise(sig) }
}
