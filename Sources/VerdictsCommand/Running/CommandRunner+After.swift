import FoundationEssentials
import MarfaQueue
import VerdictsUI

/// The commands about what happened while nobody watched: the departed writes, an undo, the
/// ticket's report (docs/cli.md, "After the fact").
extension CommandRunner {
  /// `departed [--limit N]`: the archive's writes, newest departure first.
  func departed() async throws -> ExitCode {
    let limit = args.int("--limit")
    let departed = try await withReader { try await $0.queue.departed(limit: limit) }
    if json {
      context.printJSON(.array(departed.map(\.wireJSON)))
    } else if departed.isEmpty {
      context.print("no departed write is kept")
    } else {
      let ascii = context.globals.ascii
      context.output.out(DepartedText.table(departed, ascii: ascii))
    }
    return .done
  }

  /// `undo ID`: puts a discarded, forgotten or taken write back; a refusal exits 4 saying why.
  func undo() async throws -> ExitCode {
    let typed = args.string("ID") ?? ""
    let (id, outcome) = try await withCopy(create: false) { copy -> (String, UndoOutcome) in
      try Self.requireWriter(copy)
      let id: String
      do {
        id = try await copy.queue.resolveDepartedID(typed)
      } catch let error as QueueError {
        // A write still in the queue is named so; any other id is unknown to both.
        if let queued = try? await copy.queue.resolveID(typed) { return (queued, .refused(.inQueue)) }
        throw error
      }
      return (id, try await copy.queue.undo(id))
    }
    switch outcome {
    case .restored(let kept):
      if json {
        context.printJSON(.bool(true))
      } else {
        context.print(
          "put back \(context.visible(id)) (\(kept.departure.rawValue) \(Timestamp.text(kept.departedAt))) "
            + "in its place in the send order")
      }
      return .done
    case .refused(let obstacle):
      throw CommandFailure(
        code: "undo_refused", message: context.visible("\(id) cannot be put back: \(obstacle.predicate)"),
        exit: .deviceRule)
    }
  }

  /// `show ID` of a write no longer in the queue: the archive's copy, saying that it left and why.
  func showDeparted(_ typed: String, notInQueue: QueueError) async throws -> ExitCode {
    let kept = try await withReader { copy -> DepartedWrite? in
      guard let id = try? await copy.queue.resolveDepartedID(typed) else { return nil }
      return try await copy.queue.departedWrite(id)
    }
    guard let kept else { throw notInQueue }
    if json {
      context.printJSON(kept.wireJSON)
    } else {
      context.print(DepartedText.header(kept, ascii: context.globals.ascii))
      context.print(
        WriteDetail.text(kept.write, status: nil, waitedOnBy: [], ascii: context.globals.ascii, departed: true))
    }
    return .done
  }

  /// `report [--output FILE] [--with-bodies]`: one self-contained file for a ticket (``TicketReport``).
  func report() async throws -> ExitCode {
    let file = try reportFile()
    let key = context.globals.key ?? context.environment["MARFA_API_KEY"]
    let report = try await withReader { copy in
      try await TicketReport.gather(
        copy, path: context.globals.storePath, withBodies: args.flag("--with-bodies"), key: key)
    }
    try deliver(report, to: file)
    return .done
  }

  /// Prints the report, or writes it to `file` (a new file, synced).
  func deliver(_ report: TicketReport, to file: DeliveryFile?) throws {
    let text = json ? report.json.text(escaping: .visible) : report.text(ascii: context.globals.ascii)
    if let file {
      try file.write(text + "\n")
      context.print("wrote the report (\(text.utf8.count + 1) bytes) to \(context.visible(file.path))")
    } else {
      context.output.out(text + "\n")
    }
  }

  /// The `--output` of `report`, checked before the store is opened.
  func reportFile() throws -> DeliveryFile? {
    try args.string("--output").map {
      try DeliveryFile(path: GlobalOptions.expand($0, context.environment), option: "--output", command: "report")
    }
  }
}
