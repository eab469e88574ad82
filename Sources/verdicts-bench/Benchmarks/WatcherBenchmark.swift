import Foundation

/// A watcher following a drain after a big earlier drain. A copy of the drained
/// "100k" store (its report that drain's) gets `--writes` creates queued; `verdicts drain` sends
/// them with a `verdicts watch` on a 120×40 pty following, and, on another copy, with none. The
/// watcher's CPU over the drain (from /proc/PID/stat) and the drain's time against the one
/// without a watcher, the order alternating by round. Bound: the drain ≤ 5 % slower (median of
/// the rounds' ratios); the watcher ≤ 10 % of a core.
struct WatcherBenchmark: Benchmark {
  let name = "watcher"
  let summary =
    "a watcher following a drain after a big drain: its CPU (≤ 10 % of a core), the drain's slowdown (≤ 5 %)"
  static let cpuTarget = 0.10
  static let slowdownTarget = 0.05
  /// The fewest rounds outside `--quick`: on two shared CPUs one round's ratio swings by ±15 %,
  /// so five rounds' median can land anywhere from −2 % to +23 % (docs/performance.md).
  static let fewestRounds = 20

  /// How many rounds to run: at least ``fewestRounds`` unless the run is a quick one.
  static func rounds(_ options: BenchOptions) -> Int {
    options.quick ? options.rounds : max(options.rounds, fewestRounds)
  }

  func run(_ options: BenchOptions) async throws -> BenchOutcome {
    let cache = try StoreCache(options)
    var notes: [String] = []
    let kept = try await cache.store(.drained, options.small) { notes.append($0) }
    var cpu: [Double] = []
    var ratios: [Double] = []
    var frames: [Double] = []
    var wakeups: [Double] = []
    var alone: [Double] = []
    var watched: [Double] = []
    let rounds = Self.rounds(options)
    for r in 0..<rounds {
      var times = (alone: 0.0, watched: 0.0)
      for withWatcher in r % 2 == 0 ? [false, true] : [true, false] {
        let stage = try await DrainStage.make(in: cache.folder, label: "watcher", copying: kept, writes: options.writes)
        defer { stage.tearDown() }
        guard withWatcher else {
          let drain = try stage.startDrain()
          _ = try stage.finished(drain)
          times.alone = drain.seconds
          continue
        }
        let session = try TUISession(store: stage.store, home: stage.folder)
        defer { session.pty.finish() }
        try await session.ready(try PaneTitles.truth(store: stage.store), what: "watcher")
        let pid = session.pty.child.pid
        let before = ProcStats.cpuSeconds(pid: pid)
        let switchesBefore = ProcStats.switches(pid: pid)
        let threadsBefore = ProcStats.switchesByThread(pid: pid)
        let drain = try stage.startDrain()
        _ = try stage.finished(drain)
        let used = ProcStats.cpuSeconds(pid: pid) - before
        wakeups.append(Double(ProcStats.switches(pid: pid) - switchesBefore) / drain.seconds)
        if r == 0 {
          // Which threads wake, by name: a diagnostic for the wakeups figure.
          let after = ProcStats.switchesByThread(pid: pid)
          let busiest = after.map { (tid: $0.key, made: $0.value - (threadsBefore[$0.key] ?? 0)) }
            .sorted { $0.made > $1.made }.prefix(6)
            .map { "\(ProcStats.threadName(pid: pid, tid: $0.tid)) \(Stats.whole(Double($0.made) / drain.seconds))/s" }
          notes.append(
            "round 1, the watcher's threads that woke most during the drain: " + busiest.joined(separator: ", "))
        }
        times.watched = drain.seconds
        cpu.append(used / drain.seconds)
        frames.append(Double(Self.frames(session.pty.received, from: drain.started, to: drain.ended!.at)))
      }
      alone.append(times.alone)
      watched.append(times.watched)
      ratios.append(times.watched / times.alone)
    }
    let cpuMedian = Stats.median(cpu)
    let slowdown = Stats.median(ratios) - 1
    notes.append(
      "a copy of the drained \(Stats.whole(Double(options.small))) store, \(Stats.whole(Double(options.writes))) creates queued;"
        + " \(rounds) rounds")
    return Row.outcome(
      [
        Row(
          name: "watcher CPU while it follows the drain",
          figure:
            "median \(Stats.fixed(cpuMedian * 100, 1)) % of a core (\(cpu.map { Stats.fixed($0 * 100, 0) }.joined(separator: ", ")) %);"
            + " median \(Stats.whole(Stats.median(frames))) frames during a drain;"
            + " \(Stats.whole(Stats.median(wakeups))) wakeups a second (context switches, every thread)",
          target: "≤ 10 %", met: cpuMedian <= Self.cpuTarget),
        Row(
          name: "the drain's slowdown with the watcher",
          figure: "median \(Stats.fixed(slowdown * 100, 1)) % (mean \(Stats.fixed((Stats.mean(ratios) - 1) * 100, 1))"
            + " ± \(Stats.fixed(Stats.standardError(ratios) * 100, 1)) %; alone median \(Stats.fixed(Stats.median(alone), 2)) s,"
            + " watched \(Stats.fixed(Stats.median(watched), 2)) s; each round alone/watched: "
            + zip(alone, watched).map { "\(Stats.fixed($0, 2))/\(Stats.fixed($1, 2))" }.joined(separator: ", ") + " s)",
          target: "≤ 5 %", met: slowdown <= Self.slowdownTarget),
      ], notes: notes)
  }

  /// Frames (bursts of reads) that arrived in [from, to).
  static func frames(_ chunks: [PseudoTerminal.Chunk], from: ContinuousClock.Instant, to: ContinuousClock.Instant)
    -> Int
  {
    var count = 0
    var last: ContinuousClock.Instant?
    for c in chunks where c.time >= from && c.time < to {
      if last == nil || c.time - last! > ScreenFollower.gap { count += 1 }
      last = c.time
    }
    return count
  }
}
