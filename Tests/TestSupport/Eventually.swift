import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Looks at `condition` every `pause` until it holds or `bound` has passed: the one way a test
/// waits for something another task, thread or process does. True as soon as it holds; false when
/// it still did not at the last look, which is made once `bound` has passed, so a condition that
/// comes true on the bound still counts. The bound is generous on purpose (a loaded machine is
/// slow, and a passing test never waits it out); the pause between looks is short. Under a
/// sanitizer it is longer by ``SanitizerRun/boundScale``.
///
/// `condition` may keep state of its own between looks (a count of what it saw); with `pause`
/// `.zero` it is called again at once, for a condition that itself waits (the next update of a
/// stream).
@discardableResult
public func eventually(
  within bound: Duration = .seconds(10), every pause: Duration = .milliseconds(20),
  _ condition: () async throws -> Bool
) async rethrows -> Bool {
  let clock = ContinuousClock()
  let end = clock.now + bound * SanitizerRun.boundScale
  while true {
    if try await condition() { return true }
    if clock.now >= end || Task.isCancelled { return false }
    if pause > .zero { try? await Task.sleep(for: pause) } else { await Task.yield() }
  }
}

/// ``eventually(within:every:_:)`` for a test or a helper that is not async: the thread sleeps
/// between looks.
@discardableResult
public func waitUntil(
  within bound: Duration = .seconds(10), every pause: Duration = .milliseconds(20), _ condition: () throws -> Bool
) rethrows -> Bool {
  let clock = ContinuousClock()
  let end = clock.now + bound * SanitizerRun.boundScale
  while true {
    if try condition() { return true }
    if clock.now >= end { return false }
    let (seconds, attoseconds) = pause.components
    usleep(UInt32(max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)))
  }
}
