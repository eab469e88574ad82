import MarfaWire

/// Counts a server's live threads and open descriptors, so a test can prove a stop leaves none behind.
final class ServerActivity: Sendable {
  private let counts = Mutex((threads: 0, descriptors: 0))

  /// The threads running now.
  var threads: Int { counts.withLock { $0.threads } }
  /// The descriptors (listener, wake pipe, connections) open now.
  var descriptors: Int { counts.withLock { $0.descriptors } }

  func threadStarted() { counts.withLock { $0.threads += 1 } }
  func threadEnded() { counts.withLock { $0.threads -= 1 } }
  func opened(_ n: Int = 1) { counts.withLock { $0.descriptors += n } }
  func closed(_ n: Int = 1) { counts.withLock { $0.descriptors -= n } }
}
