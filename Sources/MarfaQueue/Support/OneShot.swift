import MarfaWire

/// A value that arrives once, from another thread, and is awaited by one task.
///
/// ``value()`` returns at once when the value is already there, without suspending.
final class OneShot<Value: Sendable>: Sendable {
  private struct State {
    var result: Result<Value, Error>?
    var waiter: CheckedContinuation<Value, Error>?
  }

  private let state = Mutex(State())

  /// Hands over the value (or the failure that stood in for it); later calls are ignored.
  func set(_ value: Result<Value, Error>) {
    let waiting = state.withLock { s -> CheckedContinuation<Value, Error>? in
      guard s.result == nil else { return nil }
      s.result = value
      defer { s.waiter = nil }
      return s.waiter
    }
    waiting?.resume(with: value)
  }

  /// The value, waiting for it when it has not come yet.
  func value() async throws -> Value {
    if let ready = state.withLock({ $0.result }) { return try ready.get() }
    return try await withCheckedThrowingContinuation { wait($0) }
  }

  /// Resumes at once when the value came meanwhile, else when it comes.
  private func wait(_ continuation: CheckedContinuation<Value, Error>) {
    let ready = state.withLock { s -> Result<Value, Error>? in
      if let result = s.result { return result }
      s.waiter = continuation
      return nil
    }
    if let ready { continuation.resume(with: ready) }
  }
}
