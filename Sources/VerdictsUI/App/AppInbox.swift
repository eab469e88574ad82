import MarfaQueue
import MarfaWire

/// What the UI thread shares with the tasks it starts: the inbox they post to, the count of queue
/// calls running, and the coalescing of change notes into at most about thirty re-reads a second,
/// and none sooner than their frame could go (``holdChanges(for:)``).
///
/// Everything else of the app (``AppCore``) is the UI thread's alone; tasks hold only this.
final class AppInbox: Sendable {
  /// What tasks post back to the UI thread.
  enum Message: Sendable {
    case event(UIEvent)
    /// A page read under `order` and `filter` (dropped if the pane has moved on from either).
    case page(QueuePage, order: PaneOrder, filter: String?)
    case loadDone(QueuePane)
    case statusDone
    case quit(String?)
    /// The store was replaced under a watcher and ``source`` now reads the new file.
    case reopened
  }

  /// The inbox and its bookkeeping, under one lock.
  private struct Pending {
    var messages: [Message] = []
    var inFlight = 0
    /// Reads no frame waits for (``backgroundTask(_:)``); ``idle`` still does.
    var background = 0
    var changeScheduled = false
    var lastChangePost: Duration?
    /// Re-reads after changes start no earlier than this (``holdChanges(for:)``).
    var holdUntil: Duration?
  }

  private let sourceBox: Mutex<QueueSource>
  let log: AppLog
  let clock: any AppClock
  private let wake: @Sendable () -> Void
  private let pending = Mutex(Pending())

  /// The shortest gap between two re-reads after changes: at most about thirty a second. A drain
  /// commits a write's `sent` and then its verdict a moment apart: the verdict's re-read waits for
  /// this gap after the first (at 100 ms it was most of the 120 ms a verdict took to the screen).
  static let changeInterval: Duration = .milliseconds(30)

  init(source: QueueSource, log: AppLog, clock: any AppClock, wake: @escaping @Sendable () -> Void) {
    self.sourceBox = Mutex(source)
    self.log = log
    self.clock = clock
    self.wake = wake
  }

  /// The source queue calls go to (another after ``replace(source:)``).
  var source: QueueSource { sourceBox.withLock { $0 } }

  /// Sends every later queue call to `source` (a watcher following a replaced store).
  func replace(source: QueueSource) { sourceBox.withLock { $0 = source } }

  /// Posts a message for the UI thread and wakes it.
  func post(_ message: Message) {
    pending.withLock { $0.messages.append(message) }
    wake()
  }

  /// Logs `text` and posts it as the outcome of an action.
  func outcome(_ text: String, error: Bool = false) {
    log.log(text)
    post(.event(.outcome(text, isError: error)))
  }

  /// Everything posted so far, taken out of the inbox.
  func take() -> [Message] {
    pending.withLock { p in
      defer { p.messages = [] }
      return p.messages
    }
  }

  /// Whether a queue call started by ``task(_:)`` is still running (a page, a locate, an action).
  var busy: Bool { pending.withLock { $0.inFlight > 0 } }

  /// Whether nothing is posted, running or scheduled (tests settle on this).
  var idle: Bool {
    pending.withLock { $0.messages.isEmpty && $0.inFlight == 0 && $0.background == 0 && !$0.changeScheduled }
  }

  /// A change touched the queue: post `.changed` at most once a ``changeInterval``.
  func noteChange() {
    let clock = self.clock
    let now = clock.now
    let scheduled = pending.withLock { p -> (wait: Duration, start: Bool) in
      if p.changeScheduled { return (.zero, false) }
      p.changeScheduled = true
      let since = p.lastChangePost.map { now - $0 } ?? Self.changeInterval
      let held = p.holdUntil.map { $0 - now } ?? .zero
      return (max(.zero, Self.changeInterval - since, held), true)
    }
    if !scheduled.start { return }
    let wait = scheduled.wait
    Task.detached { [weak self] in
      if wait > .zero { try? await clock.sleep(for: wait) }
      guard let self else { return }
      self.pending.withLock { p in
        p.changeScheduled = false
        p.lastChangePost = clock.now
        p.messages.append(.event(.changed))
      }
      self.wake()
    }
  }

  /// Starts no re-read after a change for `delay` from now: the UI loop says, after each frame,
  /// how long until the byte budget lets the next one go (less the time its reads take).
  ///
  /// Re-reading faster than frames can be drawn only costs: while a drain commits thousands of
  /// times a second, every re-read is several store queries and thread hops, taken from the
  /// drain on a machine with few cores. A change after quiet is read at once (no hold).
  func holdChanges(for delay: Duration) {
    let until = clock.now + delay
    pending.withLock { $0.holdUntil = delay > .zero ? until : nil }
  }

  /// Runs a read no frame waits for (it is not ``busy``: the detail's attempts), counted so
  /// ``idle`` waits for it.
  func backgroundTask(_ body: @escaping @Sendable (AppInbox) async -> Void) {
    pending.withLock { $0.background += 1 }
    Task.detached { [self] in
      await body(self)
      self.pending.withLock { $0.background -= 1 }
      self.wake()
    }
  }

  /// Runs a queue call in a task, counted so ``idle`` waits for it.
  func task(_ body: @escaping @Sendable (AppInbox) async -> Void) {
    pending.withLock { $0.inFlight += 1 }
    Task.detached { [self] in
      await body(self)
      self.pending.withLock { $0.inFlight -= 1 }
      self.wake()
    }
  }
}
