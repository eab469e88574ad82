import CSQLite
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Fifty watchers on one drain: while `verdicts drain` sends `writes` creates to the scripted
/// instance (each write answered after ``writeDelay``), 30 `watch --plain --json` processes and
/// 20 `watch` screens on 120×40 ptys follow the same store. Mid-drain half of each kind are
/// stopped (SIGSTOP) for ``stopSeconds`` and continued. Checked: every plain watcher printed
/// every answered write exactly once (by id, against the store afterwards), every screen's last
/// frame shows the store's counts, the drain against the same drain with no watcher (the order
/// alternating by round), each watcher's CPU over the drain and its peak memory, and the stopped
/// watchers' memory against the others'.
struct FiftyWatchersBenchmark: Benchmark {
  let name = "fifty"
  let summary =
    "30 plain and 20 screen watchers on one drain, half stopped 20 s: nothing lost or doubled, drain ≤ 10 % slower, each ≤ 5 % CPU, ≤ 50 MB"
  static let stopSeconds = 20
  /// The instance's wait before answering each write: a drain that waits on its instance, as on a link.
  static let writeDelay = 0.002
  static let slowdownTarget = 0.10
  static let cpuTarget = 0.05
  static let memoryTargetMB = 50.0

  func run(_ options: BenchOptions) async throws -> BenchOutcome {
    let (plainWatchers, screenWatchers) = options.watchers
    let cache = try StoreCache(options)
    let writes = options.quick ? options.writes : max(options.writes, 20_000)
    let rounds = options.quick ? 1 : max(1, min(options.rounds, 3))
    var slowdowns: [Double] = []
    var alone: [Double] = []
    var watched: [Double] = []
    var cpu: [Double] = []
    var peaks: [Double] = []
    var stoppedPeaks: [Double] = []
    var runningPeaks: [Double] = []
    var problems: [String] = []
    var timelines: [String] = []
    for r in 0..<rounds {
      var times = (alone: 0.0, watched: 0.0)
      for withWatchers in r % 2 == 0 ? [false, true] : [true, false] {
        let stage = try await DrainStage.make(in: cache.folder, label: "fifty", copying: nil, writes: writes)
        defer { stage.tearDown() }
        stage.instance.writeDelay = Self.writeDelay
        guard withWatchers else {
          let own = ProcStats.cpuSeconds(pid: getpid())
          let steal = ProcStats.stealSeconds()
          let drain = try stage.startDrain()
          _ = try stage.finished(drain)
          times.alone = drain.seconds
          timelines.append(
            "  round \(r + 1), the drain alone: the drain's CPU \(Stats.fixed(drain.cpuSeconds, 1)) s in \(Stats.fixed(drain.seconds, 1)) s, "
              + "\(Stats.fixed(drain.runDelaySeconds, 1)) s waiting for a CPU; "
              + Self.benchCPU(since: own) + "; " + Self.steal(since: steal))
          continue
        }
        let round = try await watchedDrain(stage, plainWatchers: plainWatchers, screenWatchers: screenWatchers)
        times.watched = round.seconds
        cpu += round.cpu
        peaks += round.peaks
        stoppedPeaks += round.stoppedPeaks
        runningPeaks += round.runningPeaks
        problems += round.problems.map { "round \(r + 1): \($0)" }
        timelines.append("  round \(r + 1), the watched drain: " + round.timeline)
      }
      alone.append(times.alone)
      watched.append(times.watched)
      slowdowns.append(times.watched / times.alone - 1)
    }
    let slowdown = Stats.median(slowdowns)
    let worstCPU = cpu.max() ?? 0
    let worstPeak = peaks.max() ?? 0
    let stopped = Stats.median(stoppedPeaks)
    let running = Stats.median(runningPeaks)
    let total = plainWatchers + screenWatchers
    let rows = [
      Row(
        name: "every answered write printed once by each of \(plainWatchers) plain watchers, every screen true",
        figure: problems.isEmpty ? "yes" : "no: " + problems.prefix(5).joined(separator: "; "),
        target: "no write lost or doubled", met: problems.isEmpty),
      Row(
        name: "drain of \(writes) with \(total) watchers against none (median of \(rounds))",
        figure:
          "\(percent(slowdown)) slower (\(milliseconds(Stats.median(watched) * 1000)) against \(milliseconds(Stats.median(alone) * 1000)))",
        target: "≤ \(percent(Self.slowdownTarget))", met: slowdown <= Self.slowdownTarget),
      Row(
        name: "each watcher's CPU over the drain (worst of \(total); median)",
        figure: "\(percent(worstCPU)) of a core; \(percent(Stats.median(cpu)))",
        target: "≤ \(percent(Self.cpuTarget))", met: worstCPU <= Self.cpuTarget),
      Row(
        name: "each watcher's peak memory (worst of \(total); median)",
        figure: "\(megabytes(worstPeak)); \(megabytes(Stats.median(peaks)))",
        target: "≤ \(megabytes(Self.memoryTargetMB))", met: worstPeak <= Self.memoryTargetMB),
      Row(
        name: "peak memory of the watchers stopped \(Self.stopSeconds) s against the others (medians)",
        figure: "\(megabytes(stopped)) against \(megabytes(running))",
        target: "within 10 %", met: stopped <= running * 1.10),
    ]
    return Row.outcome(
      rows,
      notes: [
        "  \(writes) creates, each answered \(Int(Self.writeDelay * 1000)) ms after it arrives; "
          + "\(plainWatchers / 2) plain and \(screenWatchers / 2) screen watchers stopped mid-drain; "
          + "the plain watchers print to files in /dev/shm, not on the store's disk"
      ] + timelines)
  }

  /// The bench's own CPU since `start` (its CPU seconds then): the instance it serves, the
  /// screens it reads and its sampling of the children, all on the machine the drain runs on.
  /// It is printed so a figure taken while the harness itself was busy can be told.
  static func benchCPU(since start: Double) -> String {
    "the bench's own CPU \(Stats.fixed(ProcStats.cpuSeconds(pid: getpid()) - start, 1)) s (the instance in it)"
  }

  /// The machine's steal time since `start` (its steal seconds then): the time the host ran
  /// something else while this machine had work, which no change to the drain can move.
  static func steal(since start: Double) -> String {
    "the machine's steal \(Stats.fixed(ProcStats.stealSeconds() - start, 2)) s"
  }

  /// What one drain with fifty watchers showed.
  struct WatchedRound {
    var seconds: Double
    var cpu: [Double]
    var peaks: [Double]
    var stoppedPeaks: [Double]
    var runningPeaks: [Double]
    var problems: [String]
    /// When the drain reached half way, what it answered while half the watchers were stopped, the rest.
    var timeline: String
  }

  /// Starts the watchers, drains with half of them stopped for a while, and checks what each saw.
  func watchedDrain(_ stage: DrainStage, plainWatchers: Int, screenWatchers: Int) async throws -> WatchedRound {
    let null = open("/dev/null", O_RDWR)
    defer { close(null) }
    var plain: [(process: SpawnedProcess, output: String)] = []
    var screens: [TUISession] = []
    defer {
      for p in plain { p.process.stop() }
      for s in screens { s.pty.finish() }
    }
    let environment = Binaries.environment(home: stage.folder)
    // What the plain watchers print goes to memory, not to the disk the drain syncs its every
    // verdict to: on a device a watcher prints to an SSH link. 30 files of 20,000 lines written
    // beside the store were the disk's work, not the watchers'.
    let sink = Self.outputFolder(stage)
    defer { if sink != stage.folder { try? FileManager.default.removeItem(atPath: sink) } }
    for i in 0..<plainWatchers {
      let output = sink + "/plain-\(i).jsonl"
      let out = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      defer { close(out) }
      plain.append(
        (
          try SpawnedProcess(
            try Binaries.verdicts(), ["--json", "watch", "--plain", "--from", "now", "--store", stage.store],
            environment: environment, stdin: null, stdout: out, stderr: null),
          output
        ))
    }
    let before = try PaneTitles.truth(store: stage.store)
    for i in 0..<screenWatchers {
      let session = try TUISession(store: stage.store, home: stage.folder + "/screen-\(i)")
      screens.append(session)
      try await session.ready(before, what: "screen watcher \(i)")
    }
    for p in plain { try await Self.waitUntilOpen(p.process.pid, stage.store) }
    let pids = plain.map(\.process.pid) + screens.map(\.pty.child.pid)
    let stoppedPids = Set(plain.prefix(plainWatchers / 2).map(\.process.pid))
      .union(screens.prefix(screenWatchers / 2).map(\.pty.child.pid))
    let cpuBefore = pids.map { ProcStats.cpuSeconds(pid: $0) }
    let own = ProcStats.cpuSeconds(pid: getpid())
    let steal = ProcStats.stealSeconds()

    let drain = try stage.startDrain()
    // Half way, half of the watchers are stopped as a person's ^Z or a stalled SSH link would.
    while drain.isRunning, (try PaneTitles.truth(store: stage.store).counts[1] ?? 0) < stage.writes / 2 {
      drain.sampleRunDelay()
      try await Task.sleep(for: .milliseconds(100))
    }
    let half = ContinuousClock.now
    let answeredAtStop = try PaneTitles.truth(store: stage.store).counts[1] ?? 0
    for pid in stoppedPids { kill(pid, SIGSTOP) }
    // Polled, not slept through: a drain that ends while they are stopped is timed when it ends.
    let stopEnds = ContinuousClock.now + .seconds(Self.stopSeconds)
    while ContinuousClock.now < stopEnds {
      if drain.isRunning { drain.sampleRunDelay() }
      try await Task.sleep(for: .milliseconds(50))
    }
    let answeredAtContinue = try PaneTitles.truth(store: stage.store).counts[1] ?? 0
    for pid in stoppedPids { kill(pid, SIGCONT) }
    let continued = ContinuousClock.now
    let truth = try stage.finished(drain)
    let end = drain.ended?.at ?? ContinuousClock.now
    let cpu = zip(pids, cpuBefore).map { (ProcStats.cpuSeconds(pid: $0) - $1) / drain.seconds }
    let plainCPU = Stats.median(Array(cpu.prefix(plain.count)))
    let screenCPU = Stats.median(Array(cpu.dropFirst(plain.count)))
    let timeline =
      "the drain's CPU \(Stats.fixed(drain.cpuSeconds, 1)) s, \(Stats.fixed(drain.runDelaySeconds, 1)) s waiting for a CPU; half (\(answeredAtStop)) after \(Stats.fixed(Stats.seconds(half - drain.started), 1)) s; "
      + "\(answeredAtContinue - answeredAtStop) answered in the \(Self.stopSeconds) s stopped; "
      + (end < continued
        ? "the drain ended during the stop; " : "the rest \(Stats.fixed(Stats.seconds(end - continued), 1)) s after; ")
      + "CPU median \(plain.isEmpty ? "-" : percent(plainCPU)) a plain watcher, "
      + "\(screens.isEmpty ? "-" : percent(screenCPU)) a screen; " + Self.benchCPU(since: own) + "; "
      + Self.steal(since: steal)

    var problems: [String] = []
    let answered = try Self.answeredIDs(stage.store)
    for (i, p) in plain.enumerated() {
      let seen = try await Self.answeredLines(p.output, until: answered.count)
      let twice = seen.filter { $0.value > 1 }.count
      let missing = answered.subtracting(seen.keys).count
      let foreign = Set(seen.keys).subtracting(answered).count
      if twice + missing + foreign > 0 {
        problems.append("plain watcher \(i): \(missing) missing, \(twice) twice, \(foreign) not in the store")
      }
    }
    for (i, s) in screens.enumerated() where await s.follower.waitFor(truth, limit: .seconds(30)) == nil {
      s.follower.catchUp()
      problems.append("screen watcher \(i) shows \(s.follower.titles), the store \(truth)")
    }
    var peaks: [Double] = []
    var stoppedPeaks: [Double] = []
    var runningPeaks: [Double] = []
    for pid in pids {
      let mb = Double(SpawnedProcess.highWaterKB("\(pid)") ?? 0) / 1024
      peaks.append(mb)
      if stoppedPids.contains(pid) { stoppedPeaks.append(mb) } else { runningPeaks.append(mb) }
    }
    return WatchedRound(
      seconds: drain.seconds, cpu: cpu, peaks: peaks, stoppedPeaks: stoppedPeaks, runningPeaks: runningPeaks,
      problems: problems, timeline: timeline)
  }

  /// Where the plain watchers' output goes: a folder in /dev/shm (memory) where there is one,
  /// else the stage's folder.
  static func outputFolder(_ stage: DrainStage) -> String {
    let folder = "/dev/shm/verdicts-bench-fifty-\(getpid())"
    guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else {
      return stage.folder
    }
    return folder
  }

  /// Waits until `pid` holds `store` open (a plain watcher from `now` prints nothing until a change).
  static func waitUntilOpen(_ pid: pid_t, _ store: String) async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while ContinuousClock.now < deadline {
      let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
      if fds.contains(where: {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == store
      }) {
        try await Task.sleep(for: .milliseconds(500))
        return
      }
      try await Task.sleep(for: .milliseconds(50))
    }
    throw BenchFailure(message: "watch --plain (pid \(pid)) never opened \(store)")
  }

  /// The ids of the store's answered writes (read-only).
  static func answeredIDs(_ store: String) throws -> Set<String> {
    var db: OpaquePointer?
    _ = BenchSQLite.configured
    guard sqlite3_open_v2(store, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let db else {
      throw BenchFailure(message: "cannot open \(store) to read it")
    }
    defer { sqlite3_close_v2(db) }
    var stmt: OpaquePointer?
    guard sqlite3_prepare_v2(db, "SELECT id FROM queue WHERE pane = 1", -1, &stmt, nil) == SQLITE_OK, let stmt else {
      throw BenchFailure(message: "reading \(store): \(String(cString: sqlite3_errmsg(db)))")
    }
    defer { sqlite3_finalize(stmt) }
    var ids: Set<String> = []
    while sqlite3_step(stmt) == SQLITE_ROW { ids.insert(String(cString: sqlite3_column_text(stmt, 0))) }
    return ids
  }

  /// How many `answered` lines name each id in a plain watcher's output, once it holds `expected`
  /// ids or stops growing for 5 s.
  static func answeredLines(_ path: String, until expected: Int) async throws -> [String: Int] {
    var counts: [String: Int] = [:]
    var size = -1
    var still = ContinuousClock.now
    while true {
      let data = FileManager.default.contents(atPath: path) ?? Data()
      if data.count != size {
        size = data.count
        still = ContinuousClock.now
        counts = [:]
        for line in data.split(separator: UInt8(ascii: "\n")) {
          guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
            object["event"] as? String == "answered", let id = object["id"] as? String
          else { continue }
          counts[id, default: 0] += 1
        }
      }
      if counts.count >= expected || ContinuousClock.now - still > .seconds(5) { return counts }
      try await Task.sleep(for: .milliseconds(200))
    }
  }
}

/// A fraction as a percentage with one decimal (`4.2 %`).
private func percent(_ v: Double) -> String { Stats.fixed(v * 100, 1) + " %" }
/// Milliseconds, whole (`41,200 ms`).
private func milliseconds(_ v: Double) -> String { Stats.whole(v) + " ms" }
/// Megabytes with one decimal (`12.3 MB`).
private func megabytes(_ v: Double) -> String { Stats.fixed(v, 1) + " MB" }
