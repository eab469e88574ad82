import Foundation

/// An idle `verdicts watch` (120×40 pty) on a small generated store while another file in the
/// store's folder, a busy log, is appended to ~1,500 times a second for `seconds`: the watcher's
/// CPU from /proc/PID/stat over that time. Its wakeups must be its own store's: a neighbour's
/// changes cost it nothing. Bound: < 1 % of a core.
struct NeighbourBenchmark: Benchmark {
  let name = "neighbour"
  let summary = "idle `verdicts watch` while a neighbour file is appended to 1,500 times a second: its CPU (< 1 %)"
  static let cpuTarget = 0.01
  static let appendsPerSecond = 1_500
  static let seconds = 5
  static let writes = 1_000

  func run(_ options: BenchOptions) async throws -> BenchOutcome {
    let cache = try StoreCache(options)
    var notes: [String] = []
    let kept = try await cache.store(.generated, Self.writes) { notes.append($0) }
    let folder = cache.folder + "/neighbour"
    try? FileManager.default.removeItem(atPath: folder)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = folder + "/w.store"
    try FileManager.default.copyItem(atPath: kept, toPath: store)
    let session = try TUISession(store: store, home: cache.folder + "/home-neighbour")
    defer { session.pty.finish() }
    try await session.ready(try PaneTitles.truth(store: store), what: "neighbour")
    try await Task.sleep(for: .seconds(1))
    let pid = session.pty.child.pid
    let (quiet, _) = try await Self.window(pid: pid, log: nil)
    let (busy, appends) = try await Self.window(pid: pid, log: folder + "/neighbour.log")
    return Row.outcome(
      [
        Row(
          name: "idle `verdicts watch`, a neighbour file appended to \(Stats.whole(Double(appends))) times a second",
          figure:
            "\(Stats.fixed(busy * 100, 2)) % of a core over \(Self.seconds) s; \(Stats.fixed(quiet * 100, 2)) % with no neighbour",
          target: "< 1 %", met: busy < Self.cpuTarget)
      ], notes: notes)
  }

  /// The watcher's CPU over ``seconds`` (a fraction of a core), with `log` appended to at
  /// ``appendsPerSecond`` meanwhile (none when nil), and the appends made a second.
  static func window(pid: pid_t, log: String?) async throws -> (cpu: Double, appends: Double) {
    let before = ProcStats.cpuSeconds(pid: pid)
    let from = ContinuousClock.now
    var made = 0
    if let log {
      let fd = open(log, O_WRONLY | O_APPEND | O_CREAT, 0o600)
      guard fd >= 0 else { throw BenchFailure(message: "cannot open \(log): errno \(errno)") }
      defer { close(fd) }
      let line = Array("a line of a busy log beside the store\n".utf8)
      let gap = Duration.seconds(1) / appendsPerSecond
      var next = from
      while ContinuousClock.now - from < .seconds(seconds) {
        _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        made += 1
        next += gap
        let left = next - ContinuousClock.now
        if left > .zero { usleep(UInt32(left / .microseconds(1))) }
      }
    } else {
      try await Task.sleep(for: .seconds(seconds))
    }
    let elapsed = Stats.seconds(ContinuousClock.now - from)
    return ((ProcStats.cpuSeconds(pid: pid) - before) / elapsed, Double(made) / elapsed)
  }
}
