import Foundation

/// Counts a server's live threads and open descriptors, so a test can prove a stop leaves none behind.
final class ServerActivity: @unchecked Sendable {
  private let lock = NSLock()
  private var threadCount = 0
  private var descriptorCount = 0

  /// The threads running now.
  var threads: Int { lock.withLock { threadCount } }
  /// The descriptors (listener, wake pipe, connections) open now.
  var descriptors: Int { lock.withLock { descriptorCount } }

  func threadStarted() { lock.withLock { threadCount += 1 } }
  func threadEnded() { lock.withLock { threadCount -= 1 } }
  func opened(_ n: Int = 1) { lock.withLock { descriptorCount += n } }
  func closed(_ n: Int = 1) { lock.withLock { descriptorCount -= n } }
}
