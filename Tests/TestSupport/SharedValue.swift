import MarfaWire

/// A value a test shares with a task or a callback, behind a `Mutex`: the one box tests use
/// instead of an `@unchecked Sendable` class of their own.
public final class SharedValue<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>

  /// A box holding `value`.
  public init(_ value: Value) { mutex = Mutex(value) }

  /// The value now.
  public var value: Value { mutex.withLock { $0 } }

  /// Changes the value under the lock.
  public func update(_ body: (inout Value) -> Void) { mutex.withLock { body(&$0) } }
}
