import Foundation

/// Fans each ``Change`` out to every open `changes()` stream.
final class ChangeHub: @unchecked Sendable {
  private let lock = NSLock()
  private var continuations: [UUID: AsyncStream<Change>.Continuation] = [:]
  private var finished = false

  /// A new stream of every change from now on.
  func stream() -> AsyncStream<Change> {
    let (stream, continuation) = AsyncStream<Change>.makeStream(bufferingPolicy: .bufferingNewest(4096))
    let id = UUID()
    lock.lock()
    if finished {
      lock.unlock()
      continuation.finish()
      return stream
    }
    continuations[id] = continuation
    lock.unlock()
    continuation.onTermination = { [weak self] _ in
      guard let self else { return }
      self.lock.lock()
      self.continuations[id] = nil
      self.lock.unlock()
    }
    return stream
  }

  /// Tells every stream.
  func send(_ change: Change) {
    lock.lock()
    let targets = Array(continuations.values)
    lock.unlock()
    for c in targets { c.yield(change) }
  }

  /// Ends every stream.
  func finish() {
    lock.lock()
    finished = true
    let targets = Array(continuations.values)
    continuations.removeAll()
    lock.unlock()
    for c in targets { c.finish() }
  }
}

/// A value behind a lock, for state shared across threads.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  /// Reads or changes the value under the lock.
  func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

/// Runs async work one at a time, in arrival order.
actor SerialGate {
  private var busy = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// Runs `body` once every earlier caller has finished.
  func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
    if busy {
      await withCheckedContinuation { waiters.append($0) }
    }
    busy = true
    defer {
      if waiters.isEmpty { busy = false } else { waiters.removeFirst().resume() }
    }
    return try await body()
  }
}
