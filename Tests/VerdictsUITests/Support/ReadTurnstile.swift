import MarfaQueue
import MarfaWire

/// Page reads held at a turnstile: each waits there until the test lets it through, so a test
/// chooses the order reads come back in, one at a time.
final class ReadTurnstile: Sendable {
  /// What one page read asks for.
  struct Read: Sendable, Hashable {
    var pane: QueuePane
    var offset: Int
    var limit: Int
    var order: PaneOrder
  }

  private struct Waiting {
    var read: Read
    var continuation: CheckedContinuation<Void, Never>
  }

  private struct State {
    var waiting: [Waiting] = []
    var open = false
  }

  private let state = Mutex(State())
  private let arrived: @Sendable () -> Void

  /// A turnstile that calls `arrived` each time a read comes to wait at it.
  init(arrived: @escaping @Sendable () -> Void) { self.arrived = arrived }

  /// The reads waiting now, in the order they came.
  var waiting: [Read] { state.withLock { $0.waiting.map(\.read) } }

  /// Waits until the test lets `read` through (at once when the turnstile is open).
  func pass(_ read: Read) async {
    await withCheckedContinuation { continuation in
      let open = state.withLock { s in
        if !s.open { s.waiting.append(Waiting(read: read, continuation: continuation)) }
        return s.open
      }
      if open { continuation.resume() } else { arrived() }
    }
  }

  /// Lets the first waiting read that `matches` through; false when none waits.
  @discardableResult
  func admit(first matches: (Read) -> Bool) -> Bool {
    let admitted = state.withLock { s -> Waiting? in
      guard let i = s.waiting.firstIndex(where: { matches($0.read) }) else { return nil }
      return s.waiting.remove(at: i)
    }
    admitted?.continuation.resume()
    return admitted != nil
  }

  /// Lets every read through, now and later.
  func open() {
    let all = state.withLock { s -> [Waiting] in
      s.open = true
      defer { s.waiting = [] }
      return s.waiting
    }
    for w in all { w.continuation.resume() }
  }
}
