import Foundation
import MarfaQueue

@testable import VerdictsUI

/// An in-memory queue for app tests: pages, actions and a change stream, counting reads.
final class FakeQueue: QueueSource, @unchecked Sendable {
  private let lock = NSLock()
  private var writes: [QueuedWrite]
  /// The writes taken out by a discard, take or forget, with the place each had (for `undo`).
  private var departed: [(place: Int, write: QueuedWrite)] = []
  private var continuations: [AsyncStream<Change>.Continuation] = []
  private(set) var pageReads: [(QueuePane, Int, Int)] = []
  private(set) var calls: [String] = []
  let handle: Handle
  let instanceURL: String? = "http://127.0.0.1:8421"
  var withdrawError: QueueError?
  /// Awaited before every page read when set: a source slow to answer.
  var pageGate: (@Sendable () async -> Void)?
  /// When set, every page read waits at it until the test lets it through.
  var pageTurnstile: ReadTurnstile?
  /// Whether the fake says when its files are touched (``touchFiles()``); else the app polls.
  var watchesFiles = false
  /// What is at the fake's path now, against the file it read.
  var fileState: StoreFileState = .same
  /// The fill ``status()`` reports; ``fill()`` makes it complete.
  var fillState: FillState = .complete
  /// The last release by reason, as the writes were before it (the store's ``ReleaseBatch``).
  private var released: [QueuedWrite] = []
  /// What ``reopen()`` returns: the reader of the file now at the path.
  var reopensTo: FakeQueue?
  private(set) var isClosed = false
  private var fileEventContinuations: [AsyncStream<Void>.Continuation] = []

  init(writes: [QueuedWrite], handle: Handle = .writer) {
    self.writes = writes
    self.handle = handle
  }

  func locked<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  var all: [QueuedWrite] { locked { writes } }
  var reads: Int { locked { pageReads.count } }
  var callLog: [String] { locked { calls } }

  func send(_ change: Change) {
    let targets = locked { continuations }
    for c in targets { c.yield(change) }
  }

  func finish() {
    let targets = locked { continuations }
    for c in targets { c.finish() }
  }

  func mutate(_ body: (inout [QueuedWrite]) -> Void, change: Change = .refreshed(.drained)) {
    locked { body(&writes) }
    send(change)
  }

  func page(_ pane: QueuePane, offset: Int, limit: Int, filter: String?, order: PaneOrder) async throws -> QueuePage {
    if let gate = locked({ pageGate }) { await gate() }
    if let turnstile = locked({ pageTurnstile }) {
      await turnstile.pass(ReadTurnstile.Read(pane: pane, offset: offset, limit: limit, order: order))
    }
    return locked {
      pageReads.append((pane, offset, limit))
      let matching = order.sorted(
        writes.filter { w in
          w.pane == pane
            && (filter.map { f in
              // Field terms (`row:note-1`, `verdict:refused`) as the store reads them; plain words as before.
              f.contains(":")
                ? WriteFilter(f)?.matches(w) ?? true
                : w.id.contains(f) || w.kind.wireName.contains(f) || VerdictText.word(w).contains(f)
            }
              ?? true)
        })
      let start = min(max(0, offset), matching.count)
      return QueuePage(
        pane: pane, offset: start, writes: Array(matching[start..<min(matching.count, start + limit)]),
        total: matching.count)
    }
  }

  func status() async throws -> Status {
    locked {
      var counts = QueueCounts()
      for w in writes {
        switch w.pane {
        case .waiting: counts.waiting += 1
        case .answered: counts.answered += 1
        case .blocked: counts.blocked += 1
        case .dead: counts.dead += 1
        }
      }
      return Status(store: "/tmp/fake.store", handle: handle, fill: fillState, origin: instanceURL, counts: counts)
    }
  }

  func write(_ id: String) async throws -> QueuedWrite {
    guard let w = locked({ writes.first { $0.id == id } }) else { throw QueueError.notFound(id: id) }
    return w
  }

  func record(_ call: String) { locked { calls.append(call) } }

  /// The engine's rule, asked as the store asks it: the write's own (``QueuedWrite/allows(_:)``),
  /// then, for discard and forget, whether an outstanding write depends on it (the engine's
  /// ``QueuedWrite/allows(_:among:)``, the same rule the store asks in SQL).
  static func answer(_ action: WriteAction, for w: QueuedWrite, in ws: [QueuedWrite]) -> ActionPermission {
    w.allows(action, among: ws)
  }

  /// Whether the rule lets `action` take the write at `i`.
  static func allows(_ action: WriteAction, _ i: Int, in ws: [QueuedWrite]) -> Bool {
    answer(action, for: ws[i], in: ws).isAllowed
  }

  func release(_ id: String) async throws -> Bool {
    record("release \(id)")
    var done = false
    mutate(
      { ws in
        if let i = ws.firstIndex(where: { $0.id == id }), Self.allows(.release, i, in: ws) {
          ws[i].verdict = nil
          done = true
        }
      }, change: .refreshed(.released))
    return done
  }

  /// One call for the batch (recorded as `release` and every id), a result per write, all in
  /// one mutation as the store does it in one transaction.
  func release(ids: [String]) async throws -> [ReleaseOutcome] {
    record("release \(ids.joined(separator: " "))")
    var outcomes: [ReleaseOutcome] = []
    mutate(
      { ws in
        for id in ids {
          guard let i = ws.firstIndex(where: { $0.id == id }) else {
            outcomes.append(ReleaseOutcome(id: id, result: .notFound))
            continue
          }
          if let obstacle = Self.answer(.release, for: ws[i], in: ws).obstacle {
            outcomes.append(ReleaseOutcome(id: id, result: .notAllowed(obstacle)))
            continue
          }
          ws[i].verdict = nil
          outcomes.append(ReleaseOutcome(id: id, result: .released(count: 1)))
        }
      }, change: .refreshed(.released))
    return outcomes
  }

  func release(reason: BlockedReason) async throws -> Int {
    record("release-reason \(reason.wireName)")
    var n = 0
    mutate(
      { ws in
        released = []
        for i in ws.indices where ws[i].verdict?.blockedReason == reason {
          released.append(ws[i])
          ws[i].verdict = nil
          n += 1
        }
      }, change: .refreshed(.released))
    return n
  }

  func lastRelease() async throws -> ReleaseBatch? {
    locked { released.isEmpty ? nil : ReleaseBatch(number: 1, ids: released.map(\.id)) }
  }

  func undoRelease(_ batch: Int) async throws -> ReleaseUndo {
    record("undo-release \(batch)")
    var undo = ReleaseUndo(restored: [], changedSince: [])
    mutate(
      { ws in
        for before in released {
          if let i = ws.firstIndex(where: { $0.id == before.id }), ws[i].verdict == nil {
            ws[i] = before
            undo.restored.append(before.id)
          } else {
            undo.changedSince.append(before.id)
          }
        }
        released = []
      }, change: .refreshed(.restored))
    return undo
  }

  func withdraw(_ id: String) async throws -> Bool {
    record("withdraw \(id)")
    if let e = withdrawError { throw e }
    var done = false
    mutate(
      { ws in
        if let i = ws.firstIndex(where: { $0.id == id }), Self.allows(.withdraw, i, in: ws) {
          ws.remove(at: i)
          done = true
        }
      }, change: .refreshed(.withdrawn))
    return done
  }

  func discard(_ id: String) async throws -> Bool {
    record("discard \(id)")
    guard locked({ writes.contains { $0.id == id } }) else { throw QueueError.notFound(id: id) }
    var done = false
    mutate(
      { ws in
        if let i = ws.firstIndex(where: { $0.id == id }), Self.allows(.discard, i, in: ws) {
          departed.append((i, ws.remove(at: i)))
          done = true
        }
      }, change: .refreshed(.forgotten))
    return done
  }

  func takeAnswered() async throws -> [QueuedWrite] {
    record("take")
    var taken: [QueuedWrite] = []
    mutate(
      { ws in
        taken = ws.indices.filter { Self.allows(.forget, $0, in: ws) }.map { ws[$0] }
        for w in taken { departed.append((ws.firstIndex(of: w) ?? ws.count, w)) }
        ws.removeAll { w in taken.contains { $0.id == w.id } }
      }, change: .refreshed(.forgotten))
    return taken
  }

  func undo(_ id: String) async throws -> UndoOutcome {
    record("undo \(id)")
    guard let k = locked({ departed.lastIndex { $0.write.id == id } }) else { throw QueueError.notFound(id: id) }
    var kept: (place: Int, write: QueuedWrite)?
    mutate(
      { ws in
        kept = departed.remove(at: k)
        if let kept { ws.insert(kept.write, at: min(kept.place, ws.count)) }
      }, change: .refreshed(.restored))
    let write = kept!.write
    return .restored(
      DepartedWrite(
        write: write, departure: .discarded, departedAt: Date(), program: nil, mode: nil, pid: nil, host: nil,
        bytes: 0, seq: 0))
  }

  func forgetAnswered(ids: [String]) async throws -> Int {
    record("forget \(ids.joined(separator: ","))")
    var n = 0
    mutate(
      { ws in
        let gone = Set(
          ws.indices.filter { ids.contains(ws[$0].id) && Self.allows(.forget, $0, in: ws) }.map { ws[$0].id })
        for (i, w) in ws.enumerated() where gone.contains(w.id) { departed.append((i, w)) }
        ws.removeAll { gone.contains($0.id) }
        n = gone.count
      }, change: .refreshed(.forgotten))
    return n
  }

  func drain() async throws -> DrainReport {
    record("drain")
    var report = DrainReport()
    mutate({ ws in
      for i in ws.indices where ws[i].verdict == nil && !ws[i].waiting {
        ws[i].verdict = .accepted
        report.answered += 1
      }
    })
    return report
  }

  func fill() async throws {
    record("fill")
    locked { fillState = .complete }
    send(.refreshed(.filled))
  }

  func useKey(_ key: String) async throws {
    record("use-key")
    if key == "bad" { throw QueueError.invalid(message: "the key is empty") }
    send(.refreshed(.keyChanged))
  }

  func changes() -> AsyncStream<Change> {
    let (stream, c) = AsyncStream<Change>.makeStream()
    locked { continuations.append(c) }
    return stream
  }

  func updates() -> AsyncStream<Update> {
    record("updates")
    return AsyncStream { c in
      c.yield(.reachable(true))
      c.yield(.drained(DrainReport(answered: 2)))
    }
  }

  func storeFileEvents() -> AsyncStream<Void>? {
    guard locked({ watchesFiles }) else { return nil }
    let (stream, c) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    locked { fileEventContinuations.append(c) }
    return stream
  }

  /// Says the fake's files were touched (a writer came or went, the file was removed or replaced).
  func touchFiles() {
    for c in locked({ fileEventContinuations }) { c.yield() }
  }

  func storeFileState() -> StoreFileState { locked { fileState } }

  func reopen() async -> QueueSource? { locked { reopensTo } }

  func close() {
    locked { isClosed = true }
    finish()
    for c in locked({ fileEventContinuations }) { c.finish() }
  }
}
