import CCurl
import FoundationEssentials
import MarfaWire

/// One libcurl multi handle and the thread that runs it. Every transfer of one ``HTTPClient``
/// goes through its own driver, which keeps the connections alive between requests; event
/// streams share ``streams``.
///
/// `@unchecked Sendable`: it wraps a C handle that only the driver's thread touches, except
/// `curl_multi_wakeup`, which libcurl allows from any thread and which is called under `inbox`'s
/// lock so it never meets a handle already cleaned up.
final class CurlDriver: @unchecked Sendable {
  /// The driver event streams share (a stream is read rarely and ends its own connection).
  static let streams = CurlDriver(name: "verdicts-events")

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
    var closing = false
    /// The multi handle is gone: nothing may be handed over any more.
    var gone = false
  }

  /// The multi handle (`CURLM *`).
  private let multi: UnsafeMutableRawPointer
  private let inbox = Mutex(Inbox())
  /// Transfers under way, by easy handle; the driver's thread only.
  private var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]

  init(name: String) {
    _ = CurlDriver.global
    multi = ccurl_multi_init()
    // Up to 4 connections to one host, as the URLSession client allowed.
    ccurl_multi_set_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, 4)
    DetachedThread.start(name: name) { [self] in loop() }
  }

  /// libcurl's process-wide setup, done once before the first handle.
  private static let global: Void = { ccurl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

  /// An easy handle to configure: a reset idle one, else a new one.
  func easyHandle() -> UnsafeMutableRawPointer {
    if let idle = inbox.withLock({ $0.idle.popLast() }) { return idle }
    _ = CurlDriver.global
    return ccurl_easy_init()
  }

  /// Starts `transfer`; its ``CurlTransfer/done`` is set when it ends.
  func submit(_ transfer: CurlTransfer) {
    let accepted = inbox.withLock { box -> Bool in
      guard !box.closing, !box.gone else { return false }
      box.adding.append(transfer)
      ccurl_multi_wakeup(multi)
      return true
    }
    if !accepted {
      ccurl_easy_cleanup(transfer.easy)
      transfer.done.set(.success(.closed))
    }
  }

  /// Stops `transfer` if it is still under way; its answer becomes ``CurlOutcome/cancelled``.
  func cancel(_ transfer: CurlTransfer) {
    inbox.withLock { box in
      guard !box.gone else { return }
      box.cancelling.append(transfer)
      ccurl_multi_wakeup(multi)
    }
  }

  /// Ends every transfer (``CurlOutcome/closed``), then the thread and the multi handle.
  func close() {
    inbox.withLock { box in
      guard !box.gone else { return }
      box.closing = true
      ccurl_multi_wakeup(multi)
    }
  }

  private func loop() {
    var closing = false
    // When the last wait for the sockets began, and how long it was allowed to be.
    var waitBegan = ContinuousClock.now
    var waitAllowed = Duration.zero
    while !closing {
      let (adding, cancelling, close) = inbox.withLock { box in
        defer {
          box.adding = []
          box.cancelling = []
        }
        return (box.adding, box.cancelling, box.closing)
      }
      closing = close
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
      for t in adding {
        running[t.easy] = t
        t.started = woke
        t.deadline = woke + .milliseconds(t.deadlineMs)
        ccurl_multi_add_handle(multi, t.easy)
      }
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
      waitBegan = ContinuousClock.now
      waitAllowed = .milliseconds(waitMs)
      ccurl_multi_poll(multi, nil, 0, waitMs, nil)
    }
    for t in Array(running.values) { finish(t, .closed) }
    let idle = inbox.withLock { box -> [UnsafeMutableRawPointer] in
      box.gone = true
      defer { box.idle = [] }
      return box.idle
    }
    for easy in idle { ccurl_easy_cleanup(easy) }
    ccurl_multi_cleanup(multi)
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
