import Foundation
import MarfaQueue
import MarfaWire
import ScriptedInstance

#if canImport(Glibc)
  import Glibc
#endif

/// A writer process drains (the built `verdicts drain` against the in-process
/// scripted instance) while a `verdicts watch --plain` process follows. For every write, the
/// time from its verdict's commit (its `answered_at`, stamped by the drain just before the
/// commit) to the moment the watch's line naming it arrives on this process's pipe. Target:
/// median ≤ 250 ms; the 95th percentile is printed too.
struct WatchBenchmark: Benchmark {
  let name = "watch"
  let summary = "`verdicts drain` commits, `verdicts watch --plain` follows: commit → line, median (≤ 250 ms) and p95"
  static let targetMs = 250.0
  static let batch = 25

  func run(_ options: BenchOptions) async throws -> BenchOutcome {
    var lines: [String] = []
    var met = true
    // A store of only the drained writes, then the same beside 100,000 answered, blocked and
    // dead writes (`watch --plain` compares every write of the queue on each change).
    for (background, rounds) in [(0, options.updates), (options.small, max(5, options.updates / 2))] {
      let outcome = try await measure(options, background: background, rounds: rounds)
      lines += outcome.lines
      met = met && outcome.metTargets
    }
    return BenchOutcome(lines: lines, metTargets: met)
  }

  func measure(_ options: BenchOptions, background: Int, rounds: Int) async throws -> BenchOutcome {
    let verdicts = try Binaries.verdicts()
    let stage = try await FilledStore.make(options, label: "watch")
    defer { stage.tearDown() }
    let (folder, store, instance, server) = (stage.folder, stage.store, stage.instance, stage.server)
    if background > 0 {
      var generator = StoreGenerator(writes: background, mix: .init(waiting: false, credentialRefused: false))
      generator.instanceId = instance.instanceId
      generator.writeMeta = false
      _ = try await generator.generate(at: store)
    }

    var env = ProcessInfo.processInfo.environment
    env["HOME"] = folder
    env["MARFA_DB"] = store
    env.removeValue(forKey: "MARFA_API_URL")
    env.removeValue(forKey: "MARFA_API_KEY")
    let watch = LineReader()
    try watch.start(verdicts, ["watch", "--plain"], environment: env)
    defer { watch.stop() }
    try await Task.sleep(for: .milliseconds(500))

    // The watch first prints every write of the store: wait for it.
    let deadline = Date().addingTimeInterval(60)
    while watch.lines.count < background && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
    try await Task.sleep(for: .milliseconds(300))
    var rng = SplitMix(seed: 7)
    let startedAt = StoreGenerator.timestamp(Date().timeIntervalSince1970)
    for r in 0..<rounds {
      // Queue a batch (this process is the writer for a moment), then a drain process sends it.
      do {
        let copy = try await WorkingCopy.open(store: URL(fileURLWithPath: store), server: server)
        for i in 0..<Self.batch {
          _ = try await copy.createItem(
            type: "note", properties: .object([("title", .string("round \(r) write \(i)")), ("n", .int(i))]))
        }
        copy.close()
      }
      // A random gap, so drains start at every phase of the watcher's polling.
      try await Task.sleep(nanoseconds: 200_000_000 + rng.next() % 600_000_000)
      let drain = Process()
      drain.executableURL = URL(fileURLWithPath: verdicts)
      drain.arguments = ["drain", "--url", server.url, "--key", DrainBenchmark.key]
      drain.environment = env
      drain.standardOutput = FileHandle.nullDevice
      drain.standardError = FileHandle.nullDevice
      try drain.run()
      drain.waitUntilExit()
      guard drain.terminationStatus == 0 else {
        throw BenchFailure(message: "verdicts drain exited \(drain.terminationStatus)")
      }
    }
    try await Task.sleep(for: .seconds(1))
    watch.stop()

    // Each write's commit time from the store; its arrival from the watch's first line saying accepted.
    let reader = try await WorkingCopy.openReader(store: URL(fileURLWithPath: store))
    let writes = try await reader.queue.all().filter { $0.verdict == .accepted && $0.answeredAt != nil }
    reader.close()
    var arrivals: [String: Double] = [:]
    for (time, line) in watch.lines {
      let f = line.split(separator: " ")
      guard f.count >= 5, f[4] == "accepted" else { continue }
      let id = String(f[1])
      if arrivals[id] == nil { arrivals[id] = time }
    }
    var latencies: [Double] = []
    for w in writes where w.queuedAt >= startedAt {
      guard let at = w.answeredAt.flatMap(Self.epoch), let seen = arrivals[w.id] else {
        throw BenchFailure(
          message: "the watch never showed \(w.id) accepted (\(w.verdict.map { "\($0)" } ?? "no verdict"))")
      }
      latencies.append((seen - at) * 1000)
    }
    let median = Stats.median(latencies)
    let p95 = Stats.percentile(latencies, 95)
    let met = median <= Self.targetMs
    return BenchOutcome(
      lines: [
        "store of \(background == 0 ? "the drained writes only" : "\(Stats.whole(Double(background))) generated writes + the drained ones"):"
          + " \(rounds) drains of \(Self.batch) creates, each a `verdicts drain` process, gaps 0.2–0.8 s; `verdicts watch --plain` follows",
        "commit → line: median \(Stats.fixed(median, 1)) ms, p95 \(Stats.fixed(p95, 1)) ms, min \(Stats.fixed(latencies.min() ?? 0, 1)) ms,"
          + " max \(Stats.fixed(latencies.max() ?? 0, 1)) ms over \(latencies.count) writes; target median ≤ \(Stats.fixed(Self.targetMs, 0)) ms:"
          + " \(met ? "met" : "MISSED")",
      ], metTargets: met)
  }

  /// `2026-11-29T10:00:05.250Z` as seconds since 1970.
  static func epoch(_ s: String) -> Double? {
    let p = s.split(whereSeparator: { "-T:.Z".contains($0) }).compactMap { Int($0) }
    guard p.count == 7 else { return nil }
    var t = tm()
    t.tm_year = Int32(p[0] - 1900)
    t.tm_mon = Int32(p[1] - 1)
    t.tm_mday = Int32(p[2])
    t.tm_hour = Int32(p[3])
    t.tm_min = Int32(p[4])
    t.tm_sec = Int32(p[5])
    return Double(timegm(&t)) + Double(p[6]) / 1000
  }
}

/// A child process whose stdout lines are kept with the wall-clock time each arrived.
final class LineReader: Sendable {
  private let process = Process()
  /// The lines so far (each with its arrival time) and the line being read.
  private let text = Mutex((received: [(Double, String)](), partial: [UInt8]()))

  var lines: [(Double, String)] { text.withLock { $0.received } }

  func start(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    let fd = pipe.fileHandleForReading.fileDescriptor
    let thread = Thread { [self] in
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n <= 0 {
          if n < 0 && errno == EINTR { continue }
          return
        }
        let now = Date().timeIntervalSince1970
        text.withLock { t in
          for b in buffer[0..<n] {
            if b == UInt8(ascii: "\n") {
              t.received.append((now, String(decoding: t.partial, as: UTF8.self)))
              t.partial.removeAll(keepingCapacity: true)
            } else {
              t.partial.append(b)
            }
          }
        }
      }
    }
    thread.start()
    try process.run()
  }

  func stop() {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGINT)
    let deadline = Date().addingTimeInterval(5)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
  }
}
