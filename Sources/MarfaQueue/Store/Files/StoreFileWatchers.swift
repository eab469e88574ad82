import FoundationEssentials
import MarfaWire

/// Who listens for events on a reader's store files (``WorkingCopy/storeFileEvents()``).
final class StoreFileWatchers: Sendable {
  private let continuations = Mutex<[UUID: AsyncStream<Void>.Continuation]>([:])
  /// Whether the files are watched by inotify (else nobody hears of them without a timer).
  let available = Mutex(false)

  /// A new listener's stream: one element per burst of events.
  func stream() -> AsyncStream<Void> {
    let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let id = UUID()
    continuations.withLock { $0[id] = continuation }
    continuation.onTermination = { [weak self] _ in self?.continuations.withLock { $0[id] = nil } }
    return stream
  }

  /// Tells every listener something happened.
  func tell() {
    for c in continuations.withLock({ Array($0.values) }) { c.yield() }
  }

  /// Ends every listener's stream.
  func finish() {
    for c in continuations.withLock({ Array($0.values) }) { c.finish() }
  }
}
