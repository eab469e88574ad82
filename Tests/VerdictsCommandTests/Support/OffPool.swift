import Foundation

/// Runs blocking work (spawning a process and waiting for it) on a thread of its own, so a
/// test does not hold one of the few threads every async test in the process shares (on two
/// cores, two blocked tests would stall every other one).
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
  }
}

extension Binary {
  /// ``run(_:store:home:environment:timeout:)`` off the shared threads.
  static func runOff(
    _ arguments: [String], store: String?, home: String, environment extra: [String: String] = [:],
    timeout: Double = 30
  ) async throws -> CommandResult {
    try await offPool { try run(arguments, store: store, home: home, environment: extra, timeout: timeout) }
  }
}
