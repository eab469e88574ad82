import Foundation

/// A value that arrives once, from another thread, and is awaited by one task.
///
/// ``value()`` returns at once when the value is already there, without suspending.
final class OneShot<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var result: Result<Value, Error>?
  private var waiter: CheckedContinuation<Value, Error>?

  /// Hands over the value (or the failure that stood in for it); later calls are ignored.
  func set(_ value: Result<Value, Error>) {
    lock.lock()
    guard result == nil else {
      lock.unlock()
      return
    }
    result = value
    let waiting = waiter
    waiter = nil
    lock.unlock()
    waiting?.resume(with: value)
  }

  /// The value, waiting for it when it has not come yet.
  func value() async throws -> Value {
    if let ready = current() { return try ready.get() }
    return try await withCheckedThrowingContinuation { wait($0) }
  }

  /// The value when it is there.
  private func current() -> Result<Value, Error>? {
    lock.lock()
    defer { lock.unlock() }
    return result
  }

  /// Resumes at once when the value came meanwhile, else when it comes.
  private func wait(_ continuation: CheckedContinuation<Value, Error>) {
    lock.lock()
    if let result {
      lock.unlock()
      continuation.resume(with: result)
      return
    }
    waiter = continuation
    lock.unlock()
  }
}
