import MarfaWire

/// A flag a task can sleep on: raising it wakes every sleeper at once, without polling.
///
/// The flag stays up until ``take()`` lowers it, so a raise while nobody sleeps is not lost: the
/// next ``sleep(for:)`` returns at once.
final class WakeFlag: Sendable {
  private struct State {
    var raised = false
    var nextSleeper: UInt64 = 0
    /// The sleeps under way, and the continuations of those already waiting.
    var sleeping: Set<UInt64> = []
    var sleepers: [UInt64: CheckedContinuation<Void, Never>] = [:]
    /// Sleeps woken (by their timeout or cancellation) before they had started waiting.
    var wokenEarly: Set<UInt64> = []
  }

  private let state = Mutex(State())

  /// Raises the flag and wakes every sleeper.
  func raise() {
    let woken = state.withLock { s in
      s.raised = true
      defer { s.sleepers.removeAll() }
      return Array(s.sleepers.values)
    }
    for c in woken { c.resume() }
  }

  /// Whether the flag was up; lowers it.
  func take() -> Bool {
    state.withLock { s in
      defer { s.raised = false }
      return s.raised
    }
  }

  /// Whether the flag is up (it stays up).
  var isRaised: Bool { state.withLock { $0.raised } }

  /// Sleeps until the flag is raised (at once when it is up), `timeout` passes, or the task is
  /// cancelled. Leaves the flag as it is.
  func sleep(for timeout: Duration) async {
    let id = state.withLock { s in
      s.nextSleeper += 1
      s.sleeping.insert(s.nextSleeper)
      return s.nextSleeper
    }
    defer {
      state.withLock { s in
        s.sleeping.remove(id)
        s.wokenEarly.remove(id)
      }
    }
    let timer = Task { [weak self] in
      try? await Task.sleep(for: timeout)
      if !Task.isCancelled { self?.wake(id) }
    }
    defer { timer.cancel() }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let now = state.withLock { s -> Bool in
          if s.raised || s.wokenEarly.remove(id) != nil || Task.isCancelled { return true }
          s.sleepers[id] = continuation
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      wake(id)
    }
  }

  /// Wakes one sleeper, or marks it woken when it has not started waiting yet.
  private func wake(_ id: UInt64) {
    let continuation = state.withLock { s -> CheckedContinuation<Void, Never>? in
      if let c = s.sleepers.removeValue(forKey: id) { return c }
      if s.sleeping.contains(id) { s.wokenEarly.insert(id) }
      return nil
    }
    continuation?.resume()
  }
}
