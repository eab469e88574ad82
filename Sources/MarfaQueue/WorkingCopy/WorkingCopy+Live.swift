import FoundationEssentials

extension WorkingCopy {
  /// The shortest gap between two results of a live query: at most ten a second.
  static let liveInterval: UInt64 = 100_000_000

  /// A query whose results follow the store: yielded at once, then after every change that
  /// touches the queue (in a reader, every save of the writer), at most about ten a second.
  public func live(_ query: LiveQuery) -> AsyncStream<LiveResult> {
    let changes = hub.stream()
    let store = self.store
    let (stream, continuation) = AsyncStream<LiveResult>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let reader = Task.detached {
      var iterator = changes.makeAsyncIterator()
      // Whether a change touched the queue since the last result (the first result is due at once).
      var pending = true
      while !Task.isCancelled {
        if pending {
          pending = false
          let result: LiveResult?
          switch query {
          case .queue:
            result = try? await store.run { LiveResult.queue(try $0.allWrites()) }
          case .counts:
            result = try? await store.run { LiveResult.counts(try $0.counts()) }
          }
          if let result { continuation.yield(result) }
        }
        try? await Task.sleep(nanoseconds: WorkingCopy.liveInterval)
        if !pending {
          // Wait for the next change that touches the queue.
          var woke = false
          while let change = await iterator.next() {
            if change.touchesQueue {
              woke = true
              break
            }
          }
          if !woke { break }
          pending = true
        }
      }
      continuation.finish()
    }
    continuation.onTermination = { _ in reader.cancel() }
    return stream
  }
}
