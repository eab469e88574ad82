import MarfaWire

/// Runs `work` on a thread of its own and awaits what it returns or throws: for blocking or long
/// synchronous work in an async test (a child read to its end, a big store generated row by row).
///
/// Swift Testing runs every test of a target at once on the cooperative pool, two threads here.
/// Work that does not suspend holds one of them for its whole length, and every other test's
/// tasks wait: two tests generating a store of 20,000 writes held both for 20 s and more under
/// AddressSanitizer, and followers elsewhere missed their bounded waits (docs/reliability.md,
/// "Sanitizers").
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    DetachedThread.start(name: "test off pool") { continuation.resume(with: Result { try work() }) }
  }
}
