import FoundationEssentials
import Glibc
import MarfaQueue

/// The terminal UI, as the command line calls it.
public enum VerdictsApp {
  /// Runs the TUI on this terminal until `q` or a quit signal, then restores the terminal.
  ///
  /// The UI runs on a thread of its own (every curses call on it); queue calls run in tasks
  /// and post back. A reader shows every key, greys out actions, and says why.
  ///
  /// - Throws: ``AppError/noTerminal(term:)`` when there is no terminal to run on.
  public static func run(copy: WorkingCopy, options: AppOptions) async throws {
    try await run(source: copy, options: options)
  }

  /// Runs the TUI over any queue source (the CLI passes a `WorkingCopy`).
  public static func run(source: QueueSource, options: AppOptions) async throws {
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, Error>) in
      DetachedThread.start(name: "verdicts-ui", stackSize: 8 << 20) {
        do {
          try UILoop(source: source, options: options).run()
          done.resume()
        } catch {
          done.resume(throwing: error)
        }
      }
    }
  }

  /// One frame as text, with the panes read from the store: for tests, benchmarks and tickets.
  public static func renderOnce(copy: QueueSource, size: (width: Int, height: Int), options: AppOptions = AppOptions())
    async throws -> String
  {
    try await renderGrid(copy: copy, size: size, options: options).text
  }

  /// One frame as a grid of cells (text, width, role, attributes).
  package static func renderGrid(copy: QueueSource, size: (width: Int, height: Int), options: AppOptions = AppOptions())
    async throws -> Grid
  {
    var state = prepare(source: copy, options: options).state
    _ = state.handle(.resize(width: size.width, height: size.height))
    _ = state.handle(.status(try await copy.status()))
    // The writer as it published itself, as the live screen reads it at start.
    if let writer = try? await copy.writer() { state.noteWriter(writer, at: Date()) }
    // Each pane read as the live screen reads it, and again where a page moved it (a tailing
    // Answered goes to its end), a few rounds at most.
    var effects = state.start()
    for _ in 0..<3 {
      var next: [UIEffect] = []
      for case .reload(let pane, let offset, let limit) in effects {
        let page = try await copy.page(pane, offset: offset, limit: limit, filter: nil)
        next += state.handle(.loaded(page))
      }
      effects = next
    }
    return Renderer.render(state)
  }

  /// The starting state for a source and options: config, keys, theme, read-only reason.
  package static func prepare(source: QueueSource, options: AppOptions) -> (
    state: UIState, theme: Theme, colorOff: Bool, problems: [String]
  ) {
    var problems: [String] = []
    var config = UIConfig()
    var keyMap = KeyMap.defaults
    if let dir = options.configDirectory {
      // Bounded, and a file that cannot be taken (too big, not UTF-8, not a file) is said, not ignored.
      func take(_ name: String, what: String, _ read: (String) -> [String]) {
        do {
          if let text = try ConfigFile.optionalText(dir + "/" + name, what: what) {
            problems += read(text).map { "\(dir)/\(name) \($0)" }
          }
        } catch let problem as ConfigFile.Problem {
          problems.append(Sanitizer.clean(problem.message))
        } catch {}
      }
      take("config", what: "config") { text in
        let read = UIConfig.read(text)
        config = read.config
        return read.problems.map { "\($0)" }
      }
      take("keys.conf", what: "keys file") { text in
        let read = KeyMap.read(text)
        keyMap = read.map
        return read.problems.map { "\($0)" }
      }
    }
    let choice = ThemeChoice.choose(
      flag: options.theme, environment: options.environment, config: config.theme, noColor: options.noColor,
      configDirectory: options.configDirectory)
    problems += choice.problems
    problems = options.notices + problems
    var state = UIState()
    state.keyMap = keyMap
    state.confirmWithdraw = config.confirmWithdraw
    state.confirmDiscard = config.confirmDiscard
    state.confirmTake = config.confirmTake
    state.confirmBulk = config.confirmBulk
    state.clipboard = config.clipboard
    state.clipboardRelay = ClipboardRelay.from(environment: options.environment)
    state.mouseOn = config.mouse && !options.noMouse
    state.keyHint = options.keyHint
    if let pane = options.startPane { state.focus = pane }
    state.guide = options.guide
    state.guideStep = options.guide.isEmpty ? nil : 0
    state.ascii = options.ascii || config.ascii
    state.instanceURL = source.instanceURL
    if case .reader(let reason) = source.handle { state.readOnlyReason = reason }
    state.autoDrain = options.autoDrain && !state.readOnly
    state.tailing = state.readOnly  // a watcher is there to see verdicts land
    if let first = problems.first {
      let more =
        problems.count > 1 ? " (and \(problems.count - 1) more\(options.logFile == nil ? "" : " in the log"))" : ""
      state.message = StatusMessage(first + more, isError: true)
    } else if let reason = state.readOnlyReason {
      state.message = StatusMessage("read-only: \(reason)", isError: false)
    }
    return (state, choice.theme, choice.colorOff, problems)
  }
}
