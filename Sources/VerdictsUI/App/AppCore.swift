import FoundationEssentials
import Glibc
import MarfaQueue

/// The app's engine, shared by the ncurses loop and tests: the state machine applied on the UI
/// thread, and queue calls run in tasks that post back through the ``AppInbox``.
///
/// Not `Sendable`: `state`, `dirty` and the load bookkeeping belong to the thread that owns the
/// core (the UI loop's), and the compiler keeps every task to the inbox.
final class AppCore {
  let inbox: AppInbox
  private var listeners: [Task<Void, Never>] = []
  private var autoDrainTask: Task<Void, Never>?

  var state: UIState
  var dirty = true
  var quitting = false
  var quitReason: String?
  var repaintRequested = false
  /// Sequences for the terminal to act on (OSC 52), sent by the loop after the next frame.
  var rawOut: [[UInt8]] = []
  private var loading: Set<QueuePane> = []
  private var pendingLoads: [QueuePane: (offset: Int, limit: Int)] = [:]
  private var statusLoading = false
  private var statusPending = false
  private var statusRead = false
  /// The detail's write (its attempts left out) whose attempts were last asked for.
  private var attemptsAsked: QueuedWrite?

  var source: QueueSource { inbox.source }
  var log: AppLog { inbox.log }

  init(
    source: QueueSource, state: UIState, log: AppLog, clock: any AppClock = ContinuousAppClock(),
    wake: @escaping @Sendable () -> Void
  ) {
    self.inbox = AppInbox(source: source, log: log, clock: clock, wake: wake)
    self.state = state
    self.state.summaryPages = source.pagesAreSummaries
  }

  /// Whether nothing is running or waiting (tests settle on this).
  var idle: Bool { inbox.idle }

  /// Whether page or status reads are under way (a frame waits a moment for them, ``FramePacer``).
  var reading: Bool { !loading.isEmpty || statusLoading || inbox.busy }

  /// Whether every pane's first page and the status have been read (or tried): the first frame
  /// waits for them, so it never shows a count that is not known yet (``FramePacer``).
  var firstReadsDone: Bool {
    statusRead && QueuePane.allCases.allSatisfy { state[$0].loaded }
  }

  /// Starts listening to the copy and reads every pane.
  func start() {
    listen(to: source)
    let weakInbox = WeakInbox(inbox)
    listeners.append(Task.detached { await AppCore.watchWriter { weakInbox.inbox } })
    execute(state.start())
    if state.autoDrain { execute([.toggleAutoDrain(on: true)]) }
  }

  /// Follows a source's changes (until its stream ends: the source closed), and its link's
  /// news where it has a link.
  private func listen(to source: QueueSource) {
    if let notices = source.linkNotices() {
      listeners.append(
        Task.detached { [weak inbox = self.inbox] in
          for await text in notices {
            guard let inbox else { return }
            inbox.post(.event(.outcome(text, isError: text.contains(" lost "))))
          }
        })
    }
    listeners.append(
      Task.detached { [weak inbox = self.inbox] in
        for await change in source.changes() {
          guard let inbox else { return }
          switch change {
          case .serverReachable: inbox.post(.event(.reachable(true)))
          case .serverUnreachable: inbox.post(.event(.reachable(false)))
          case .stopped(let why):
            inbox.post(.event(.outcome("drain stopped: \(why)", isError: true)))
            inbox.noteChange()
          default: inbox.noteChange()
          }
        }
      })
  }

  /// The store was replaced and the inbox's source reads the new file: every pane from its start,
  /// the status and the writer as the new file says, and its changes followed.
  private func followReopened() {
    var fresh = state
    fresh.panes = QueuePane.allCases.map(PaneState.init)
    fresh.status = nil
    fresh.lastDrain = nil
    fresh.writer = nil
    fresh.writerLastAlive = nil
    fresh.storeFile = .same
    fresh.storeFileChangedAt = nil
    fresh.fresh = []
    fresh.seen = [:]
    fresh.changeReads = []
    fresh.marks = []
    fresh.following = nil
    fresh.detailScroll = 0
    state = fresh
    pendingLoads = [:]
    dirty = true
    log.log("store replaced: reading the new file from the start")
    listen(to: source)
    execute(state.start())
  }

  /// Stops every listener and the held updates.
  func stop() {
    for t in listeners { t.cancel() }
    listeners = []
    autoDrainTask?.cancel()
    autoDrainTask = nil
  }

  /// Applies everything posted so far; on the UI thread.
  func process() {
    for m in inbox.take() {
      switch m {
      case .event(let e): apply(e)
      case .page(let page, let order, let filter):
        // A page read before `s` or the filter changed the pane is in the old order or under the
        // old filter: it would show rows where the title says otherwise. The read for the pane
        // as it is now is pending behind it (``load(_:offset:limit:)``).
        if state[page.pane].order == order && state.filter == filter {
          apply(.loaded(page))
        } else {
          log.log("a page of \(page.pane.title) read under an older order or filter was dropped")
        }
      case .loadDone(let pane):
        loading.remove(pane)
        if let next = pendingLoads.removeValue(forKey: pane) { load(pane, offset: next.offset, limit: next.limit) }
      case .statusDone:
        statusRead = true
        statusLoading = false
        if statusPending {
          statusPending = false
          loadStatus()
        }
      case .quit(let why):
        quitting = true
        quitReason = why
      case .reopened:
        followReopened()
      }
    }
    followDetailAttempts()
  }

  /// Applies one event from the terminal or a task; on the UI thread.
  func apply(_ event: UIEvent) {
    let effects = state.handle(event)
    dirty = true
    execute(effects)
    followDetailAttempts()
  }

  /// Reads the attempts of the write the detail shows when it is another write or the write
  /// changed (every attempt changes its row: sent, a verdict, a failure): one query of at most
  /// 20 rows, which no frame waits for, and never before the first frame's reads are done.
  private func followDetailAttempts() {
    // The row as the pane holds it (not merged with its whole read): one read a write and change.
    guard firstReadsDone, var w = state.detailHold?.write ?? state.selectedWrite else { return }
    w.attempts = nil
    guard w != attemptsAsked else { return }
    attemptsAsked = w
    let id = w.id
    let whole = state.summaryPages
    inbox.backgroundTask { inbox in
      if whole, let w = try? await inbox.source.shownWrite(id) { inbox.post(.event(.detailWhole(w))) }
      let found = (try? await inbox.source.attempts(of: id)) ?? nil
      inbox.post(.event(.attempts(id: id, found)))
    }
  }

  /// Carries out effects: queue calls go to tasks that post their outcome back.
  func execute(_ effects: [UIEffect]) {
    for effect in effects {
      switch effect {
      case .reload(let pane, let offset, let limit): load(pane, offset: offset, limit: limit)
      case .loadStatus: loadStatus()
      case .quit: quitting = true
      case .repaint: repaintRequested = true
      case .toggleAutoDrain(let on): setAutoDrain(on)
      case .copy(let text): rawOut.append(OSC52.sequence(text, through: state.clipboardRelay))
      default: executeCall(effect)
      }
    }
  }

  private func load(_ pane: QueuePane, offset: Int, limit: Int) {
    if loading.contains(pane) {
      pendingLoads[pane] = (offset, limit)
      return
    }
    loading.insert(pane)
    let filter = state.filter
    let order = state[pane].order
    inbox.task { inbox in
      do {
        let page = try await inbox.source.page(pane, offset: offset, limit: limit, filter: filter, order: order)
        inbox.post(.page(page, order: order, filter: filter))
      } catch {
        inbox.log.log("reading \(pane.title) failed: \(EffectText.describe(error))")
      }
      inbox.post(.loadDone(pane))
    }
  }

  private func loadStatus() {
    if statusLoading {
      statusPending = true
      return
    }
    statusLoading = true
    inbox.task { inbox in
      if let s = try? await inbox.source.status() {
        inbox.post(.event(.status(s)))
        if let w = s.writer { inbox.post(.event(.writer(w, at: Date()))) }
      }
      inbox.post(.statusDone)
    }
  }

  private func setAutoDrain(_ on: Bool) {
    autoDrainTask?.cancel()
    autoDrainTask = nil
    log.log("auto-drain \(on ? "on" : "off")")
    guard on else { return }
    let source = self.source
    autoDrainTask = Task.detached { [weak inbox = self.inbox] in
      for await update in source.updates() {
        guard let inbox, !Task.isCancelled else { return }
        switch update {
        case .reachable(let r): inbox.post(.event(.reachable(r)))
        case .drained(let report):
          inbox.post(.event(.drained(report)))
          inbox.post(
            .event(
              .outcome(
                "auto-drain: " + DrainReportText.counts(report),
                isError: report.unavailable != nil || report.stopped != nil)))
        case .failed(let error): inbox.post(.event(.outcome("auto-drain: \(error.message)", isError: true)))
        case .retrying(let s): inbox.post(.event(.outcome("auto-drain: next try in \(s)s", isError: false)))
        }
      }
    }
  }

  /// After a release: `u` may lay its writes back, while nothing was sent since (the store's
  /// newest release, read at once after it; a source that keeps none offers nothing).
  private static func offerUndoOfRelease(_ inbox: AppInbox) async {
    guard let batch = try? await inbox.source.lastRelease(), !batch.ids.isEmpty else { return }
    inbox.post(.event(.undoable(UndoOffer(action: "release", ids: batch.ids, releaseBatch: batch.number))))
  }

  /// Runs `act` on each of `ids`, one after another: the ids it took, and the first it did not
  /// in words (`…6cdf068b not withdrawn (why)`).
  private static func each(
    _ ids: [String], _ pastTense: String, _ act: (String) async throws -> Bool, whyNot: (String) async -> String
  ) async throws -> (done: [String], refused: String?) {
    var done: [String] = []
    var refused: String?
    for id in ids {
      if try await act(id) {
        done.append(id)
      } else if refused == nil {
        refused = "\(ShortID.of(id)) not \(pastTense) (\(await whyNot(id)))"
      }
    }
    return (done, refused)
  }

  private func executeCall(_ effect: UIEffect) {
    log.log("action \(EffectText.name(effect))")
    let filter = state.filter
    let orders = Dictionary(uniqueKeysWithValues: QueuePane.allCases.map { ($0, state[$0].order) })
    inbox.task { inbox in
      do {
        switch effect {
        case .release(let ids):
          // One batch: one transaction, one sync of the store, a result per write.
          let outcomes = try await inbox.source.release(ids: ids)
          let n = outcomes.filter(\.result.isReleased).count
          var text = "released \(n)"
          if let refused = outcomes.first(where: { !$0.result.isReleased }) {
            text += " of \(ids.count) (\(EffectText.why(.release, refused)))"
          }
          inbox.outcome(text, error: n == 0)
          if n > 0 { await Self.offerUndoOfRelease(inbox) }
        case .releaseReason(let reason):
          let n = try await inbox.source.release(reason: reason)
          inbox.outcome("released \(n) blocked \(reason.wireName)", error: false)
          if n > 0 { await Self.offerUndoOfRelease(inbox) }
        case .withdraw(let ids):
          // One sentence for the batch: how many went, and why the first that did not.
          let (done, refused) = try await Self.each(ids, "withdrawn", { try await inbox.source.withdraw($0) }) { id in
            let w = try? await inbox.source.write(id)
            let why = w.map {
              $0.allows(.withdraw).isAllowed
                ? "the copy moved during the read: ask again" : EffectText.why(.withdraw, $0)
            }
            return why ?? "it is gone"
          }
          inbox.outcome(
            EffectText.batch("withdrew", "withdraw", done: done, of: ids.count, refused: refused), error: done.isEmpty)
        case .discard(let ids):
          let (done, refused) = try await Self.each(ids, "discarded", { try await inbox.source.discard($0) }) {
            await EffectText.whyNot(.discard, $0, in: inbox.source)
          }
          inbox.outcome(
            EffectText.batch("discarded", "discard", done: done, of: ids.count, refused: refused), error: done.isEmpty)
          // One offer for the whole batch: `u` puts back every write this discard took out.
          if !done.isEmpty { inbox.post(.event(.undoable(UndoOffer(action: "discard", ids: done)))) }
        case .take:
          let taken = try await inbox.source.takeAnswered()
          inbox.outcome("took \(taken.count) answered")
          if !taken.isEmpty { inbox.post(.event(.undoable(UndoOffer(action: "take", ids: taken.map(\.id))))) }
        case .forget(let ids):
          let n = try await inbox.source.forgetAnswered(ids: ids)
          inbox.outcome(
            n == ids.count ? "forgot \(n)" : "forgot \(n) of \(ids.count) (the others may not be cleared)",
            error: n == 0)
          if n > 0 { inbox.post(.event(.undoable(UndoOffer(action: "forget", ids: ids)))) }
        case .undo(let offer) where offer.releaseBatch != nil:
          let undo = try await inbox.source.undoRelease(offer.releaseBatch ?? 0)
          let back = undo.restored.count == 1 ? ShortID.of(undo.restored[0]) : "\(undo.restored.count)"
          if undo.changedSince.isEmpty {
            inbox.outcome("undid the release: \(back) back as \(undo.restored.count == 1 ? "it was" : "they were")")
          } else {
            let first = ShortID.of(undo.changedSince[0])
            let more = undo.changedSince.count > 1 ? " and \(undo.changedSince.count - 1) more" : ""
            inbox.outcome(
              "undo of the release: \(first)\(more) went out since, left as \(undo.changedSince.count == 1 ? "it is" : "they are")"
                + (undo.restored.isEmpty ? "" : " (put back \(back))"),
              error: true)
          }
        case .undo(let offer):
          var restored = 0
          var refusal: String?
          for id in offer.ids {
            do {
              if case .refused(let obstacle) = try await inbox.source.undo(id) {
                // The predicate may name another write's id, as the store holds it.
                refusal = refusal ?? Sanitizer.clean("\(ShortID.of(id)) cannot be put back: \(obstacle.predicate)")
              } else {
                restored += 1
              }
            } catch QueueError.notFound {
              // Forget asked of a write that stayed (not clearable) left nothing to put back.
              continue
            }
          }
          let what = offer.ids.count == 1 ? ShortID.of(offer.ids[0]) : "\(restored) of \(offer.ids.count)"
          inbox.outcome(
            refusal.map { "undo of the \(offer.action): \($0)" + (restored > 0 ? " (put back \(restored))" : "") }
              ?? "undid the \(offer.action): put back \(what) in its place",
            error: refusal != nil)
        case .drain:
          let report = try await inbox.source.drain()
          inbox.post(.event(.drained(report)))
          inbox.outcome(
            "drained: " + DrainReportText.counts(report), error: report.unavailable != nil || report.stopped != nil)
        case .fill:
          try await inbox.source.fill()
          // `d` asks by the fill it reads: read at once, not on the change's next turn.
          inbox.post(.event(.status(try await inbox.source.status())))
          inbox.outcome("filled the copy again (the queue kept): d drains")
        case .useKey(let key):
          try await inbox.source.useKey(key)
          inbox.outcome("using the new key; the next drain sends writes blocked credential_refused again")
        case .locate(let id):
          let found = try await inbox.source.locate(id, filter: filter, limit: 200_000, orders: orders)
          inbox.post(.event(.located(id: id, pane: found?.0, index: found?.1)))
        case .export(let ids):
          var texts: [String] = []
          let status = try? await inbox.source.status()
          for id in ids {
            guard let w = try? await inbox.source.shownWrite(id) else { continue }
            texts.append(WriteDetail.text(w, status: status, waitedOnBy: [], ascii: false))
          }
          let name = try DetailExport.save(texts.joined(separator: "\n\n") + "\n", first: ids[0])
          inbox.outcome("wrote \(texts.count) write\(texts.count == 1 ? "" : "s") to \(name)")
        case .countReasons:
          inbox.post(.event(.reasonCounts(try await inbox.source.blockedCounts())))
        case .loadHistory:
          inbox.post(.event(.history(try await inbox.source.history(limit: DrainRecord.kept))))
        case .examples(let pending):
          inbox.post(.event(.examples(try await inbox.source.examples(for: pending), for: pending)))
        case .goto(let typed):
          let id: String
          do {
            id = try await inbox.source.resolveID(typed)
          } catch QueueError.unknownID(let unknown, let closest) {
            // Not a write's ID: a row's (item or edge), going to the writes that name it.
            let named = try await inbox.source.writes(namingRow: typed)
            guard let first = named.first else {
              let said = EffectText.describe(QueueError.unknownID(typed: unknown, closest: closest))
              inbox.outcome(
                "go to refused: \(said); no write names a row \(typed.trimmingSpaces()) either", error: true)
              return
            }
            inbox.post(.event(.rowNamed(typed.trimmingSpaces(), writes: named.count, first: first.0, firstID: first.1)))
            return
          }
          let found = try await inbox.source.locate(id, filter: filter, limit: 200_000, orders: orders)
          inbox.post(.event(.wentTo(id: id, pane: found?.0, index: found?.1)))
        case .reorder(let pane, let id):
          let order = orders[pane] ?? .sendOrder
          let found = try await inbox.source.locate(id, filter: filter, limit: 200_000, order: order)
          inbox.post(.event(.reordered(id: id, pane: pane, order: order, index: found?.0 == pane ? found?.1 : nil)))
        case .markAll(let pane, let filter):
          let ids = try await inbox.source.ids(in: pane, filter: filter)
          inbox.post(.event(.marked(ids)))
        case .reload, .loadStatus, .toggleAutoDrain, .repaint, .quit, .copy:
          break
        }
      } catch {
        inbox.outcome(
          "\(EffectText.name(effect)) refused: \(EffectText.describe(error))" + EffectText.wayForward(effect, error),
          error: true)
      }
    }
  }
}
