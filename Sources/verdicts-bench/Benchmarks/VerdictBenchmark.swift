import Foundation

/// `verdicts watch` on the generated "1M" store (many waiting writes, the
/// first one in the detail pane) on a 120×40 pty; another connection commits an `accepted`
/// verdict on the first waiting write, one at a time. For each: the commit's return → the last
/// byte of the first frame whose titles show the new counts, and every byte sent for it (until
/// 300 ms pass without one); then verdicts at each cadence (`--cadences`), every byte from one
/// commit to the next counted. The answered writes are put back afterwards, so the kept store stays.
struct VerdictBenchmark: Benchmark {
  let name = "verdict"
  let summary = "one verdict → screen at 1M (commit → last byte on the pty, ≤ 50 ms median); bytes per verdict (≤ 1 KB)"
  static let targetMs = 50.0
  static let targetBytes = 1024.0
  /// Longer than the held detail's rest after the timed verdicts (about 1 s apart, so a rest of
  /// up to twice that: `DetailRestTimer`), so it has caught up.
  static let restMargin: Duration = .milliseconds(3_200)

  func run(_ options: BenchOptions) async throws -> BenchOutcome {
    let cache = try StoreCache(options)
    var notes: [String] = []
    let store = try await cache.store(.generated, options.middle) { notes.append($0) }
    let truth = try PaneTitles.truth(store: store)
    let session = try TUISession(store: store, home: cache.folder + "/home-verdict")
    try await session.ready(truth, what: "verdict")
    let writer = try RawConnection(path: store)
    var answered: [RawConnection.Waiting] = []
    defer {
      session.pty.finish()
      try? writer.restore(answered)
    }
    var latencies: [Double] = []
    var bytes: [Double] = []
    var counts = truth
    var rng = SplitMix(seed: 12)
    let dump = ProcessInfo.processInfo.environment["VERDICTS_BENCH_DUMP"].flatMap { $0.isEmpty ? nil : $0 }
    /// Commits one verdict on the first waiting write and waits for the frame that shows it.
    func verdict() async throws -> ContinuousClock.Instant {
      session.follower.catchUp()
      let w = try writer.waiting()
      answered.append(w)
      counts.counts[0] = counts.counts[0].map { $0 - 1 }
      counts.counts[1] = counts.counts[1].map { $0 + 1 }
      try writer.commitAccepted(id: w.id)
      let committed = ContinuousClock.now
      guard let frame = await session.follower.waitFor(counts, limit: .seconds(5)) else {
        throw BenchFailure(message: "no frame showed \(counts) within 5 s of the verdict on \(w.id)")
      }
      latencies.append(Stats.seconds(frame.last.time - committed) * 1000)
      return committed
    }
    func keep(_ name: String, from: ContinuousClock.Instant, to: ContinuousClock.Instant) {
      guard let dump else { return }
      FileManager.default.createFile(
        atPath: dump + "/\(name).bin", contents: Data(session.pty.transcript(from: from, to: to)))
    }
    var runStart: ContinuousClock.Instant?
    for _ in 0..<options.updates {
      // A random gap, so commits fall at every phase of the watcher's timers.
      try await Task.sleep(nanoseconds: 300_000_000 + rng.next() % 300_000_000)
      let committed = try await verdict()
      runStart = runStart ?? committed
      await session.pty.settle(quiet: .milliseconds(300), limit: .seconds(3))
      let settled = ContinuousClock.now
      bytes.append(Double(session.pty.bytes(from: committed, to: settled)))
      keep("verdict-\(bytes.count)", from: committed, to: settled)
    }
    // Every byte of the run, the held detail's catch-up after the last verdict included.
    try await Task.sleep(for: Self.restMargin)
    let runBytes = Double(session.pty.bytes(from: runStart ?? .now, to: .now))
    // At each cadence, verdicts that far apart: every byte from one commit to the next (the last
    // one's until the held detail has caught up), so whatever a verdict sets off is counted once.
    var cadenceRows: [Row] = []
    for cadence in options.cadences {
      let gap = Duration.milliseconds(Int(cadence * 1000))
      var each: [Double] = []
      try await Task.sleep(for: Self.restMargin)
      // After the last verdict, until the held detail has caught up: its rest follows the pace
      // (twice the gap, at most 30 s: `DetailRestTimer`), so that is waited for and counted too.
      let catchUp = min(gap * 2, .seconds(30)) + .milliseconds(600)
      for i in 0..<options.updates {
        let committed = try await verdict()
        let last = i == options.updates - 1
        let next = committed + (last ? max(gap, catchUp, Self.restMargin) : gap)
        try await Task.sleep(until: next, clock: .continuous)
        each.append(Double(session.pty.bytes(from: committed, to: .now)))
        keep("cadence-\(Stats.fixed(cadence, 1))-\(i + 1)", from: committed, to: .now)
      }
      let m = Stats.median(each)
      let whole = each.reduce(0, +) / Double(max(1, each.count))
      cadenceRows.append(
        Row(
          name: "bytes per verdict, 120×40, verdicts \(Stats.fixed(cadence, 1)) s apart",
          figure:
            "median \(Stats.whole(m)) B (\(Stats.whole(each.min() ?? 0))–\(Stats.whole(each.max() ?? 0))) over \(each.count);"
            + " \(Stats.whole(whole)) B a verdict over them, the detail's catch-up after the last included",
          target: "≤ 1 KB median", met: m <= Self.targetBytes))
    }
    let median = Stats.median(latencies)
    let bytesMedian = Stats.median(bytes)
    notes.append(
      "`verdicts watch` on the generated \(Stats.whole(Double(options.middle))) store (\(truth)), 120×40;"
        + " \(options.updates) verdicts 0.3–0.6 s apart, each on the first waiting write (latency over those and"
        + " the cadences' verdicts)")
    notes.append(
      "the whole run of \(options.updates): \(Stats.whole(runBytes)) B, \(Stats.whole(runBytes / Double(max(1, options.updates))))"
        + " B a verdict, with the detail catching up 1 s after the last; then \(options.updates) verdicts at each"
        + " cadence (\(options.cadences.map { Stats.fixed($0, 1) }.joined(separator: ", ")) s apart), each counted"
        + " from its commit to the next")
    return Row.outcome(
      [
        Row(
          name: "one verdict → screen, generated \(Stats.whole(Double(options.middle)))",
          figure: "median \(Stats.fixed(median, 1)) ms, p95 \(Stats.fixed(Stats.percentile(latencies, 95), 1)) ms,"
            + " largest \(Stats.fixed(latencies.max() ?? 0, 1)) ms over \(latencies.count)",
          target: "≤ 50 ms median", met: median <= Self.targetMs),
        Row(
          name: "bytes per verdict, 120×40, \(Stats.whole(Double(truth.counts[0] ?? 0))) waiting writes",
          figure:
            "median \(Stats.whole(bytesMedian)) B (\(Stats.whole(bytes.min() ?? 0))–\(Stats.whole(bytes.max() ?? 0)))",
          target: "≤ 1 KB median", met: bytesMedian <= Self.targetBytes),
      ] + cadenceRows, notes: notes)
  }
}
