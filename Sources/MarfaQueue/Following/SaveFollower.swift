/// Follows another process's saves to a store file: the one loop both store kinds use. Each poll
/// reads a mark of the store (``WorkingCopy``: `data_version`; ``CoreStore``: that and the core's
/// writer, ``CoreChangeMark``); a mark unlike the last one seen is passed on, once.
///
/// It waits on ``SaveWatch`` (inotify on the store's files). After a write is heard it polls
/// ``quickPolls`` times ``quickPollMs`` apart (a commit is visible once the writer updates the WAL
/// index, shared memory that inotify does not see), then waits ``afterWriteMs`` and backs off by
/// its ``SavePace``. It polls no sooner than ``SaveWatch/savedGap`` after telling of a save. Without
/// inotify (none to be had, or the folder went away) it polls on a timer the ``SavePace`` sets.
/// Cancelling the task that runs it ends a wait under way at once.
///
/// While saves stream (a poll found a new mark) writes are not heard (``SaveWatch/hearWrites(_:)``)
/// and it polls every 100 to 150 ms, drawn at random each time (``streamWaitMs(_:)``): each
/// write heard is work in the writer's own `write()` call. The first poll that finds nothing new
/// hears writes again, and polls once more at once, so a save between the two is not missed.
struct SaveFollower<Mark: Equatable & Sendable>: Sendable {
  /// What one poll of the store found.
  enum Poll: Sendable {
    /// The store's mark now.
    case seen(Mark)
    /// The store could not be read this time: the wait stays as it was.
    case unread
    /// Following ends (the store is gone or cannot be read any more).
    case over
  }

  /// How many polls follow a write heard, ``quickPollMs`` apart.
  static var quickPolls: Int { 4 }
  /// The wait between two quick polls.
  static var quickPollMs: Int { 5 }
  /// The wait after the quick polls, from which ``SavePace/next`` backs off.
  static var afterWriteMs: Int { 25 }
  /// The shortest wait between two polls while saves stream and writes are not heard.
  static var streamPollMs: Int { 100 }

  /// One wait between two polls while saves stream: ``streamPollMs`` × 1 to 1.5, by `unit`
  /// (0 up to 1, drawn at random for each wait). Never shorter than ``SaveWatch/savedGap``.
  ///
  /// Every reader of a store hears the first save after quiet at the same moment; with the same
  /// wait each, they would go on polling in step, all fifty woken in the same millisecond ten
  /// times a second and the writer waiting behind them for a CPU. A wait drawn at random spreads
  /// their polls over 50 ms within a few of them; a reader is still told within 150 ms.
  static func streamWaitMs(_ unit: Double) -> Int {
    Int((1 + 0.5 * min(max(unit, 0), 1)) * Double(streamPollMs))
  }

  /// The files' watch; nil where inotify is not to be had.
  let watch: SaveWatch?
  /// The back-off rule.
  let pace: SavePace
  /// The store's mark when following starts (a save after it is passed on).
  let start: Mark
  /// Polls the store once.
  let poll: @Sendable () async -> Poll
  /// Tells of a save: the new mark.
  let tell: @Sendable (Mark) -> Void
  /// Called when a store file is made, deleted, moved or closed after writing, and on every
  /// tick of the timer without inotify (a listener then asks on the timer).
  let heardFiles: @Sendable () -> Void

  /// Follows until the task is cancelled or a poll says ``Poll/over``.
  func run() async {
    var watch = self.watch
    var waitMs = pace.afterSave(watch != nil)
    var quick = 0
    var last = start
    var lastTold: ContinuousClock.Instant?
    // Whether writes wake the wait; and whether the next poll goes at once, without a wait.
    var hearingWrites = true
    var recheck = false
    while !Task.isCancelled {
      if recheck {
        recheck = false
      } else if let w = watch {
        let heard = await withTaskCancellationHandler {
          await w.wait(timeoutMs: quick > 0 ? Self.quickPollMs : waitMs)
        } onCancel: {
          w.stop()
        }
        if heard.contains(.files) { heardFiles() }
        if heard.contains(.lost) { watch = nil }
        if !heard.isEmpty {
          // Poll again soon, backing off from 25 ms, not from where the idle back-off had got
          // to; on the timer (the watch lost) there are no quick polls.
          quick = watch == nil ? 0 : Self.quickPolls
          waitMs = Self.afterWriteMs
        } else if quick > 0 {
          quick -= 1
        }
      } else {
        try? await Task.sleep(for: .milliseconds(waitMs))
        heardFiles()
      }
      if Task.isCancelled { break }
      await SaveWatch.rest(after: lastTold)
      switch await poll() {
      case .seen(let mark) where mark != last:
        last = mark
        tell(mark)
        waitMs = pace.afterSave(watch != nil)
        quick = 0
        lastTold = .now
        // Saves stream: polled on the timer until one poll finds nothing new.
        if let w = watch, hearingWrites, w.hearWrites(false) { hearingWrites = false }
        if !hearingWrites { waitMs = Self.streamWaitMs(Double.random(in: 0..<1)) }
      case .seen:
        if !hearingWrites {
          hearingWrites = true
          if watch?.hearWrites(true) != true { watch = nil }
          recheck = true
          continue
        }
        if quick == 0 { waitMs = pace.next(waitMs, watch != nil) }
      case .unread:
        continue
      case .over:
        return
      }
    }
  }
}
