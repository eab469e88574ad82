import Foundation
import MarfaQueue
import TestSupport
import Testing

@testable import VerdictsUI

/// Runs an ``AppCore`` as the UI loop does, on a ``TestClock``: it processes the inbox each time
/// the core is woken, and moves the clock on only when a task sleeps on it, never by a fixed sleep.
final class CoreDriver {
  let core: AppCore
  let clock: TestClock
  private let wakes: AsyncStream<Void>
  private let wake: AsyncStream<Void>.Continuation

  /// How long a test waits (real time) for something that should come at once, before failing:
  /// 20 s, times ``SanitizerRun/boundScale`` (every test of the target runs at once on the
  /// cooperative pool's two threads, and a sanitizer's build runs 2–20× slower).
  static let patience: Duration = .seconds(20) * SanitizerRun.boundScale

  init(_ source: QueueSource, width: Int = 120, height: Int = 40, readOnly: String? = nil) {
    let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    self.wakes = wakes
    self.wake = wake
    clock = TestClock(onSleep: { wake.yield() })
    var state = UIState(width: width, height: height)
    state.readOnlyReason = readOnly
    core = AppCore(source: source, state: state, log: AppLog(path: nil), clock: clock, wake: { wake.yield() })
    core.start()
  }

  /// Wakes the driver, as a post to the core does (for a test's own hooks).
  var waker: @Sendable () -> Void { { [wake] in wake.yield() } }

  deinit {
    core.stop()
    wake.finish()
  }

  /// Processes the inbox until nothing is posted, running or scheduled.
  func settle(sourceLocation: SourceLocation = #_sourceLocation) async {
    await run(until: "the core settles", sourceLocation: sourceLocation) { $0.idle }
  }

  /// Processes the inbox until `done` holds: at each wake, and with the clock moved on to the next
  /// sleeper's deadline whenever one sleeps. Records an issue if it does not come in ``patience``.
  func run(
    until what: String, sourceLocation: SourceLocation = #_sourceLocation, _ done: (AppCore) -> Bool
  ) async {
    let watchdog = Self.watchdog(waking: wake)
    defer { watchdog.cancel() }
    let deadline = ContinuousClock.now + Self.patience
    var iterator = wakes.makeAsyncIterator()
    while true {
      core.process()
      if done(core) { return }
      if ContinuousClock.now >= deadline {
        Issue.record("waited \(Self.patience) for \(what)", sourceLocation: sourceLocation)
        return
      }
      if clock.advanceToNextSleeper() { continue }
      _ = await iterator.next()
    }
  }

  /// A task that wakes the driver once ``patience`` has passed, so a wait that never ends fails.
  private static func watchdog(waking wake: AsyncStream<Void>.Continuation) -> Task<Void, Never> {
    let patience = Self.patience
    return Task.detached {
      try? await Task.sleep(for: patience)
      wake.yield()
    }
  }

  /// Presses each key and settles after it.
  func keys(_ keys: Key..., sourceLocation: SourceLocation = #_sourceLocation) async {
    for k in keys {
      core.apply(.key(k))
      await settle(sourceLocation: sourceLocation)
    }
  }
}
