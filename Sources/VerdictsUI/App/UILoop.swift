import FoundationEssentials
import Glibc
import MarfaQueue

/// The UI thread: waits on the terminal and the self-pipe, applies events, and draws when something
/// changed as often as the byte budget allows (``FramePacer``); an idle screen sends nothing and
/// waits with no timer.
final class UILoop {
  let source: QueueSource
  let options: AppOptions

  init(source: QueueSource, options: AppOptions) {
    self.source = source
    self.options = options
  }

  func run() throws {
    let log = AppLog(path: options.logFile, ascii: !Sanitizer.localeIsUTF8(options.environment))
    let prepared = VerdictsApp.prepare(source: source, options: options)
    for p in prepared.problems { log.log(p) }
    var state = prepared.state
    let pipe = SignalPipe()
    let term = options.environment["TERM"] ?? ProcessInfo.processInfo.environment["TERM"]
    if let refusal = AppError.check(
      stdinIsTerminal: isatty(STDIN_FILENO) == 1, stdoutIsTerminal: isatty(STDOUT_FILENO) == 1, term: term)
    {
      log.log(refusal.message)
      throw refusal
    }
    // Curses would lay out every cell of a huge terminal before its first frame: first a size
    // the screen draws.
    guard waitForUsableSize(pipe, ascii: !Sanitizer.localeIsUTF8(options.environment)) else {
      log.log("quit (signal, waiting for a smaller terminal)")
      return
    }
    guard
      let terminal = NcursesTerminal(
        colors: !prepared.colorOff,
        crashReport: options.environment[ProcessEnvironment.crashReport].flatMap { $0.isEmpty ? nil : $0 })
    else {
      log.log("no terminal")
      let size = TerminalSize.read()
      throw AppError.cursesRefused(term: term, width: size?.width, height: size?.height)
    }
    pipe.installHandlers()
    if !terminal.supportsUnicode { state.ascii = true }
    terminal.setTheme(prepared.theme, depth: prepared.colorOff ? .none : terminal.colorDepth)
    terminal.setMouse(state.mouseOn)
    log.log(
      "started: \(state.readOnly ? "read-only" : "writer"), theme \(prepared.theme.name), \(terminal.colorDepth.rawValue) colours"
    )
    let core = AppCore(source: source, state: state, log: log, wake: { pipe.wake() })
    // A log that cannot be written is said once on the status line; the program goes on.
    let inbox = core.inbox
    log.onFailure = { [weak inbox] text in inbox?.post(.event(.outcome(text, isError: true))) }
    let (w, h) = terminal.size
    core.apply(.resize(width: w, height: h))
    core.start()
    let clock = ContinuousAppClock()
    var pacer = FramePacer(now: clock.now)
    // Whether a key, click or resize came since the last frame (its frame is not held back).
    var inputSinceFrame = false
    // Relative times (`3 min ago`) are drawn again once a minute, by this loop's own timeout.
    let tickEvery = Duration.seconds(AppCore.tickInterval)
    var nextTick = clock.now + tickEvery
    var detailRest = DetailRestTimer()
    // A test's way to prove the terminal is given back after a trap (never set otherwise): `1`
    // traps on this thread after the first frame, `thread` on another one 0.4 s later while
    // this one goes on drawing.
    let trapAfterFirstFrame = options.environment[ProcessEnvironment.testTrap] == "1"
    if options.environment[ProcessEnvironment.testTrap] == "thread" {
      DetachedThread.start(name: "test-trap") {
        DetachedThread.sleep(seconds: 0.4)
        fatalError("VERDICTS_TEST_TRAP=thread: the trap a test asked for")
      }
    }
    while !core.quitting {
      for sig in pipe.drain() {
        if SignalPipe.quitSignals.contains(sig) {
          core.quitting = true
          core.quitReason = "signal \(sig)"
        } else if sig == SIGWINCH, let input = terminal.syncSize() {
          apply(input, to: core)
          inputSinceFrame = true
        }
      }
      for input in terminal.readInput() {
        apply(input, to: core)
        inputSinceFrame = true
      }
      core.process()
      if core.quitting { break }
      if core.repaintRequested {
        core.repaintRequested = false
        terminal.invalidate()
        core.dirty = true
        inputSinceFrame = true
      }
      var timeout: Int32 = -1
      switch pacer.decide(
        now: clock.now, dirty: core.dirty, input: inputSinceFrame, reading: core.reading,
        firstReadsDone: core.firstReadsDone)
      {
      case .draw:
        let before = terminal.bytesWritten
        terminal.present(Renderer.render(core.state))
        if trapAfterFirstFrame { fatalError("VERDICTS_TEST_TRAP=1: the trap a test asked for") }
        for bytes in core.rawOut { terminal.sendRaw(bytes) }
        core.rawOut = []
        core.dirty = false
        inputSinceFrame = false
        pacer.drew(bytes: terminal.bytesWritten - before, now: clock.now)
        // Changes are read again no sooner than their frame could go.
        inbox.holdChanges(for: pacer.untilNextFrame(now: clock.now) - FramePacer.readsLimit)
        continue
      case .wait(let wait):
        timeout = Self.milliseconds(wait)
      case .idle:
        break
      }
      // A held detail shows the selection once it has rested.
      if let left = detailRest.remaining(
        core.state.detailHold, detailFocused: core.state.detailFocused, drainMoving: core.state.drainMayMove,
        now: clock.now)
      {
        if left <= .zero {
          core.apply(.detailRested(moves: core.state.detailHold?.moves ?? 0))
          continue
        }
        let ms = Self.milliseconds(left)
        timeout = timeout < 0 ? ms : min(timeout, ms)
      }
      // A fading message (a watcher's refusal) goes at its time, even on an idle screen: the
      // first tick starts its clock, the next comes when it is due.
      if let fading = core.state.fadeClock, core.state.message == fading.message {
        guard let since = fading.since else {
          core.apply(.tick(Date()))
          continue
        }
        let left = since.addingTimeInterval(UIState.fadeSeconds).timeIntervalSinceNow
        if left <= 0 {
          core.apply(.tick(Date()))
          continue
        }
        let ms = Self.milliseconds(.milliseconds(Int((left * 1000).rounded(.up))))
        timeout = timeout < 0 ? ms : min(timeout, ms)
      }
      if core.state.writer != nil {
        let now = clock.now
        if now >= nextTick {
          nextTick = now + tickEvery
          core.apply(.tick(Date()))
          continue
        }
        let left = nextTick - now
        let ms = Self.milliseconds(left)
        timeout = timeout < 0 ? ms : min(timeout, ms)
      }
      // A terminal that went away with no SIGHUP (not this process's controlling terminal, as
      // under setsid or nohup) reads as ready for ever: the screen ends rather than spin on it.
      if pipe.wait(input: terminal.inputDescriptor, timeoutMs: timeout) {
        core.quitting = true
        core.quitReason = "the terminal hung up"
      }
    }
    core.stop()
    terminal.restore()
    pipe.removeHandlers()
    log.log("quit" + (core.quitReason.map { " (\($0))" } ?? ""))
  }

  /// Before curses takes a terminal larger than the screen draws (``Layout/maximumWidth``):
  /// says so in one line and waits until it is a size it draws (read again on SIGWINCH and
  /// twice a second, as a terminal with no controlling process sends none); false when a quit
  /// signal, or `q` then enter, came first.
  func waitForUsableSize(_ pipe: SignalPipe, ascii: Bool) -> Bool {
    guard var size = TerminalSize.read(), size.isTooLarge else { return true }
    func say() {
      let line = Array(
        ("verdicts: " + Renderer.tooLargeText(width: size.width, height: size.height, ascii: ascii)
          + " (q then enter, or ctrl-c, ends)\r\n").utf8)
      _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }
    say()
    pipe.installHandlers()
    defer { pipe.removeHandlers() }
    var typed = [UInt8](repeating: 0, count: 256)
    while true {
      pipe.wait(input: STDIN_FILENO, timeoutMs: 500)
      if pipe.drain().contains(where: SignalPipe.quitSignals.contains) { return false }
      var ready = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
      if poll(&ready, 1, 0) > 0 {
        let n = read(STDIN_FILENO, &typed, typed.count)
        if n <= 0 || typed[0..<n].contains(UInt8(ascii: "q")) { return false }
      }
      guard let now = TerminalSize.read() else { return true }
      if !now.isTooLarge { return true }
      if now != size {
        size = now
        say()
      }
    }
  }

  /// A duration as a poll timeout in whole milliseconds, rounded up.
  static func milliseconds(_ d: Duration) -> Int32 {
    Int32(clamping: d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000 + 1)
  }

  func apply(_ input: TerminalInput, to core: AppCore) {
    switch input {
    case .key(let k): core.apply(.key(k))
    case .resize(let w, let h): core.apply(.resize(width: w, height: h))
    case .mouse(let m): core.apply(.mouse(m))
    }
  }
}
