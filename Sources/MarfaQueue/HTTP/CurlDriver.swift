import CCurl
import Dispatch
import FoundationEssentials
import MarfaWire

/// One libcurl multi handle and the thread that runs it. Every transfer of one ``HTTPClient``
/// goes through its own driver, which keeps the connections alive between requests; event
/// streams share ``streams``.
///
/// The driver is also a task executor: a task that prefers it (the drain) runs its code on the
/// driver's thread between the turns of the loop, so an answer wakes one thread (this one, out
/// of its wait for the sockets) instead of three (this one, a thread to run the task, this one
/// again for the next request), and a request the task starts is sent at once, on this thread
/// (docs/performance.md, "One thread a drain").
///
/// `@unchecked Sendable`: it wraps a C handle, and the transfers under way (`running`), that
/// only the driver's thread touches (``submit(_:)`` adds a transfer in place only when called
/// there), except `curl_multi_wakeup`, which libcurl allows from any thread and which is called
/// under `inbox`'s lock so it never meets a handle already cleaned up. What other threads hand
/// over, tasks' jobs included, goes through `inbox` (a `Mutex`).
final class CurlDriver: TaskExecutor, @unchecked Sendable {
  /// The driver event streams share (a stream is read rarely and ends its own connection),
  /// made at the first stream; a making that failed (no memory) is tried again at the next.
  static func streams() throws -> CurlDriver {
    try sharedStreams.withLock { box in
      if let made = box { return made }
      let made = try CurlDriver(name: "verdicts-events")
      box = made
      return made
    }
  }
  private static let sharedStreams = Mutex<CurlDriver?>(nil)

  /// Easy handles kept for reuse once their transfer is done (each holds caches worth keeping).
  static let idleHandles = 8

  /// The longest wait for the sockets while a transfer runs, in milliseconds: how soon after its
  /// deadline a transfer ends at the latest, and how often the driver looks at the clock.
  static let turnMs: Int32 = 250

  /// A turn of the loop that took this much longer than its wait means the process was stopped
  /// (SIGSTOP, then SIGCONT) or not run: that time is not counted against any deadline.
  static let stopSlack = Duration.milliseconds(1000)

  /// What other threads hand the driver's thread.
  private struct Inbox {
    var adding: [CurlTransfer] = []
    var cancelling: [CurlTransfer] = []
    var idle: [UnsafeMutableRawPointer] = []
    /// Work of the tasks that prefer this driver as their executor, in order.
    var jobs: [UnownedJob] = []
    var closing = false
    /// The multi handle is gone: nothing may be handed over any more.
    var gone = false
    /// A wakeup could not be given: libcurl made its multi handle without the pair of sockets
    /// a wakeup writes to (descriptors were short at the time), so the thread looks at its inbox
    /// every ``CurlDriver/blindTurnMs`` instead of sleeping until woken.
    var wakeupLost = false
  }

  /// How often the thread looks at its inbox when wakeups cannot reach it.
  static let blindTurnMs: Int32 = 20

  /// Wakes the driver's thread; notes when the wakeup could not be given. Called under the inbox's lock.
  private func wake(_ box: inout Inbox) {
    if ccurl_multi_wakeup(multi) != CURLM_OK { box.wakeupLost = true }
  }

  /// The multi handle (`CURLM *`).
  private let multi: UnsafeMutableRawPointer
  private let inbox = Mutex(Inbox())
  /// Transfers under way, by easy handle; the driver's thread only.
  private var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]

  /// Makes the multi handle and starts the thread; throws ``TransportError`` when libcurl could
  /// not set itself up or make the handle (out of memory): never a NULL handle used.
  init(name: String) throws {
    try CurlDriver.setUp()
    guard let multi = ccurl_multi_init() else {
      throw TransportError(message: CurlDriver.outOfMemory("could not make its transfer loop (curl_multi_init)"))
    }
    self.multi = multi
    // Up to 4 connections to one host, as the URLSession client allowed.
    ccurl_multi_set_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, 4)
    // Whether wakeups can reach the thread, known before it first waits: libcurl makes the
    // multi handle without its wakeup sockets when descriptors are short, and a thread that
    // learned so only at a later wakeup could already be in a long wait. (A wakeup given here
    // ends the thread's first wait at once.)
    if ccurl_multi_wakeup(multi) != CURLM_OK { inbox.withLock { $0.wakeupLost = true } }
    guard DetachedThread.tryStart(name: name, { [self] in loop() }) == 0 else {
      inbox.withLock { $0.gone = true }
      ccurl_multi_cleanup(multi)
      throw TransportError(message: CurlDriver.outOfMemory("could not start its thread"))
    }
  }

  /// Whether libcurl's process-wide setup was done.
  private static let setUpDone = Mutex(false)

  /// libcurl's process-wide setup, done once before the first handle; one that failed (out of
  /// memory, its TLS library unable to start) is tried again the next time.
  static func setUp() throws {
    try setUpDone.withLock { done in
      guard !done else { return }
      // The raw number alone: a `CURLcode` compared or printed asks the runtime for its type's
      // metadata, which a process out of memory cannot make (it traps).
      let code = Int(ccurl_global_init(Int(CURL_GLOBAL_DEFAULT)).rawValue)
      guard code == 0 else {
        _ = code
        throw TransportError(message: outOfMemory("could not set itself up (curl_global_init)"))
      }
      done = true
    }
  }

  /// The words for a libcurl call that gave nothing: it runs short of memory alone. The
  /// process's reserve is let go first (``MemoryReserve``), so that the words, the error and
  /// what prints it can be made at all.
  static func outOfMemory(_ what: StaticString) -> String {
    MemoryReserve.release()
    return "out of memory: libcurl \(what); nothing was sent, and the next request tries again"
  }

  /// An easy handle to configure: a reset idle one, else a new one; throws ``TransportError``
  /// when libcurl could not make one (out of memory).
  func easyHandle() throws -> UnsafeMutableRawPointer {
    if let idle = inbox.withLock({ $0.idle.popLast() }) { return idle }
    try CurlDriver.setUp()
    guard let easy = ccurl_easy_init() else {
      throw TransportError(message: CurlDriver.outOfMemory("could not make a request handle (curl_easy_init)"))
    }
    return easy
  }

  /// Starts `transfer`; its ``CurlTransfer/done`` is set when it ends. On the driver's own
  /// thread (a task that prefers it) the request is handed to libcurl and sent at once.
  func submit(_ transfer: CurlTransfer) {
    let here = OwnThread.isOwned(by: self)
    let accepted = inbox.withLock { box -> Bool in
      guard !box.closing, !box.gone else { return false }
      if !here {
        box.adding.append(transfer)
        wake(&box)
      }
      return true
    }
    guard accepted else {
      ccurl_easy_cleanup(transfer.easy)
      transfer.done.set(.success(.closed))
      return
    }
    if here {
      add(transfer, at: ContinuousClock.now)
      var still: Int32 = 0
      ccurl_multi_perform(multi, &still)
    }
  }

  /// Runs `job` on the driver's thread, after the jobs before it.
  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let here = OwnThread.isOwned(by: self)
    let taken = inbox.withLock { box -> Bool in
      guard !box.gone else { return false }
      box.jobs.append(job)
      if !here { wake(&box) }
      return true
    }
    if !taken { runAfterClose(job) }
  }

  /// Where the jobs of a task that still prefers a closed driver run.
  private static let afterClose = DispatchQueue(label: "verdicts-http-closed")

  /// Runs a job whose task still prefers this driver after its thread ended (the client was
  /// closed): the task goes on elsewhere, its requests failing at once as ``CurlOutcome/closed``.
  private func runAfterClose(_ job: UnownedJob) {
    Self.afterClose.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }

  /// Stops `transfer` if it is still under way; its answer becomes ``CurlOutcome/cancelled``.
  func cancel(_ transfer: CurlTransfer) {
    inbox.withLock { box in
      guard !box.gone else { return }
      box.cancelling.append(transfer)
      wake(&box)
    }
  }

  /// Ends every transfer (``CurlOutcome/closed``), then the thread and the multi handle.
  func close() {
    inbox.withLock { box in
      guard !box.gone else { return }
      box.closing = true
      wake(&box)
    }
  }

  /// Adds a transfer to the multi handle; the driver's thread only.
  private func add(_ t: CurlTransfer, at now: ContinuousClock.Instant) {
    running[t.easy] = t
    t.started = now
    t.deadline = now + .milliseconds(t.deadlineMs)
    ccurl_multi_add_handle(multi, t.easy)
  }

  private func loop() {
    OwnThread.mark(self)
    var closing = false
    // When the last wait for the sockets began, and how long it was allowed to be.
    var waitBegan = ContinuousClock.now
    var waitAllowed = Duration.zero
    while !closing {
      // A wait that lasted far longer than it was allowed: the process was stopped, and what
      // the instance sent meanwhile waits in the socket. The deadlines move on by that time,
      // so the answer is read below rather than taken for a timeout.
      let woke = ContinuousClock.now
      let overslept = woke - waitBegan - waitAllowed
      if overslept > Self.stopSlack {
        for t in running.values {
          t.deadline = t.deadline.map { $0 + overslept }
          t.stoppedFor += overslept
        }
      }
      // The tasks' work first: what they start is sent from here at once (``submit(_:)``).
      let jobs = inbox.withLock { box in
        defer { box.jobs = [] }
        return box.jobs
      }
      for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
      let (adding, cancelling, close) = inbox.withLock { box in
        defer {
          box.adding = []
          box.cancelling = []
        }
        return (box.adding, box.cancelling, box.closing)
      }
      closing = close
      for t in adding { add(t, at: woke) }
      for t in cancelling where running[t.easy] === t {
        finish(t, .cancelled)
      }
      if closing { break }
      var still: Int32 = 0
      ccurl_multi_perform(multi, &still)
      var left: Int32 = 0
      while let message = ccurl_multi_info_read(multi, &left) {
        guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle, let t = running[easy]
        else { continue }
        let code = ccurl_message_result(message)
        finish(t, t.outcome(code))
      }
      // Deadlines, checked after what came was read.
      let now = ContinuousClock.now
      for t in Array(running.values) where t.deadline.map({ now >= $0 }) ?? false {
        finish(t, t.timedOut(at: now))
      }
      var waitMs: Int32 = 60_000
      if let nearest = running.values.compactMap(\.deadline).min() {
        let untilDeadline = CurlTransfer.milliseconds(nearest - now) + 1
        waitMs = Int32(max(1, min(Int64(Self.turnMs), untilDeadline)))
      }
      // A task's work that came meanwhile (an answer just handed over) runs without a wait; with
      // wakeups lost, the inbox is looked at every few milliseconds.
      let (hasJobs, blind) = inbox.withLock { (!$0.jobs.isEmpty, $0.wakeupLost) }
      if blind { waitMs = min(waitMs, Self.blindTurnMs) }
      if hasJobs { waitMs = 0 }
      waitBegan = ContinuousClock.now
      waitAllowed = .milliseconds(waitMs)
      ccurl_multi_poll(multi, nil, 0, waitMs, nil)
    }
    for t in Array(running.values) { finish(t, .closed) }
    let (idle, jobs) = inbox.withLock { box -> ([UnsafeMutableRawPointer], [UnownedJob]) in
      box.gone = true
      defer {
        box.idle = []
        box.jobs = []
      }
      return (box.idle, box.jobs)
    }
    for easy in idle { ccurl_easy_cleanup(easy) }
    ccurl_multi_cleanup(multi)
    for job in jobs { runAfterClose(job) }
  }

  /// Takes the transfer out of the multi handle, keeps or frees its easy handle, and tells the waiter.
  private func finish(_ t: CurlTransfer, _ outcome: CurlOutcome) {
    ccurl_multi_remove_handle(multi, t.easy)
    running[t.easy] = nil
    ccurl_easy_reset(t.easy)
    let kept = inbox.withLock { box -> Bool in
      guard !box.closing, box.idle.count < CurlDriver.idleHandles else { return false }
      box.idle.append(t.easy)
      return true
    }
    if !kept { ccurl_easy_cleanup(t.easy) }
    t.done.set(.success(outcome))
  }
}
