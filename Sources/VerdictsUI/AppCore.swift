import Foundation
import MarfaQueue

/// The app's engine, shared by the ncurses loop and tests: an inbox that background tasks post
/// to, the state machine applied on the UI thread, and queue calls run off it.
///
/// `state`, `dirty` and the load bookkeeping belong to the UI thread; tasks only ``post(_:)``.
final class AppCore: @unchecked Sendable {
  /// What tasks post back to the UI thread.
  enum Message: Sendable {
    case event(UIEvent)
    case loadDone(QueuePane)
    case statusDone
    case quit(String?)
  }

  let source: QueueSource
  let log: AppLog
  private let lock = NSLock()
  private var inbox: [Message] = []
  private var inFlight = 0
  private var changeScheduled = false
  private var lastChangePost = Date.distantPast
  private let wake: @Sendable () -> Void
  private var listeners: [Task<Void, Never>] = []
  private var autoDrainTask: Task<Void, Never>?

  // The UI thread's.
  var state: UIState
  var dirty = true
  var quitting = false
  var quitReason: String?
  var repaintRequested = false
  private var loading: Set<QueuePane> = []
  private var pendingLoads: [QueuePane: (offset: Int, limit: Int)] = [:]
  private var statusLoading = false
  private var statusPending = false

  /// The shortest gap between two re-reads after changes: at most ten a second.
  static let changeInterval: TimeInterval = 0.1

  init(source: QueueSource, state: UIState, log: AppLog, wake: @escaping @Sendable () -> Void) {
    self.source = source
    self.state = state
    self.log = log
    self.wake = wake
  }

  /// Posts a message for the UI thread and wakes it.
  func post(_ message: Message) {
    lock.lock()
    inbox.append(message)
    lock.unlock()
    wake()
  }

  /// Whether nothing is running or waiting (tests settle on this).
  var idle: Bool {
    lock.lock()
    defer { lock.unlock() }
    return inbox.isEmpty && inFlight == 0 && !changeScheduled
  }

  /// Starts listening to the copy and reads every pane.
  func start() {
    let source = self.source
    listeners.append(
      Task.detached { [weak self] in
        for await change in source.changes() {
          guard let self else { return }
          switch change {
          case .serverReachable: self.post(.event(.reachable(true)))
          case .serverUnreachable: self.post(.event(.reachable(false)))
          case .stopped(let why):
            self.post(.event(.outcome("drain stopped: \(why)", isError: true)))
            self.noteChange()
          default: self.noteChange()
          }
        }
      })
    run(state.start())
    if state.autoDrain { run([.toggleAutoDrain(on: true)]) }
  }

  /// Stops every listener and the held updates.
  func stop() {
    for t in listeners { t.cancel() }
    listeners = []
    autoDrainTask?.cancel()
    autoDrainTask = nil
  }

  /// A change touched the queue: post `.changed` at most ten times a second.
  func noteChange() {
    lock.lock()
    if changeScheduled {
      lock.unlock()
      return
    }
    changeScheduled = true
    let wait = max(0, Self.changeInterval - Date().timeIntervalSince(lastChangePost))
    lock.unlock()
    Task.detached { [weak self] in
      if wait > 0 { try? await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
      guard let self else { return }
      self.lock.withLock {
        self.changeScheduled = false
        self.lastChangePost = Date()
        self.inbox.append(.event(.changed))
      }
      self.wake()
    }
  }

  /// Applies everything posted so far; on the UI thread.
  func process() {
    lock.lock()
    let messages = inbox
    inbox = []
    lock.unlock()
    for m in messages {
      switch m {
      case .event(let e): apply(e)
      case .loadDone(let pane):
        loading.remove(pane)
        if let next = pendingLoads.removeValue(forKey: pane) { load(pane, offset: next.offset, limit: next.limit) }
      case .statusDone:
        statusLoading = false
        if statusPending {
          statusPending = false
          loadStatus()
        }
      case .quit(let why):
        quitting = true
        quitReason = why
      }
    }
  }

  /// Applies one event from the terminal or a task; on the UI thread.
  func apply(_ event: UIEvent) {
    let effects = state.handle(event)
    dirty = true
    run(effects)
  }

  /// Runs effects: queue calls go to tasks that post their outcome back.
  func run(_ effects: [UIEffect]) {
    for effect in effects {
      switch effect {
      case .reload(let pane, let offset, let limit): load(pane, offset: offset, limit: limit)
      case .loadStatus: loadStatus()
      case .quit: quitting = true
      case .repaint: repaintRequested = true
      case .toggleAutoDrain(let on): setAutoDrain(on)
      default: perform(effect)
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
    task { core in
      do {
        let page = try await core.source.page(pane, offset: offset, limit: limit, filter: filter)
        core.post(.event(.loaded(page)))
      } catch {
        core.log.log("reading \(pane.title) failed: \(Self.describe(error))")
      }
      core.post(.loadDone(pane))
    }
  }

  private func loadStatus() {
    if statusLoading {
      statusPending = true
      return
    }
    statusLoading = true
    task { core in
      if let s = try? await core.source.status() { core.post(.event(.status(s))) }
      core.post(.statusDone)
    }
  }

  private func setAutoDrain(_ on: Bool) {
    autoDrainTask?.cancel()
    autoDrainTask = nil
    log.log("auto-drain \(on ? "on" : "off")")
    guard on else { return }
    let source = self.source
    autoDrainTask = Task.detached { [weak self] in
      for await update in source.updates() {
        guard let self, !Task.isCancelled else { return }
        switch update {
        case .reachable(let r): self.post(.event(.reachable(r)))
        case .drained(let report):
          self.post(.event(.drained(report)))
          self.post(.event(.outcome("auto-drain: " + Self.summary(report), isError: report.unavailable != nil || report.stopped != nil)))
        case .failed(let error): self.post(.event(.outcome("auto-drain: \(error.message)", isError: true)))
        case .retrying(let s): self.post(.event(.outcome("auto-drain: next try in \(s)s", isError: false)))
        }
      }
    }
  }

  /// Runs a queue call in a task, counted so tests can wait for it.
  private func task(_ body: @escaping @Sendable (AppCore) async -> Void) {
    lock.lock()
    inFlight += 1
    lock.unlock()
    Task.detached { [self] in
      await body(self)
      self.lock.withLock { self.inFlight -= 1 }
      self.wake()
    }
  }

  private func outcome(_ text: String, error: Bool = false) {
    log.log(text)
    post(.event(.outcome(text, isError: error)))
  }

  private func perform(_ effect: UIEffect) {
    log.log("action \(Self.name(effect))")
    let filter = state.filter
    task { core in
      do {
        switch effect {
        case .release(let ids):
          var n = 0
          var refused: String?
          for id in ids {
            if try await core.source.release(id) { n += 1 } else if refused == nil { refused = id }
          }
          var text = "released \(n)"
          if let refused { text += " of \(ids.count) (\(await core.whyNot(.release, refused)))" }
          core.outcome(text, error: n == 0)
        case .releaseReason(let reason):
          let n = try await core.source.release(reason: reason)
          core.outcome("released \(n) blocked \(reason.wireName)", error: false)
        case .withdraw(let id):
          if try await core.source.withdraw(id) {
            core.outcome("withdrew \(ShortID.of(id))")
          } else {
            let w = try? await core.source.write(id)
            let why = w.map { $0.allows(.withdraw).isAllowed ? "the copy moved during the read: ask again" : Self.why(.withdraw, $0) }
            core.outcome("withdraw: \(ShortID.of(id)) not withdrawn (\(why ?? "it is gone"))", error: true)
          }
        case .discard(let id):
          if try await core.source.discard(id) {
            core.outcome("discarded \(ShortID.of(id))")
          } else {
            core.outcome("discard: \(ShortID.of(id)) not discarded (\(await core.whyNot(.discard, id)))", error: true)
          }
        case .take:
          let taken = try await core.source.takeAnswered()
          core.outcome("took \(taken.count) answered")
        case .forget(let ids):
          let n = try await core.source.forgetAnswered(ids: ids)
          core.outcome(n == ids.count ? "forgot \(n)" : "forgot \(n) of \(ids.count) (the others may not be cleared)", error: n == 0)
        case .drain:
          let report = try await core.source.drain()
          core.post(.event(.drained(report)))
          core.outcome("drained: " + Self.summary(report), error: report.unavailable != nil || report.stopped != nil)
        case .useKey(let key):
          try await core.source.useKey(key)
          core.outcome("using the new key; the next drain sends writes blocked credential_refused again")
        case .locate(let id):
          let found = try await core.source.locate(id, filter: filter, limit: 200_000)
          core.post(.event(.located(id: id, pane: found?.0, index: found?.1)))
        case .markAll(let pane, let filter):
          let ids = try await core.source.ids(in: pane, filter: filter)
          core.post(.event(.marked(ids)))
        case .reload, .loadStatus, .toggleAutoDrain, .repaint, .quit:
          break
        }
      } catch {
        core.outcome("\(Self.name(effect)) refused: \(Self.describe(error))", error: true)
      }
    }
  }

  /// Why the engine's rule left a write alone, in its words: `w-1 is accepted; only …`.
  static func why(_ action: WriteAction, _ w: QueuedWrite) -> String {
    "\(ShortID.of(w.id)) \(w.allows(action).obstacle?.predicate ?? "has a waiting write that depends on it")"
  }

  /// Why an action left the write with this id alone, read again from the source.
  func whyNot(_ action: WriteAction, _ id: String) async -> String {
    guard let w = try? await source.write(id) else { return "\(ShortID.of(id)) is gone" }
    return Self.why(action, w)
  }

  /// An effect's name for logs and messages (never a key).
  static func name(_ effect: UIEffect) -> String {
    switch effect {
    case .release(let ids): return "release \(ids.count)"
    case .releaseReason(let r): return "release \(r.wireName)"
    case .withdraw: return "withdraw"
    case .discard: return "discard"
    case .take: return "take"
    case .forget: return "forget"
    case .drain: return "drain"
    case .useKey: return "key"
    case .locate: return "follow"
    case .markAll: return "mark all"
    case .reload: return "read"
    case .loadStatus: return "status"
    case .toggleAutoDrain: return "auto-drain"
    case .repaint: return "repaint"
    case .quit: return "quit"
    }
  }

  /// A queue error as one sentence.
  static func describe(_ error: Error) -> String {
    if let q = error as? QueueError { return Sanitizer.clean(q.message) }
    return Sanitizer.clean(String(describing: error))
  }

  /// A drain report in a few words.
  static func summary(_ d: DrainReport) -> String {
    var parts = ["\(d.answered) answered", "\(d.held) held", "\(d.undelivered) undelivered"]
    if d.unsent > 0 { parts.append("\(d.unsent) unsent") }
    if d.unmade > 0 { parts.append("\(d.unmade) unmade") }
    if let u = d.unavailable { parts.append("unavailable: \(u)") }
    if let s = d.stopped { parts.append("stopped: \(s)") }
    if let r = d.retryAfterSeconds { parts.append("retry after \(r)s") }
    return parts.joined(separator: ", ")
  }
}
