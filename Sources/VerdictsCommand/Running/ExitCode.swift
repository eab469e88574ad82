/// How `verdicts` exits.
public enum ExitCode: Int32, Sendable, Hashable, CaseIterable {
  /// Done.
  case done = 0
  /// Refused by the instance, or refused to it: another contract, a redirect.
  case refused = 1
  /// A usage error, or no store.
  case usage = 2
  /// The environment: the network, a drain that left writes undelivered or ended unavailable,
  /// a drain stopped by a signal, the store's disk.
  case environment = 3
  /// A device rule: reading handle, incomplete or expired copy, no cursor, an unknown id,
  /// a foreign store, input the queue's rules refuse.
  case deviceRule = 4
  /// The credential: a drain stopped by a refused key.
  case credential = 5
}
