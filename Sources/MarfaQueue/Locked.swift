import Synchronization

/// A value behind a lock, for state shared across threads: a ``Mutex`` in a class, so it can be
/// shared by reference.
///
/// Only `HTTPClient` still uses it (being rewritten apart); new code holds a `Mutex` directly.
final class Locked<Value>: Sendable {
  private let mutex: Mutex<Value>

  init(_ value: sending Value) { mutex = Mutex(value) }

  /// Reads or changes the value under the lock.
  func withLock<T, E: Error>(_ body: (inout sending Value) throws(E) -> sending T) throws(E) -> sending T {
    try mutex.withLock(body)
  }
}
