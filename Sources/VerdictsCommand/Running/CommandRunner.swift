import FoundationEssentials
import MarfaQueue
import MarfaWire
import VerdictsRemote

#if canImport(Glibc)
  import Glibc
#endif

/// Runs one parsed command against the store and prints its result.
struct CommandRunner {
  /// What the command runs with.
  var context: CommandContext

  var args: ParsedArguments { context.arguments }
  var json: Bool { context.globals.json }

  /// Runs the command; a failure is thrown, to be printed by the caller.
  func run(_ id: CommandID) async throws -> ExitCode {
    if [.tui, .watch, .demo, .fleet].contains(id) { try checkLog() }
    if !RemoteCommands.local.contains(id), let remote = RemoteStore(context.globals.storePath) {
      return try await RemoteCommands.run(id, remote, context)
    }
    // A store the Marfa core wrote is read as any store and never written (CoreStoreCommands).
    let opensNoStore: Set<CommandID> = [
      .demo, .instance, .serve, .fleet, .completion, .complete, .manual, .configCheck,
    ]
    if !opensNoStore.contains(id), let core = try CoreStoreCommands.store(context) {
      defer { core.close() }
      return try await CoreStoreCommands.run(id, core, context)
    }
    switch id {
    case .tui: return try await ScreenCommands.tui(context)
    case .watch: return try await ScreenCommands.watch(context, plain: args.flag("--plain"))
    case .demo:
      return try await ScreenCommands.demo(context, plain: args.flag("--plain"), seconds: args.int("--seconds"))
    case .instance:
      return try await InstanceCommand.run(context, port: args.int("--port"), scenario: args.string("--scenario"))
    case .serve: return try await RemoteCommands.serve(context)
    case .fleet: return try await FleetCommand.run(context)
    case .status: return try await status()
    case .queue: return try await queue()
    case .show: return try await show()
    case .itemsGet, .itemsList, .edgesList, .edgesTo: return try await readCopy(id)
    case .drain: return try await drain()
    case .history: return try await history()
    case .log: return try await log()
    case .fill: return try await fill()
    case .catchUp: return try await catchUp()
    case .release: return try await release()
    case .withdraw: return try await withdraw()
    case .discard: return try await discard()
    case .forget: return try await forget()
    case .takeAnswered: return try await takeAnswered()
    case .departed: return try await departed()
    case .undo: return try await undo()
    case .report: return try await report()
    case .metrics: return try await metrics()
    case .hold: return try await hold()
    case .configCheck: return configCheck()
    case .completion: return completion()
    case .complete: return await complete()
    case .manual: return manual()
    case .itemsCreate, .itemsUpdate, .itemsDelete, .itemsRestore, .itemsTransition, .edgesCreate, .edgesUpdate,
      .edgesDelete, .tagsAdd, .tagsRemove, .metadataReplace, .metadataMerge, .extensionsWrite, .extensionsDelete,
      .blobsPut:
      return try await queueWrite(id)
    case .itemsAttach, .itemsAdd:
      return try await queueFile(id)
    }
  }

  /// Refuses a `--log` that is a link, a FIFO, a device or anything but a regular file before
  /// the screen starts (exit 2), so the screen never waits on it nor writes through a link.
  func checkLog() throws {
    guard let path = context.globals.logFile else { return }
    switch NamedFile.openForAppending(path) {
    case .success(let fd): close(fd)
    case .failure(let refusal):
      throw CommandFailure(
        usage: UsageError(path: [], message: "--log \(context.visible(path)) \(refusal.reason); nothing was started"))
    }
  }

  /// Opens the store as the writer if free, runs `body`, and closes it whatever happens.
  func withCopy<T: Sendable>(
    create: Bool, talksToInstance: Bool = false, _ body: (WorkingCopy) async throws -> T
  ) async throws -> T {
    let copy = try await context.open(create: create, talksToInstance: talksToInstance)
    defer { copy.close() }
    let result = try await body(copy)
    await warnIfDamaged(copy)
    return result
  }

  /// Says once, as a warning, the first number out of range the command read (``StoreDamage``).
  func warnIfDamaged(_ copy: WorkingCopy) async {
    if let damage = await copy.damage() { context.warn(code: "store_damaged", context.visible(damage.message)) }
  }

  /// Opens the store to read, runs `body`, and closes it.
  func withReader<T: Sendable>(_ body: (WorkingCopy) async throws -> T) async throws -> T {
    let copy = try await context.openReader()
    defer { copy.close() }
    let result = try await body(copy)
    await warnIfDamaged(copy)
    return result
  }

  /// Refuses an action on a reading handle before asking the queue anything.
  static func requireWriter(_ copy: WorkingCopy) throws {
    if case .reader(let reason) = copy.handle { throw QueueError.readingHandle(reason: reason) }
  }

  /// Why the engine's rule left a write alone, as a predicate ("is accepted; only …"); "is
  /// gone" when the queue no longer holds it.
  static func why(_ answer: ActionPermission?) -> String {
    answer?.obstacle?.predicate ?? "is gone"
  }

  /// Why a release left a write alone, as a predicate of the write.
  static func why(_ result: ReleaseResult) -> String {
    if case .notAllowed(let obstacle) = result { return obstacle.predicate }
    return "is gone"
  }
}
