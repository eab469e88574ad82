import Dispatch
import FoundationEssentials
import MarfaQueue
import MarfaWire
import VerdictsUI

#if canImport(Glibc)
  import Glibc
#endif

/// `verdicts serve`: answers the remote protocol on stdin/stdout for one store, the device's
/// side of a link (docs/remote.md). Calls are answered as they come (several at once); the
/// queue's changes are sent as they happen, a run of the writer's saves at most one each
/// ``saveSpacing``.
package final class RemoteServer: Sendable {
  /// The least time between two `saved` changes sent: a drain commits many times a second, and
  /// the screen on the far side re-reads what it shows once for a run of them.
  package static let saveSpacing: Duration = .milliseconds(250)

  private let source: QueueSource
  private let greeting: RemoteGreeting
  private let outbox = RemoteOutbox(fd: STDOUT_FILENO)
  private let tasks = Mutex<[String: Task<Void, Never>]>([:])

  /// A server of `source`; `readOnly` refuses every call that acts.
  package init(source: QueueSource, greeting: RemoteGreeting) {
    self.source = source
    self.greeting = greeting
  }

  /// Says the greeting, then answers calls until stdin ends; returns when it does.
  package func run() async {
    outbox.start()
    outbox.post(RemoteMessage(greeting: greeting))
    let source = self.source
    let outbox = self.outbox
    let changes = Task.detached {
      for await change in source.changes() {
        outbox.post(RemoteMessage(change: change), saved: { if case .saved = change { true } else { false } }())
      }
    }
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      DetachedThread.start(name: "verdicts-serve") { [self] in
        var reader = LineReader(fd: STDIN_FILENO)
        while let line = reader.next() {
          guard let message = RemoteWire.message(line), let id = message.id, let call = message.call else {
            outbox.post(RemoteMessage(failure: RemoteFailure(queue: nil, message: "not a call of this protocol")))
            continue
          }
          Task.detached { await self.answer(id, call) }
        }
        done.resume()
      }
    }
    changes.cancel()
    for task in tasks.withLock({ Array($0.values) }) { task.cancel() }
    outbox.finish()
  }

  private func answer(_ id: Int, _ call: RemoteCall) async {
    if call.acts && greeting.readOnly {
      let failure = RemoteFailure(
        queue: nil, message: "this device lets this link only watch (verdicts serve --read-only): \(call.name) refused")
      outbox.post(RemoteMessage(id: id, failure: failure))
      return
    }
    do {
      outbox.post(RemoteMessage(id: id, value: try await value(of: call)))
    } catch let error as QueueError {
      outbox.post(RemoteMessage(id: id, failure: RemoteFailure(queue: error, message: error.message)))
    } catch {
      outbox.post(RemoteMessage(id: id, failure: RemoteFailure(queue: nil, message: "\(error)")))
    }
  }

  private func value(of call: RemoteCall) async throws -> RemoteValue {
    switch call {
    case .page(let pane, let offset, let limit, let filter, let order):
      return .page(try await source.page(pane, offset: offset, limit: limit, filter: filter, order: order))
    case .pageRows(let pane, let offset, let limit, let filter, let order, let known):
      let page = try await source.page(pane, offset: offset, limit: limit, filter: filter, order: order)
      // Summaries: a pane shows neither body nor answer (the detail reads its write whole).
      let rows = page.writes.map { whole -> PageRow in
        var w = whole
        w.body = .null
        w.answer = nil
        let digest = RemoteWire.digest(w)
        return known[w.id] == digest ? .same(w.id) : .write(w, digest: digest)
      }
      return .rows(pane: page.pane, offset: page.offset, total: page.total, rows: rows)
    case .pageSummaries(let pane, let offset, let limit, let filter, let order, let known):
      let page = try await source.page(pane, offset: offset, limit: limit, filter: filter, order: order)
      var held: [String: Int] = [:]
      for (i, k) in known.enumerated() where held[k.id] == nil { held[k.id] = i }
      let rows = page.writes.map { whole -> SummaryRow in
        let w = SummaryRow.summary(whole)
        if let i = held[w.id], known[i].digest == RemoteWire.digest(w) { return .same(i) }
        return .write(w)
      }
      return .summaryRows(pane: page.pane, offset: page.offset, total: page.total, rows: rows)
    case .status: return .status(try await source.status())
    case .write(let id): return .write(try await source.write(id))
    case .shownWrite(let id): return .write(try await source.shownWrite(id))
    case .release(let id): return .flag(try await source.release(id))
    case .releaseReason(let reason): return .count(try await source.release(reason: reason))
    case .releaseIDs(let ids): return .outcomes(try await source.release(ids: ids))
    case .withdraw(let id): return .flag(try await source.withdraw(id))
    case .discard(let id): return .flag(try await source.discard(id))
    case .takeAnswered: return .writes(try await source.takeAnswered())
    case .forgetAnswered(let ids): return .count(try await source.forgetAnswered(ids: ids))
    case .undo(let id): return .undo(try await source.undo(id))
    case .drain: return .report(try await source.drain())
    case .useKey(let key):
      try await source.useKey(key)
      return .done
    case .fill:
      try await source.fill()
      return .done
    case .lastRelease: return .release(try await source.lastRelease())
    case .undoRelease(let batch): return .releaseUndo(try await source.undoRelease(batch))
    case .summaries(let pane, let cursor, let limit):
      let (writes, next) = try await source.summaries(pane, cursor: cursor, limit: limit)
      return .summaries(writes: writes, next: next)
    case .locate(let id, let filter, let limit, let order):
      let found = try await source.locate(id, filter: filter, limit: limit, order: order)
      return .located(pane: found?.0, index: found?.1 ?? 0)
    case .changed(let mark): return .changed(try await source.changed(since: mark))
    case .writer: return .writer(try await source.writer())
    case .lastDrainEndedAt: return .text(try await source.lastDrainEndedAt())
    case .history(let limit): return .history(try await source.history(limit: limit))
    case .attempts(let id): return .attempts(try await source.attempts(of: id))
    case .departedWrite(let id): return .departed(try await source.departedWrite(id))
    case .blockedCounts: return .counts(try await source.blockedCounts())
    case .resolveID(let typed): return .text(try await source.resolveID(typed))
    case .followUpdates(let on):
      follow("updates", on: on) { [source, outbox] in
        for await update in source.updates() { outbox.post(RemoteMessage(update: update)) }
      }
      return .done
    case .followFiles:
      let events = source.storeFileEvents()
      follow("files", on: true) { [source, outbox] in
        guard let events else { return }
        for await _ in events { outbox.post(RemoteMessage(file: source.storeFileState()), saved: true) }
      }
      return .done
    }
  }

  /// Starts (once) or stops a task that sends news of one kind.
  private func follow(_ kind: String, on: Bool, _ body: @escaping @Sendable () async -> Void) {
    tasks.withLock { tasks in
      if !on {
        tasks.removeValue(forKey: kind)?.cancel()
      } else if tasks[kind] == nil {
        tasks[kind] = Task.detached { await body() }
      }
    }
  }
}

/// Lines waiting to go out on stdout, written by a thread of their own so that a slow link
/// holds back no task. News that is only "look again" (a save, the files touched) is kept once:
/// a second one while the first still waits is dropped, and one is sent at most each
/// ``RemoteServer/saveSpacing``.
final class RemoteOutbox: Sendable {
  private struct State {
    var lines: [[UInt8]] = []
    var savedWaiting: [UInt8]?
    var fileWaiting: [UInt8]?
    var lastSaved = ContinuousClock.now - .seconds(10)
    var finished = false
  }

  private let fd: Int32
  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)
  private let done = DispatchSemaphore(value: 0)

  init(fd: Int32) { self.fd = fd }

  /// Starts the writing thread.
  func start() {
    DetachedThread.start(name: "verdicts-out") { [self] in
      while true {
        let next: [[UInt8]]? = state.withLock { s in
          var out = s.lines
          s.lines = []
          let now = ContinuousClock.now
          if s.savedWaiting != nil || s.fileWaiting != nil, now - s.lastSaved >= RemoteServer.saveSpacing {
            if let saved = s.savedWaiting { out.append(saved) }
            if let file = s.fileWaiting { out.append(file) }
            s.savedWaiting = nil
            s.fileWaiting = nil
            s.lastSaved = now
          }
          if out.isEmpty && s.finished && s.savedWaiting == nil && s.fileWaiting == nil { return nil }
          return out
        }
        guard let next else { break }
        if next.isEmpty {
          let waiting = state.withLock { $0.savedWaiting != nil || $0.fileWaiting != nil }
          _ = wake.wait(timeout: waiting ? .now() + .milliseconds(50) : .distantFuture)
          continue
        }
        for line in next where !writeAll(line) {
          state.withLock { $0.finished = true }
        }
      }
      done.signal()
    }
  }

  /// Queues one line; a `saved` change (or a file note) is merged with one already waiting.
  func post(_ message: RemoteMessage, saved: Bool = false) {
    state.withLock { s in
      if saved {
        if message.file != nil {
          s.fileWaiting = RemoteWire.line(message)
        } else {
          s.savedWaiting = RemoteWire.line(message)
        }
      } else {
        s.lines.append(RemoteWire.line(message))
      }
    }
    wake.signal()
  }

  /// Sends what waits and stops the thread.
  func finish() {
    state.withLock { $0.finished = true }
    wake.signal()
    _ = done.wait(timeout: .now() + .seconds(5))
  }

  private func writeAll(_ bytes: [UInt8]) -> Bool { ChildIO.writeAll(bytes, to: fd) }

}
