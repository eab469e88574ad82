import FoundationEssentials
import MarfaWire

/// Fans each ``Change`` out to every open `changes()` stream.
final class ChangeHub: Sendable {
  /// The open streams, and whether ``finish()`` ended them all.
  private struct Streams {
    var continuations: [UUID: AsyncStream<Change>.Continuation] = [:]
    var finished = false
  }

  private let streams = Mutex(Streams())

  /// A new stream of every change from now on.
  func stream() -> AsyncStream<Change> {
    let (stream, continuation) = AsyncStream<Change>.makeStream(bufferingPolicy: .bufferingNewest(4096))
    let id = UUID()
    let open = streams.withLock { s -> Bool in
      if s.finished { return false }
      s.continuations[id] = continuation
      return true
    }
    guard open else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in
      self?.streams.withLock { _ = $0.continuations.removeValue(forKey: id) }
    }
    return stream
  }

  /// Tells every stream.
  func send(_ change: Change) {
    let targets = streams.withLock { Array($0.continuations.values) }
    for c in targets { c.yield(change) }
  }

  /// Ends every stream.
  func finish() {
    let targets = streams.withLock { s in
      s.finished = true
      defer { s.continuations.removeAll() }
      return Array(s.continuations.values)
    }
    for c in targets { c.finish() }
  }
}
