import Foundation
import MarfaQueue

/// The UI thread: waits on the terminal and the self-pipe, applies events, draws at most ten
/// frames a second and only when something changed; an idle screen sends nothing.
final class UILoop {
  let source: QueueSource
  let options: AppOptions

  /// The shortest gap between two frames.
  static let frameInterval: TimeInterval = 0.1

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
    guard let terminal = NcursesTerminal(colors: !prepared.colorOff) else {
      log.log("no terminal")
      throw AppError.cannotAddressCursor(term: term)
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
    var lastFrame = Date.distantPast
    while !core.quitting {
      for sig in pipe.drain() {
        if SignalPipe.quitSignals.contains(sig) {
          core.quitting = true
          core.quitReason = "signal \(sig)"
        } else if sig == SIGWINCH, let input = terminal.syncSize() {
          apply(input, to: core)
        }
      }
      for input in terminal.readInput() { apply(input, to: core) }
      core.process()
      if core.quitting { break }
      if core.repaintRequested {
        core.repaintRequested = false
        terminal.invalidate()
        core.dirty = true
      }
      var timeout: Int32 = -1
      if core.dirty {
        let since = Date().timeIntervalSince(lastFrame)
        if since >= Self.frameInterval {
          terminal.present(Renderer.render(core.state))
          for bytes in core.rawOut { terminal.sendRaw(bytes) }
          core.rawOut = []
          core.dirty = false
          lastFrame = Date()
        } else {
          timeout = Int32((Self.frameInterval - since) * 1000) + 1
        }
      }
      pipe.wait(input: terminal.inputDescriptor, timeoutMs: timeout)
    }
    core.stop()
    terminal.restore()
    pipe.removeHandlers()
    log.log("quit" + (core.quitReason.map { " (\($0))" } ?? ""))
  }

  func apply(_ input: TerminalInput, to core: AppCore) {
    switch input {
    case .key(let k): core.apply(.key(k))
    case .resize(let w, let h): core.apply(.resize(width: w, height: h))
    case .mouse(let m): core.apply(.mouse(m))
    }
  }
}
