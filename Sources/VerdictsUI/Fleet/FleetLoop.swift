import FoundationEssentials
import Glibc
import MarfaQueue
import MarfaWire

/// The fleet screen's thread: waits on the terminal and the self-pipe, applies rows as the
/// monitor sends them, draws when something changed, and every ``tickSeconds`` for ages. Every
/// curses call happens on this one thread, the device's full screen too (``UILoop`` runs here
/// while the fleet's terminal is put away).
final class FleetLoop {
  /// Seconds between redraws for ages and stalls on an otherwise idle screen.
  static let tickSeconds = 5.0

  private let monitor: FleetMonitor
  private let options: AppOptions
  private var state: FleetState
  private let inbox: Mutex<[Int: FleetRow]>
  private let pipe: SignalPipe

  init(
    monitor: FleetMonitor, state: FleetState, inbox: Mutex<[Int: FleetRow]>, pipe: SignalPipe, options: AppOptions
  ) {
    self.monitor = monitor
    self.pipe = pipe
    self.state = state
    self.inbox = inbox
    self.options = options
  }

  func run() throws {
    let term = options.environment["TERM"] ?? ProcessInfo.processInfo.environment["TERM"]
    if let refusal = AppError.check(
      stdinIsTerminal: isatty(STDIN_FILENO) == 1, stdoutIsTerminal: isatty(STDOUT_FILENO) == 1, term: term)
    {
      throw refusal
    }
    let choice = ThemeChoice.choose(
      flag: options.theme, environment: options.environment, config: nil, noColor: options.noColor,
      configDirectory: options.configDirectory)
    guard var terminal = open(choice) else {
      let size = TerminalSize.read()
      throw AppError.cursesRefused(term: term, width: size?.width, height: size?.height)
    }
    defer {
      terminal.restore()
      pipe.removeHandlers()
    }
    state.ascii = options.ascii || !terminal.supportsUnicode
    var dirty = true
    var nextTick = Date().addingTimeInterval(Self.tickSeconds)
    while true {
      for sig in pipe.drain() {
        if SignalPipe.quitSignals.contains(sig) { return }
        if sig == SIGWINCH, case .resize(let w, let h) = terminal.syncSize() {
          _ = state.handle(.resize(width: w, height: h))
          dirty = true
        }
      }
      var effects: [FleetEffect] = []
      for input in terminal.readInput() {
        switch input {
        case .key(let k): effects += state.handle(.key(k))
        case .resize(let w, let h): _ = state.handle(.resize(width: w, height: h))
        case .mouse: break
        }
        dirty = true
      }
      // The latest row of each device that changed (a device's screen may be open for long).
      let rows = inbox.withLock { r in
        defer { r = [:] }
        return r
      }
      for (i, row) in rows { _ = state.handle(.row(i, row)) }
      if !rows.isEmpty { dirty = true }
      for effect in effects {
        switch effect {
        case .quit: return
        case .open(let index):
          guard let source = monitor.source(index) else {
            let why = state.rows[index].downReason.map { ": " + $0 } ?? " yet"
            _ = state.handle(.message("\(Sanitizer.clean(state.rows[index].host)) is not connected\(why)"))
            dirty = true
            continue
          }
          terminal.restore()
          pipe.removeHandlers()
          openDevice(source)
          guard let again = open(choice) else {
            throw AppError.cursesRefused(term: term, width: nil, height: nil)
          }
          terminal = again
          dirty = true
        }
      }
      let now = Date()
      if now >= nextTick {
        _ = state.handle(.tick(now))
        nextTick = now.addingTimeInterval(Self.tickSeconds)
        dirty = true
      }
      if dirty {
        terminal.present(FleetRenderer.render(state))
        dirty = false
      }
      let wait = Int32(max(1, min(Self.tickSeconds, nextTick.timeIntervalSinceNow) * 1000))
      if pipe.wait(input: terminal.inputDescriptor, timeoutMs: wait) { return }
    }
  }

  /// Takes the terminal for the fleet: curses, the theme, the signal handlers, the size.
  private func open(_ choice: (theme: Theme, colorOff: Bool, problems: [String])) -> NcursesTerminal? {
    guard
      let terminal = NcursesTerminal(
        colors: !choice.colorOff,
        crashReport: options.environment[ProcessEnvironment.crashReport].flatMap { $0.isEmpty ? nil : $0 })
    else { return nil }
    terminal.setTheme(choice.theme, depth: choice.colorOff ? .none : terminal.colorDepth)
    pipe.installHandlers()
    let (w, h) = terminal.size
    _ = state.handle(.resize(width: w, height: h))
    return terminal
  }

  /// The device's full screen on this thread, until the person quits it.
  private func openDevice(_ source: any QueueSource) {
    do {
      try UILoop(source: source, options: options).run()
    } catch let error as AppError {
      _ = state.handle(.message(error.message))
    } catch {
      _ = state.handle(.message("\(error)"))
    }
  }
}
