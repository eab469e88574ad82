import FoundationEssentials

/// A stop asked of the copy's drain (``Queue/stopDrain()``): the pass sends nothing more, and a
/// read of the root still under way (nothing of the queue sent yet) is given up at once.
final class DrainStop: Sendable {
  private let state = Mutex<(asked: Bool, reason: String?, rootRead: Task<WorkingCopy.Root, any Error>?)>(
    (false, nil, nil))

  /// Asks the stop, saying who asked when known (the first reason given is kept), and gives up
  /// the root read under way.
  func ask(because reason: String?) {
    let reading = state.withLock { s -> Task<WorkingCopy.Root, any Error>? in
      s.asked = true
      if s.reason == nil { s.reason = reason }
      return s.rootRead
    }
    reading?.cancel()
  }

  /// Whether a stop was asked since the last drain ended.
  var asked: Bool { state.withLock { $0.asked } }

  /// Who asked the stop, when the asker said.
  var reason: String? { state.withLock { $0.reason } }

  /// Reads the root in a task the stop can cancel; a read given up for the stop throws
  /// ``QueueError/canceled(answered:)``.
  func readRoot(_ copy: WorkingCopy) async throws -> WorkingCopy.Root {
    let reading = Task { try await copy.readRoot() }
    let asked = state.withLock { s -> Bool in
      s.rootRead = reading
      return s.asked
    }
    if asked { reading.cancel() }
    defer { state.withLock { $0.rootRead = nil } }
    do {
      return try await reading.value
    } catch {
      if self.asked { throw QueueError.canceled(answered: 0) }
      throw error
    }
  }

  /// Forgets the stop once a drain ended.
  func reset() { state.withLock { $0 = (false, nil, nil) } }
}
