import FoundationEssentials
import MarfaQueue
import MarfaWire
import VerdictsUI

#if canImport(Glibc)
  import Glibc
#endif

/// `verdicts [tui]`, `verdicts watch [--plain]` and `verdicts demo [--plain]`.
enum ScreenCommands {
  static func options(_ context: CommandContext, autoDrain: Bool) -> AppOptions {
    var options = AppOptions(
      theme: context.globals.theme, ascii: context.globals.ascii, noColor: context.globals.noColor,
      autoDrain: autoDrain, logFile: context.globals.logFile, environment: context.environment)
    options.noMouse = context.arguments.globalFlags.contains("--no-mouse")
    return options
  }

  /// Runs the TUI, turning a missing terminal into a usage error.
  static func runUI(_ copy: WorkingCopy, _ context: CommandContext, autoDrain: Bool, demo: Bool = false) async throws
    -> ExitCode
  {
    var options = options(context, autoDrain: autoDrain)
    // What others could change of the store's files: on the status line, where it is seen.
    options.notices = copy.storeWarnings.map { Sanitizer.clean($0, ascii: context.globals.ascii) }
    if demo {
      // The tour teaches: it opens on Blocked, and a refused-key stop names the key to give.
      options.keyHint = DemoDriver.secondKey
      options.startPane = .blocked
      options.guide = DemoDriver.guide
    }
    do {
      try await VerdictsApp.run(copy: copy, options: options)
    } catch let error as AppError {
      throw CommandFailure(
        code: "usage", message: error.message, exit: .usage)
    }
    return .done
  }

  /// The TUI: the writer if the store is free, else read-only.
  static func tui(_ context: CommandContext) async throws -> ExitCode {
    let server = context.globals.url == nil ? nil : try context.server(warnIfClear: true)
    let copy = try await WorkingCopy.open(
      store: URL(fileURLWithPath: context.globals.storePath), server: server, create: false)
    defer { copy.close() }
    await copy.describeWriter(program: "verdicts", mode: "tui")
    return try await runUI(copy, context, autoDrain: false)
  }

  /// Read-only: the TUI, or with `plain` a line per change until interrupted.
  static func watch(_ context: CommandContext, plain: Bool) async throws -> ExitCode {
    if context.arguments.flag("--wait"), !(try await waitForStore(context)) { return .done }
    let from = context.arguments.string("--from")
    if from != nil, !plain { throw CommandFailure(usage: UsageError(path: ["watch"], message: "--from needs --plain")) }
    if context.arguments.string("--filter") != nil, !plain {
      throw CommandFailure(
        usage: UsageError(path: ["watch"], message: "--filter needs --plain (on the screen, press / to filter)"))
    }
    let filter = try plainFilter(context)
    if let from, from.trimmingSpaces().isEmpty {
      throw CommandFailure(usage: UsageError(path: ["watch"], message: "--from takes now or a write's id"))
    }
    let copy = try await context.openReader(warn: plain)
    defer { copy.close() }
    // A follower, not a writer: long slices, so a drain on the same device is never kept waiting.
    WatcherSlice.requestForEveryThread()
    guard plain else { return try await runUI(copy, context, autoDrain: false) }
    return await printPlain(copy, context, from: try await plainStart(from, copy), filter: filter)
  }

  /// `watch --plain --filter TERMS`: the TUI's filter (``WriteFilter``), refused as `queue
  /// --filter` refuses one (exit 2, naming the fields) before anything is printed.
  static func plainFilter(_ context: CommandContext) throws -> WriteFilter? {
    guard let text = context.arguments.string("--filter") else { return nil }
    do {
      return try WriteFilter.parse(text)
    } catch {
      throw CommandFailure(usage: UsageError(path: ["watch"], message: context.visible(error.message)))
    }
  }

  /// Where `watch --plain` starts: `--from now`, `--from ID` (after that write), or every write.
  /// An id the queue doesn't hold (or more than one write has) is a usage error: exit 2.
  static func plainStart(_ from: String?, _ copy: WorkingCopy) async throws -> PlainStart {
    guard let from else { return .everything }
    if from.lowercased() == "now" { return .now }
    do {
      let id = try await copy.queue.resolveID(from)
      return .after(cursor: try await copy.queue.sendOrder(of: id))
    } catch let error as QueueError {
      switch error {
      case .notFound, .unknownID, .ambiguousID:
        let why = CommandFailure(error).message
        throw CommandFailure(
          usage: UsageError(path: ["watch"], message: "--from takes now or a write's id: \(why)"))
      default: throw error
      }
    }
  }

  /// `watch --plain` on any source: the header (not with `--json`), a line per write and per
  /// change, until interrupted.
  static func printPlain(
    _ source: QueueSource, _ context: CommandContext, from: PlainStart = .everything, filter: WriteFilter? = nil
  ) async -> ExitCode {
    let json = context.globals.json
    if !json { context.print(PlainFormatter.header) }
    let output = context.output
    let ascii = context.globals.ascii
    let printer = Task {
      // Following the file at the path: a store made again there is read from its start.
      await VerdictsApp.followPlain(
        source: source, emit: { output.out($0 + "\n") }, ascii: ascii, json: json, from: from, filter: filter)
    }
    // Output that is gone (a closed pipe, a full disk) ends it: the caller says so, exit 3.
    await SignalWait.untilInterrupted(orWhen: { output.isGone() })
    printer.cancel()
    return .done
  }

  /// The tour on a scripted instance, in a temporary store.
  /// Where `demo` makes its fresh store: the path `--store` names, so a second terminal can
  /// watch the tour there (`verdicts watch --store PATH`), else a folder of its own in the
  /// temporary directory (`MARFA_DB` is not read: it names a real store). A path that already
  /// holds a file is refused and left alone: the demo never writes over a store.
  static func demoStorePath(_ context: CommandContext) throws -> String? {
    guard context.arguments.globals["--store"] != nil else { return nil }
    let path = context.globals.storePath
    guard !FileManager.default.fileExists(atPath: path) else {
      throw CommandFailure(
        usage: UsageError(
          path: ["demo"],
          message:
            "\(path) already exists: the demo makes a fresh store; give a path where none is, or leave --store out"
        ))
    }
    return path
  }

  static func demo(_ context: CommandContext, plain: Bool, seconds: Int?) async throws -> ExitCode {
    let demo = try await DemoDriver.start(storePath: try demoStorePath(context))
    defer { demo.stop() }
    let output = context.output
    let log = context.globals.logFile
    guard plain else {
      let walker = Task {
        await demo.walkTour { line in
          // A key never reaches a log, the demo's own second key included: the screen says it.
          let logged = line.replacing(DemoDriver.secondKey, with: "the second key")
          if let log { AppendLog.line(logged, to: log) }
        }
      }
      let code = try await runUI(demo.copy, context, autoDrain: true, demo: true)
      walker.cancel()
      return code
    }
    context.print(PlainFormatter.header)
    let ascii = context.globals.ascii
    let printer = Task {
      await VerdictsApp.watchPlain(source: demo.copy, emit: { output.out($0 + "\n") }, ascii: ascii, writerLines: false)
    }
    let held = Task {
      for await _ in demo.copy.updates() {}
    }
    await demo.walkTour(plain: true) { output.out("# \($0)\n") }
    let wait = Double(seconds ?? 10)
    let end = Date().addingTimeInterval(wait)
    while Date() < end { try? await Task.sleep(nanoseconds: 100_000_000) }
    printer.cancel()
    held.cancel()
    try? await Task.sleep(nanoseconds: 150_000_000)
    let all = try await demo.copy.queue.all()
    let counts = try await demo.copy.queue.counts()
    let reasons = Set(all.compactMap { $0.verdict?.blockedReason?.wireName }).sorted()
    output.out(
      "# summary: \(counts.waiting) waiting, \(counts.answered) answered, \(counts.blocked) blocked, \(counts.dead) dead; blocked for: \(reasons.joined(separator: ", "))\n"
    )
    return .done
  }
}

/// Appends a line to a log file (the screen is never written to while the TUI runs); a line that
/// cannot be written (a full disk, `/dev/full`) is dropped, never fatal.
enum AppendLog {
  static func line(_ text: String, to path: String) {
    guard case .success(let fd) = NamedFile.openForAppending(path) else { return }
    defer { close(fd) }
    let bytes = Array((text + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return }
      offset += n
    }
  }
}
