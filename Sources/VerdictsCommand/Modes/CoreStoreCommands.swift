import FoundationEssentials
import Glibc
import MarfaQueue
import VerdictsUI

/// The commands on a store the Marfa core wrote: the reading ones show it as any store; every
/// action is refused (exit 4) naming the `marfa` command that does it, since verdicts never writes
/// a store it does not own.
enum CoreStoreCommands {
  /// The core store at the context's `--store`, when there is one there; nil for any other file
  /// (this project's store, a missing file, a foreign one: the usual open says what it is).
  static func store(_ context: CommandContext) throws -> CoreStore? {
    let path = context.globals.storePath
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    let kind: StoreKind
    do {
      kind = try StoreFile.kind(at: path)
    } catch QueueError.unknownSchema(let path, let found, let reads) {
      throw QueueError.unknownSchema(path: path, found: found, reads: reads)
    } catch {
      return nil
    }
    guard case .marfaCore = kind else { return nil }
    return try CoreStore.open(path: path)
  }

  /// Runs `id` on the core store.
  static func run(_ id: CommandID, _ core: CoreStore, _ context: CommandContext) async throws -> ExitCode {
    let args = context.arguments
    switch id {
    case .tui, .watch:
      if id == .watch, args.flag("--plain") {
        // The core's store has no send-order cursor to start after: `--from now` only.
        guard let from = args.string("--from") else { return await ScreenCommands.printPlain(core, context) }
        guard from.lowercased() == "now" else {
          throw CommandFailure(
            usage: UsageError(path: ["watch"], message: "--from on the Marfa core's store takes now only"))
        }
        return await ScreenCommands.printPlain(core, context, from: .now)
      }
      do {
        try await VerdictsApp.run(
          source: core, options: ScreenCommands.options(context, autoDrain: false))
      } catch let error as AppError {
        throw CommandFailure(
          code: "usage", message: error.message, exit: .usage)
      }
      return .done
    case .status:
      let status = try core.readStatus()
      if context.globals.json {
        context.printJSON(StatusText.json(status))
      } else {
        context.print(StatusText.render(status, ascii: context.globals.ascii))
      }
      return .done
    case .queue:
      let selection = try QueueSelection(args)
      let all = try core.readAll()
      let writes = selection.apply(all)
      if context.globals.json {
        // What the core does not keep is null, not a zero or an empty failure, and `not_kept` says so.
        context.printJSON(.array(writes.map(CoreStore.wireJSON)))
      } else if writes.isEmpty {
        context.print(selection.nothingText(all: all, visible: context.visible))
      } else {
        context.output.out(QueueTable.render(writes, ascii: context.globals.ascii))
      }
      return .done
    case .show:
      let resolver = WriteIDResolver(ids: try core.readAll().map(\.id))
      let id = try resolver.id(for: args.string("ID") ?? "")
      let all = try core.readAll()
      guard let write = all.first(where: { $0.id == id }) else { throw QueueError.notFound(id: id) }
      let waitedOnBy = all.filter { $0.dependsOn.contains(id) || $0.follows == id }.map(\.id)
      let runner = CommandRunner(context: context)
      runner.printShown(write, waitedOnBy: waitedOnBy, status: try? core.readStatus(), core: true)
      return .done
    case .release:
      if let reason = args.string("--reason") { throw core.refusal("release", ["--reason", reason]) }
      throw core.refusal("release", try resolved(args.strings("ID"), core))
    case .withdraw: throw core.refusal("withdraw", try resolved(args.strings("ID"), core))
    case .discard: throw core.refusal("discard", try resolved(args.strings("ID"), core))
    case .forget: throw core.refusal("forget", try resolved(args.strings("ID"), core))
    case .takeAnswered: throw core.refusal("forget")
    case .departed:
      // The core keeps no archive: nothing departed is kept, and `report` says so too.
      if context.globals.json {
        context.printJSON(.array([]))
      } else {
        context.print("no departed write is kept: the Marfa core store keeps no archive of writes that left")
      }
      return .done
    case .undo:
      throw QueueError.readingHandle(
        reason: "this is a Marfa core store, which verdicts only reads, and it keeps no archive of writes that left")
    case .report:
      let runner = CommandRunner(context: context)
      let file = try runner.reportFile()
      let report = try TicketReport.gather(
        core: core, path: context.globals.storePath, withBodies: args.flag("--with-bodies"),
        key: context.globals.key ?? context.environment["MARFA_API_KEY"])
      try runner.deliver(report, to: file)
      return .done
    case .drain, .hold: throw core.refusal("drain")
    case .history, .log:
      throw QueueError.invalid(
        message:
          "this is a Marfa core store, which keeps no history of its drains (verdicts history reads a verdicts store)")
    case .metrics:
      throw QueueError.invalid(
        message:
          "this is a Marfa core store, which keeps no drain history nor writer record to measure "
          + "(verdicts metrics reads a verdicts store)")
    case .fill, .catchUp: throw core.refusal("hydrate")
    case .itemsGet, .itemsList, .edgesList, .edgesTo:
      throw QueueError.invalid(
        message: "this is a Marfa core store: verdicts reads its queue, not its rows (`marfa device --db … items`)")
    case .demo, .instance, .serve, .fleet, .completion, .complete, .manual, .configCheck:
      throw QueueError.invalid(message: "internal: \(id.rawValue) does not open a store")
    case .itemsCreate, .itemsUpdate, .itemsDelete, .itemsRestore, .itemsTransition, .edgesCreate, .edgesUpdate,
      .edgesDelete, .tagsAdd, .tagsRemove, .metadataReplace, .metadataMerge, .extensionsWrite, .extensionsDelete,
      .blobsPut, .itemsAttach, .itemsAdd:
      throw QueueError.readingHandle(
        reason: "this is a Marfa core store, which verdicts only reads; queue writes through the app that owns it "
          + "(or `marfa device --db \(context.globals.storePath) …`)")
    }
  }

  /// The full IDs the typed ones name in the core store (``WriteIDResolver``).
  static func resolved(_ typed: [String], _ core: CoreStore) throws -> [String] {
    guard !typed.isEmpty else { return [] }
    let resolver = WriteIDResolver(ids: try core.readAll().map(\.id))
    return try typed.map { try resolver.id(for: $0) }
  }
}
