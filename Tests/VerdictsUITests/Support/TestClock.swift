import MarfaWire

@testable import VerdictsUI

/// A clock that stands still until the test moves it: sleepers wake only when ``advance(by:)``
/// passes their deadline, so a test decides when time passes instead of sleeping for it.
final class TestClock: AppClock {
  private struct State {
    var now: Duration = .zero
    var nextId = 0
    var sleepers: [Int: (deadline: Duration, continuation: CheckedContinuation<Void, Error>)] = [:]
    var cancelledEarly: Set<Int> = []
  }

  private let state = Mutex(State())
  /// Called whenever a task starts sleeping (a test driver waits on it).
  private let onSleep: @Sendable () -> Void

  init(onSleep: @escaping @Sendable () -> Void = {}) { self.onSleep = onSleep }

  var now: Duration { state.withLock { $0.now } }

  /// How many tasks sleep on the clock now.
  var sleeping: Int { state.withLock { $0.sleepers.count } }

  func sleep(for duration: Duration) async throws {
    let id = state.withLock { s in
      s.nextId += 1
      return s.nextId
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
        let ready = state.withLock { s -> Bool? in
          if s.cancelledEarly.remove(id) != nil { return false }
          if duration <= .zero { return true }
          s.sleepers[id] = (s.now + duration, continuation)
          return nil
        }
        switch ready {
        case true?: continuation.resume()
        case false?: continuation.resume(throwing: CancellationError())
        case nil: onSleep()
        }
      }
    } onCancel: {
      let c = state.withLock { s -> CheckedContinuation<Void, Error>? in
        if let sleeper = s.sleepers.removeValue(forKey: id) { return sleeper.continuation }
        s.cancelledEarly.insert(id)
        return nil
      }
      c?.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock on by `duration`, waking every sleeper whose deadline it reaches.
  func advance(by duration: Duration) {
    let due = state.withLock { s in
      s.now += duration
      let due = s.sleepers.filter { $0.value.deadline <= s.now }
      for id in due.keys { s.sleepers[id] = nil }
      return due.values.map(\.continuation)
    }
    for c in due { c.resume() }
  }

  /// Moves the clock to the earliest sleeper's deadline and wakes it; false when nobody sleeps.
  @discardableResult
  func advanceToNextSleeper() -> Bool {
    let next = state.withLock { s in s.sleepers.values.map(\.deadline).min().map { $0 - s.now } }
    guard let next else { return false }
    advance(by: max(.zero, next))
    return true
  }
}
