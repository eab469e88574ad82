import Foundation
import MarfaWire
import Testing

/// Collects lines from another task, and lets a test wait for them without a fixed sleep.
final class LineSink: Sendable {
  private struct State {
    var lines: [String] = []
    var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  }

  private let state = Mutex(State())

  func add(_ line: String) {
    let ready = state.withLock { s in
      s.lines.append(line)
      let count = s.lines.count
      let ready = s.waiters.filter { $0.count <= count }.map(\.continuation)
      s.waiters.removeAll { $0.count <= count }
      return ready
    }
    for c in ready { c.resume() }
  }

  var all: [String] { state.withLock { $0.lines } }

  /// Returns once at least `count` lines came; records an issue after `patience` without them.
  func wait(forCount count: Int, patience: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation)
    async
  {
    let timeout = Task { [weak self] in
      try? await Task.sleep(for: patience)
      guard !Task.isCancelled, let self else { return }
      let late = self.state.withLock { s in
        defer { s.waiters.removeAll { $0.count == count } }
        return s.waiters.filter { $0.count == count }.map(\.continuation)
      }
      if !late.isEmpty { Issue.record("waited \(patience) for \(count) lines", sourceLocation: sourceLocation) }
      for c in late { c.resume() }
    }
    defer { timeout.cancel() }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let now = state.withLock { s -> Bool in
        if s.lines.count >= count { return true }
        s.waiters.append((count, continuation))
        return false
      }
      if now { continuation.resume() }
    }
  }
}
