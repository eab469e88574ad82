import Foundation

/// An idle `verdicts watch` on the generated "1M" store, 120×40: bytes sent
/// and wakeups a second (voluntary + nonvoluntary context switches summed over
/// /proc/PID/task/*/status) over `idleSeconds` with nothing changing, twice: from 1 s after its
/// first frame (the start's tail: libdispatch's worker threads end 5 s after their last job) and
/// then in the same length of time after it (idle as a watcher left running is: the target's row).
struct IdleBenchmark: Benchmark {
  let name = "idle"
  let summary = "idle `verdicts watch` on 1M: bytes over 10 s (0) and wakeups a second (≤ 1)"
  static let wakeupTarget = 1.0

  func run(_ options: BenchOptions) async throws -> BenchOutcome {
    let cache = try StoreCache(options)
    var notes: [String] = []
    let store = try await cache.store(.generated, options.middle) { notes.append($0) }
    let session = try TUISession(store: store, home: cache.folder + "/home-idle")
    defer { session.pty.finish() }
    try await session.ready(try PaneTitles.truth(store: store), what: "idle")
    try await Task.sleep(for: .seconds(1))
    let pid = session.pty.child.pid
    let start = try await Self.window(session, pid: pid, seconds: options.idleSeconds)
    let steady = try await Self.window(session, pid: pid, seconds: options.idleSeconds)
    let size = Stats.whole(Double(options.middle))
    return Row.outcome(
      [
        Row(
          name: "idle `verdicts watch` on generated \(size): bytes over 2 × \(options.idleSeconds) s",
          figure: "\(Stats.whole(Double(start.bytes + steady.bytes))) B", target: "0 B",
          met: start.bytes + steady.bytes == 0),
        Row(
          name: "idle `verdicts watch` on generated \(size): wakeups a second, left running",
          figure: "\(steady.text); in the \(options.idleSeconds) s before it (the start's tail) \(start.text)",
          target: "≤ 1/s", met: steady.wakeups <= Self.wakeupTarget),
      ], notes: notes)
  }

  /// One window of `seconds` with nothing changing: the bytes the program sent, its wakeups a
  /// second, and the figure as text.
  static func window(_ session: TUISession, pid: pid_t, seconds span: Int) async throws
    -> (bytes: Int, wakeups: Double, text: String)
  {
    let from = ContinuousClock.now
    let before = ProcStats.switchesByThread(pid: pid)
    try await Task.sleep(for: .seconds(span))
    let after = ProcStats.switchesByThread(pid: pid)
    let (made, ended) = ProcStats.switchesBetween(before, after)
    let to = ContinuousClock.now
    let seconds = Stats.seconds(to - from)
    let wakeups = Double(made) / seconds
    let text =
      "\(Stats.fixed(wakeups, 1))/s (\(made) context switches in \(Stats.fixed(seconds, 1)) s, every thread"
      + (ended > 0 ? "; \(ended) thread(s) ended in between, theirs not counted)" : ")")
    return (session.pty.bytes(from: from, to: to), wakeups, text)
  }
}
