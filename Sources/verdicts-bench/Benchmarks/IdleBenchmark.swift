import Foundation

/// Idle `verdicts watch` on the generated "1M" store, 120×40, in five runs at once (each its own
/// process and pty): the bytes each sends and its wakeups a second over a window with nothing
/// changing (30 s; `--quick` 5 s), from 10 s after its first frame (libdispatch's idle worker
/// threads end 5 s after their last job: the start's tail is not idle).
///
/// A wakeup is a voluntary context switch (`voluntary_ctxt_switches`), summed over every thread
/// of the process (`/proc/PID/task/*/status`; `/proc/PID/status` alone is the main thread's, which
/// waits for the whole run): each time a thread slept and was woken. The row names the share of
/// libdispatch's manager thread (found as the thread waiting in `epoll_wait`): its workqueue
/// monitor, a 1 s timer every Linux process that has used Swift concurrency's pool runs.
struct IdleBenchmark: Benchmark {
  let name = "idle"
  let summary = "idle `verdicts watch` on 1M, 5 runs: bytes over 30 s (0) and wakeups a second (≤ 1), each run"
  static let wakeupTarget = 1.0

  func run(_ options: BenchOptions) async throws -> BenchOutcome {
    let runs = options.quick ? 2 : 5
    let seconds = options.quick ? 5 : 30
    let cache = try StoreCache(options)
    var notes: [String] = []
    let store = try await cache.store(.generated, options.middle) { notes.append($0) }
    let truth = try PaneTitles.truth(store: store)
    var sessions: [TUISession] = []
    defer { for s in sessions { s.pty.finish() } }
    for r in 0..<runs {
      sessions.append(try TUISession(store: store, home: cache.folder + "/home-idle-\(r)"))
    }
    for s in sessions { try await s.ready(truth, what: "idle") }
    try await Task.sleep(for: .seconds(10))
    let pids = sessions.map { $0.pty.child.pid }
    // Each run's window starts just after a tick of its manager thread's monitor and lasts whole
    // seconds, so it holds as many of the monitor's ticks as it lasts seconds: a window across
    // a tick at each end would count one more than its length allows, whatever the program did.
    var windows: [(from: ContinuousClock.Instant, before: [String: ProcStats.Wakeups])] = []
    for pid in pids {
      let first = ProcStats.wakeupsByThread(pid: pid)
      let manager = first.first { $0.value.manager }?.key
      let giveUp = ContinuousClock.now + .milliseconds(1500)
      var now = first
      while let manager, now[manager]?.voluntary == first[manager]?.voluntary, ContinuousClock.now < giveUp {
        usleep(1_000)
        now = ProcStats.wakeupsByThread(pid: pid)
      }
      windows.append((ContinuousClock.now, now))
    }
    var ends: [(to: ContinuousClock.Instant, after: [String: ProcStats.Wakeups])] = Array(
      repeating: (ContinuousClock.now, [:]), count: pids.count)
    for r in pids.indices.sorted(by: { windows[$0].from < windows[$1].from }) {
      let due = windows[r].from + .seconds(seconds)
      if due > ContinuousClock.now { try await Task.sleep(until: due, clock: .continuous) }
      ends[r] = (ContinuousClock.now, ProcStats.wakeupsByThread(pid: pids[r]))
    }
    var rows: [Row] = []
    let size = Stats.whole(Double(options.middle))
    for (r, session) in sessions.enumerated() {
      let (from, before) = windows[r]
      let (to, after) = ends[r]
      let span = Stats.seconds(to - from)
      let bytes = session.pty.bytes(from: from, to: to)
      var voluntary = 0
      var involuntary = 0
      var manager = 0
      var byThread: [String] = []
      for (tid, now) in after {
        let then = before[tid] ?? ProcStats.Wakeups(voluntary: 0, involuntary: 0, manager: now.manager)
        let made = max(0, now.voluntary - then.voluntary)
        voluntary += made
        involuntary += max(0, now.involuntary - then.involuntary)
        if now.manager { manager += made }
        if made > 0 { byThread.append("\(ProcStats.threadName(pid: pids[r], tid: tid)) \(made)") }
      }
      let ended = before.keys.filter { after[$0] == nil }.count
      let rate = Double(voluntary) / span
      rows.append(
        Row(
          name: "idle `verdicts watch` on generated \(size), run \(r + 1) of \(runs): over \(Stats.fixed(span, 1)) s",
          figure:
            "\(Stats.whole(Double(bytes))) B; \(Stats.fixed(rate, 2)) wakeups a second (\(voluntary) voluntary switches, every thread;"
            + " \(manager) of them libdispatch's manager thread, its once-a-second pool monitor; the program's own \(voluntary - manager);"
            + " by thread: \(byThread.sorted().joined(separator: ", ")); \(involuntary) preempted"
            + (ended > 0 ? "; \(ended) thread(s) ended in the window, theirs not counted" : "") + ")",
          target: "0 B, ≤ 1 a second", met: bytes == 0 && rate <= Self.wakeupTarget))
    }
    return Row.outcome(rows, notes: notes)
  }
}
