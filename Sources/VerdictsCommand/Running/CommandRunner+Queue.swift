import FoundationEssentials
import Glibc
import MarfaQueue
import VerdictsUI

/// The commands that read and act on the queue.
extension CommandRunner {
  func status() async throws -> ExitCode {
    // Read without taking the writer role, even for a moment: a drain started in the same
    // instant must find it free. The role is told as a writer's open would find it.
    let (status, last, answering) = try await withReader { copy in
      var status = try await copy.status()
      if status.kind.isOwned { status.handle = copy.writerRoleOnOffer() }
      let last = try await copy.history(limit: 1).first
      let answering =
        last.map { $0.answered > 0 } == true ? last : try await copy.history(limit: 1, answering: true).first
      return (status, last, answering)
    }
    let drains = StatusText.Drains(last: last, lastAnswering: answering)
    if json {
      context.printJSON(StatusText.json(status, drains: drains))
    } else {
      context.print(StatusText.render(status, ascii: context.globals.ascii, drains: drains))
    }
    return .done
  }

  /// `history`: the drains the store keeps, newest first (docs/cli.md "After the fact").
  /// `--since TIME`, parsed; a usage error naming `command` when it is not a time.
  func sinceArgument(_ command: String) throws -> Date? {
    guard let typed = args.string("--since") else { return nil }
    guard let time = SinceTime.parse(typed) else {
      throw CommandFailure(
        usage: UsageError(
          path: [command],
          message:
            "--since takes a time (2026-12-01T02:00:00Z), a day (2026-12-01) or a span (30m, 12h, 7d), not '\(context.visible(typed))'"
        ))
    }
    return time
  }

  /// `log`: the drains, the departures and the events, newest first, a line each.
  func log() async throws -> ExitCode {
    let since = try sinceArgument("log")
    let limit = args.int("--limit") ?? 100
    let ascii = context.globals.ascii
    let entries = try await withReader { copy in
      LogText.entries(
        drains: try await copy.history(since: since, limit: limit),
        departed: try await copy.queue.departed(since: since),
        events: try await copy.events(since: since, limit: limit), limit: limit, ascii: ascii)
    }
    if json {
      context.printJSON(.array(entries.map(\.json)))
    } else if entries.isEmpty {
      context.print(since == nil ? "nothing kept yet" : "nothing kept since \(Timestamp.text(since!))")
    } else {
      context.output.out(LogText.render(entries))
    }
    return .done
  }

  func history() async throws -> ExitCode {
    let since = try sinceArgument("history")
    let limit = args.int("--limit")
    let drains = try await withReader { try await $0.history(since: since, limit: limit) }
    if json {
      context.printJSON(.array(drains.map(\.wireJSON)))
    } else if drains.isEmpty {
      context.print(since == nil ? "no drain kept yet" : "no drain kept since \(Timestamp.text(since!))")
    } else {
      // Whole lines for a pipe; cut to the terminal's width on one, why each ended last.
      let width = isatty(STDOUT_FILENO) == 1 ? TerminalSize.read()?.width : nil
      context.output.out(
        args.flag("--wide")
          ? HistoryText.render(drains, ascii: context.globals.ascii)
          : HistoryText.renderNarrow(drains, width: width, ascii: context.globals.ascii))
    }
    return .done
  }

  func queue() async throws -> ExitCode {
    // A filter naming a field there is not is refused before the store is read.
    let selection = try QueueSelection(args)
    let json = self.json
    let (all, attempts) = try await withReader { copy in
      (try await copy.queue.all(), json ? try await copy.queue.allAttempts() : [:])
    }
    let writes = selection.apply(all)
    if json {
      context.printJSON(
        .array(
          writes.map { w in
            (attempts[w.id] ?? WriteAttempts()).wireMembers.reduce(w.wireJSON) { $0.setting($1.0, $1.1) }
          }))
    } else if writes.isEmpty {
      // What matched nothing is said, with how many writes there were.
      context.print(selection.nothingText(all: all, visible: context.visible))
    } else {
      context.output.out(QueueTable.render(writes, ascii: context.globals.ascii))
    }
    return .done
  }

  /// `show ID`: the write as the detail pane shows it, with the writes that wait on it.
  func show() async throws -> ExitCode {
    let typed = args.string("ID") ?? ""
    // A write no longer in the queue is looked for among the departed (``showDeparted``).
    let inQueue = try await withReader { copy -> QueueError? in
      do {
        _ = try await copy.queue.resolveID(typed)
        return nil
      } catch let error as QueueError {
        if case .unknownID = error { return error }
        throw error
      }
    }
    if let inQueue { return try await showDeparted(typed, notInQueue: inQueue) }
    // A write that left the queue between the two reads (a discard, a take) is in the archive:
    // it is shown from there, never said to be nowhere.
    let shown: (QueuedWrite, [String], Status?)
    do {
      shown = try await shownInQueue(typed)
    } catch let error as QueueError {
      switch error {
      case .notFound, .unknownID: return try await showDeparted(typed, notInQueue: error)
      default: throw error
      }
    }
    let (write, waitedOnBy, status) = shown
    printShown(write, waitedOnBy: waitedOnBy, status: status)
    return .done
  }

  /// The write `typed` names in the queue, the writes waiting on it, and the status, for `show`.
  func shownInQueue(_ typed: String) async throws -> (QueuedWrite, [String], Status?) {
    try await withReader { copy in
      let id = try await copy.queue.resolveID(typed)
      // As text, the answer and body as the detail pane shows them (a huge one cut, its size
      // said); with --json, the whole write.
      let write = try await json ? copy.queue.write(id) : copy.queue.shownWrite(id)
      // Read without bodies and answers: a store of huge answers costs no more than their rows.
      var waitedOnBy: [String] = []
      for pane in QueuePane.allCases {
        var cursor = 0
        while true {
          let (writes, next) = try await copy.queue.summaries(pane, cursor: cursor, limit: 2_000)
          waitedOnBy += writes.filter { $0.dependsOn.contains(id) || $0.follows == id }.map(\.id)
          if writes.count < 2_000 || next == cursor { break }
          cursor = next
        }
      }
      var shown = write
      if shown.attempts == nil { shown.attempts = try await copy.queue.attempts(of: id) }
      return (shown, waitedOnBy, try? await copy.status())
    }
  }

  /// Prints one write for `show`: the detail pane's text, or its wire JSON with `waited_on_by`
  /// (`core`: a Marfa core store's row, ``CoreStore/wireJSON(_:)``).
  func printShown(_ write: QueuedWrite, waitedOnBy: [String], status: Status?, core: Bool = false) {
    if json {
      var value = (core ? CoreStore.wireJSON(write) : write.wireJSON).setting(
        "waited_on_by", .array(waitedOnBy.map(JSONValue.string)))
      if !core { for (k, v) in (write.attempts ?? WriteAttempts()).wireMembers { value = value.setting(k, v) } }
      context.printJSON(value)
    } else {
      context.print(WriteDetail.text(write, status: status, waitedOnBy: waitedOnBy, ascii: context.globals.ascii))
    }
  }

  func drain() async throws -> ExitCode {
    // Bounded: the command holds the last entries only, whatever the queue's size (docs/rules.md).
    let report = try await withCopy(create: false, talksToInstance: true) { copy in
      // Ctrl-C or SIGTERM ends the drain at once, what it did kept (exit 3 `canceled`); a second
      // one ends the process without waiting on the write whose answer is still out.
      let stop = DrainSignals.watch(copy.queue)
      defer { stop.cancel() }
      return try await copy.queue.drain(keepingVerdicts: DrainReport.keptVerdicts)
    }
    if json {
      context.printJSON(report.wireJSON)
    } else {
      context.output.out(DrainText.render(report, ascii: context.globals.ascii))
    }
    if let failure = context.output.outFailure {
      throw CommandFailure(
        output: failure,
        note: "the drain ran and its verdicts are in the store (verdicts queue lists them); only this report was lost")
    }
    if let failure = CommandFailure(drained: report) {
      // With --json the report on standard output says why (`unavailable`, `undelivered`,
      // `stopped`), so standard error stays empty, as the contract's command has it; the exit
      // code still tells a script (docs/cli.md, "Exit codes").
      if json { return failure.exit }
      throw failure
    }
    return .done
  }

  func fill() async throws -> ExitCode {
    // Checked before the store is made, so a fill that cannot run creates nothing.
    guard try context.globals.server() != nil else { throw QueueError.noServer }
    let status = try await keyAsked {
      try await withCopy(create: true, talksToInstance: true) { copy in
        try Self.requireWriter(copy)
        try await copy.fill()
        return try await copy.status()
      }
    }
    if json {
      context.printJSON(StatusText.json(status))
    } else {
      context.print(
        "filled from instance \(context.visible(status.instanceId ?? "?")); cursor \(context.visible(status.cursor ?? "none"))"
      )
    }
    return .done
  }

  /// Runs `body`; a 401 when no key was given says where a key comes from, not only that the
  /// instance refused.
  private func keyAsked<T>(_ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch QueueError.server(let status, let code, let message)
      where status == 401 && (context.globals.key ?? "").isEmpty
    {
      var failure = CommandFailure(QueueError.server(status: status, code: code, message: message))
      failure.message =
        "the instance asks for a key (401) and none was given: MARFA_API_KEY, --key-file FILE or --key - gives it"
      throw failure
    }
  }

  func catchUp() async throws -> ExitCode {
    let (applied, status) = try await keyAsked {
      try await withCopy(create: false, talksToInstance: true) { copy in
        let applied = try await copy.catchUp()
        return (applied, try await copy.status())
      }
    }
    if json {
      // The status object, with how many events the catch-up applied.
      context.printJSON(StatusText.json(status).setting("applied", .int(applied)))
    } else {
      context.print("caught up; \(applied) event(s) applied; cursor \(context.visible(status.cursor ?? "none"))")
    }
    return .done
  }

  func release() async throws -> ExitCode {
    let released: Int
    let typed = args.strings("ID")
    if !typed.isEmpty {
      // Every ID is resolved before any is released; then one batch, one transaction.
      let outcomes = try await withCopy(create: false) { copy in
        var ids: [String] = []
        for t in typed { ids.append(try await copy.queue.resolveID(t)) }
        return try await copy.queue.release(ids: ids)
      }
      released = outcomes.filter(\.result.isReleased).count
      if !json {
        let refused = outcomes.filter { !$0.result.isReleased }
        if released == 0, refused.count == 1, let only = refused.first {
          context.print("nothing released: \(context.visible(only.id)) \(Self.why(only.result))")
          return .done
        }
        for outcome in refused {
          context.print("not released: \(context.visible(outcome.id)) \(Self.why(outcome.result))")
        }
      }
    } else {
      let name = args.string("--reason") ?? ""
      guard let reason = BlockedReason(rawValue: name) else {
        throw CommandFailure(usage: UsageError(path: ["release"], message: "unknown reason '\(name)'"))
      }
      released = try await withCopy(create: false) { try await $0.queue.release(reason: reason) }
    }
    if json {
      context.printJSON(.int(released))
    } else {
      context.print(
        released == 0 ? "nothing released" : "released \(released) write(s); the next drain sends them under fresh keys"
      )
    }
    return .done
  }

  func withdraw() async throws -> ExitCode {
    let typed = args.string("ID") ?? ""
    let (id, done, answer) = try await withCopy(create: false, talksToInstance: true) { copy in
      let id = try await copy.queue.resolveID(typed)
      let done = try await copy.queue.withdraw(id)
      return (id, done, done ? nil : try? await copy.queue.permission(.withdraw, for: id))
    }
    if json {
      context.printJSON(.bool(done))
    } else if done {
      context.print("withdrew \(context.visible(id)); the row is back as the instance holds it")
    } else if answer == .allowed {
      context.print("\(context.visible(id)) was not withdrawn: the copy moved while its row was read; ask again")
    } else {
      context.print("\(context.visible(id)) was not withdrawn: it \(Self.why(answer))")
    }
    return .done
  }

  func discard() async throws -> ExitCode {
    let typed = args.string("ID") ?? ""
    let (id, done, answer) = try await withCopy(create: false) { copy in
      let id = try await copy.queue.resolveID(typed)
      let done = try await copy.queue.discard(id)
      return (id, done, done ? nil : try? await copy.queue.permission(.discard, for: id))
    }
    if json {
      context.printJSON(.bool(done))
    } else if done {
      context.print("discarded \(context.visible(id)) and the content it carried")
    } else {
      context.print("\(context.visible(id)) was not discarded: it \(Self.why(answer))")
    }
    return .done
  }

  func forget() async throws -> ExitCode {
    let typed = args.strings("ID")
    let (forgotten, kept) = try await withCopy(create: false) { copy -> (Int, [(String, ActionObstacle)]) in
      try Self.requireWriter(copy)
      if typed.isEmpty { return (try await copy.queue.forgetAnswered(), []) }
      // An id that names no one write is bad input: refuse the whole call, change nothing.
      var ids: [String] = []
      for t in typed { ids.append(try await copy.queue.resolveID(t)) }
      var kept: [(String, ActionObstacle)] = []
      for id in ids where !kept.contains(where: { $0.0 == id }) {
        if let obstacle = try await copy.queue.permission(.forget, for: id).obstacle { kept.append((id, obstacle)) }
      }
      return (try await copy.queue.forgetAnswered(ids: ids), kept)
    }
    if json {
      context.printJSON(.int(forgotten))
    } else {
      context.print("forgot \(forgotten) answered write(s)")
      for (id, obstacle) in kept { context.print("kept \(context.visible(id)): it \(obstacle.predicate)") }
    }
    return .done
  }

  /// `take-answered [--output FILE]`: the answered writes leave the store only once they are
  /// delivered: printed and flushed to standard output (synced when it is a file), or with
  /// `--output` written to a new file synced with its folder. A failure leaves the store as it was.
  func takeAnswered() async throws -> ExitCode {
    // Checked before the store is opened: bad input changes nothing.
    let file = try args.string("--output").map {
      try DeliveryFile(path: GlobalOptions.expand($0, context.environment), option: "--output")
    }
    let deliver = Self.delivery(to: file, context)
    let taken = try await withCopy(create: false) { copy in
      try Self.requireWriter(copy)
      return try await copy.queue.takeAnswered(deliveringFirst: deliver)
    }
    if json {
      // The writes went to the file; standard output says how many.
      if file != nil { context.printJSON(.int(taken.count)) }
    } else if taken.isEmpty {
      context.print(
        "no answered write could be taken" + (file.map { "; \(context.visible($0.path)) was not written" } ?? ""))
    } else if let file {
      context.print("took \(taken.count) answered write(s) into \(context.visible(file.path))")
    } else {
      context.print("took \(taken.count) answered write(s)")
    }
    return .done
  }

  /// How `take-answered` delivers the writes before they are cleared: into `file` (as JSON,
  /// whatever the output's form: every field whole), else on standard output, delivered.
  static func delivery(to file: DeliveryFile?, _ context: CommandContext) -> @Sendable ([QueuedWrite]) throws -> Void {
    { writes in
      if let file {
        guard !writes.isEmpty else { return }
        try file.write(JSONValue.array(writes.map(\.wireJSON)).text(escaping: .visible) + "\n")
        return
      }
      if context.globals.json {
        context.printJSON(.array(writes.map(\.wireJSON)))
      } else if !writes.isEmpty {
        context.output.out(QueueTable.render(writes, ascii: context.globals.ascii))
      }
      do {
        try context.output.deliver()
      } catch let failure as OutputFailure {
        let note =
          writes.isEmpty
          ? "nothing was taken" : "nothing was taken: the \(writes.count) answered write(s) are still in the store"
        throw CommandFailure(output: failure, note: note)
      }
    }
  }

  /// Holds the writer role for a while (for tests of the one-writer rule, and for support).
  func hold() async throws -> ExitCode {
    let seconds = args.int("--seconds") ?? 60
    try await withCopy(create: false) { copy in
      try Self.requireWriter(copy)
      if json {
        context.printJSON(.object([("holding", .string(copy.storePath)), ("seconds", .int(seconds))]))
      } else {
        context.print("holding the writer role of \(context.visible(copy.storePath)) for \(seconds) s")
      }
      try await Task.sleep(nanoseconds: UInt64(seconds) * 1_000_000_000)
    }
    return .done
  }
}
