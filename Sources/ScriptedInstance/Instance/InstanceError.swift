/// Why the scripted instance could not do what it was asked.
package enum InstanceError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The port could not be bound or listened on.
  case cannotListen(port: UInt16, reason: String)
  /// `online()` was called on an instance that was never started.
  case notStarted

  package var description: String {
    switch self {
    case .cannotListen(let port, let reason):
      return "the scripted instance cannot listen on 127.0.0.1:\(port): \(reason)"
    case .notStarted:
      return "the scripted instance was never started"
    }
  }
}
