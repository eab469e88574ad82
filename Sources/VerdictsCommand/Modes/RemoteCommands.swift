import FoundationEssentials
import MarfaQueue
import MarfaWire
import VerdictsRemote
import VerdictsUI

#if canImport(Glibc)
  import Glibc
#endif

/// A store on another machine (`--store ssh://host/path` or `host:path`), and `serve`, the
/// device's side of such a link (docs/remote.md).
enum RemoteCommands {
  /// Commands that need no store, or make their own: never sent to a device.
  static let local: Set<CommandID> = [.instance, .fleet, .completion, .complete, .manual, .configCheck]

  /// Runs `id` against the device's store: the screen and `watch` over the remote protocol,
  /// every other command on the device through ssh as typed, its output and exit code its own.
  static func run(_ id: CommandID, _ remote: RemoteStore, _ context: CommandContext) async throws -> ExitCode {
    switch id {
    case .serve:
      throw CommandFailure(
        usage: UsageError(path: ["serve"], message: "serve opens a store on this machine; --store names another"))
    case .demo:
      throw CommandFailure(usage: UsageError(path: ["demo"], message: "the demo makes its store on this machine"))
    case .tui: return try await screen(remote, context, writer: true, plain: false)
    case .watch: return try await screen(remote, context, writer: false, plain: context.arguments.flag("--plain"))
    default: return try oneShot(remote, context)
    }
  }

  /// `verdicts serve`: the remote protocol on stdin/stdout for this machine's store, until stdin
  /// ends. `--writer` takes the writer role when it is free (the screen's way); `--read-only`
  /// never does and refuses every call that acts.
  static func serve(_ context: CommandContext) async throws -> ExitCode {
    let readOnly = context.arguments.flag("--read-only")
    // Under a key pinned to `serve --read-only` (authorized_keys `command=`), ssh runs this
    // whatever was asked, and says what was in SSH_ORIGINAL_COMMAND: a command that is not a
    // screen's link is refused in words, never answered with the protocol.
    if readOnly, let asked = context.environment["SSH_ORIGINAL_COMMAND"],
      !asked.split(separator: " ").contains(where: { $0 == "serve" || $0 == "'serve'" })
    {
      throw CommandFailure(
        code: "read_only",
        message:
          "this key may only watch (verdicts serve --read-only): \(context.visible(asked)) was not run; "
          + "use the screen or watch (verdicts --store HOST:PATH watch)",
        exit: .deviceRule)
    }
    let copy: WorkingCopy
    if context.arguments.flag("--writer") && !readOnly {
      let server = context.globals.url == nil ? nil : try context.server(warnIfClear: false)
      copy = try await WorkingCopy.open(
        store: URL(fileURLWithPath: context.globals.storePath), server: server, create: false)
      await copy.describeWriter(program: "verdicts", mode: "serve")
    } else {
      copy = try await context.openReader(warn: false)
    }
    defer { copy.close() }
    let greeting = RemoteGreeting(
      versions: RemoteWire.versions, offers: RemoteWire.offers,
      program: CommandTable.version + " " + BuildStamp.words, store: copy.storePath, handle: copy.handle,
      readOnly: readOnly, instance: copy.instanceURL)
    await RemoteServer(source: copy, greeting: greeting).run()
    return .done
  }

  private static func screen(_ remote: RemoteStore, _ context: CommandContext, writer: Bool, plain: Bool) async throws
    -> ExitCode
  {
    let source: RemoteSource
    do {
      // A URL typed here is the device's instance for this link's drains (never the key: `K`
      // gives one, across the link); MARFA_API_URL here names this machine's instance, not sent.
      source = try RemoteSource(
        store: remote, environment: context.environment, writer: writer,
        instance: context.arguments.globals["--url"])
    } catch let failure as RemoteSource.LinkFailure {
      throw CommandFailure(code: "link", message: failure.message, exit: .environment)
    }
    defer { source.close() }
    if plain {
      let notices = Task {
        guard let stream = source.linkNotices() else { return }
        for await text in stream { context.output.err("verdicts: \(text)\n") }
      }
      defer { notices.cancel() }
      return await ScreenCommands.printPlain(source, context, filter: try ScreenCommands.plainFilter(context))
    }
    let options = ScreenCommands.options(context, autoDrain: false)
    do {
      try await VerdictsApp.run(source: source, options: options)
    } catch let error as AppError {
      throw CommandFailure(code: "usage", message: error.message, exit: .usage)
    }
    return .done
  }

  /// The command as typed, run by the device's `verdicts` on its store: its output, its words and
  /// its exit code are the device's (each line made safe on a terminal: ``DeviceCommand``).
  private static func oneShot(_ remote: RemoteStore, _ context: CommandContext) throws -> ExitCode {
    if context.arguments.string("--output") != nil {
      throw CommandFailure(
        usage: UsageError(
          path: [], message: "--output would write the file on \(remote.destination); with a remote store use > FILE"))
    }
    var words = [RemoteStore.program(context.environment)]
    if let path = remote.path { words += ["--store", path] }
    words += withoutStore(context.rawArguments)
    let argv = remote.command(
      running: words, environment: context.environment,
      options: ["-o", "BatchMode=yes", "-o", "ConnectTimeout=10"])
    let code: Int32
    do {
      code = try DeviceCommand.run(argv, environment: context.environment, ascii: context.globals.ascii)
    } catch let failure as RemoteFailure {
      throw CommandFailure(code: "link", message: failure.message, exit: .environment)
    }
    switch code {
    case 127:
      throw CommandFailure(
        code: "link",
        message:
          "verdicts was not found on \(remote.destination): install it there, or name it with VERDICTS_REMOTE_PATH",
        exit: .environment)
    case 255:
      throw CommandFailure(code: "link", message: "ssh could not reach \(remote.destination)", exit: .environment)
    default:
      return ExitCode(rawValue: code) ?? .environment
    }
  }

  /// The arguments without `--store` and its value (the device's path goes first instead).
  static func withoutStore(_ arguments: [String]) -> [String] {
    var out: [String] = []
    var skip = false
    for a in arguments {
      if skip {
        skip = false
        continue
      }
      if a == "--" {
        out.append(a)
        continue
      }
      if a == "--store" {
        skip = true
        continue
      }
      if a.hasPrefix("--store=") { continue }
      out.append(a)
    }
    return out
  }

}
