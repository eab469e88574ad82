import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The drain's CPU row, counted in instructions (docs/performance.md, "The CPU row, counted"):
/// this bench's `profile-run` under callgrind, the drain, the bare client and queueing alone, each
/// at two sizes; the difference over the difference in writes is one write's instructions, start-up
/// taken out; queueing is taken out of both sides. The same row as the in-process CPU ratio (the
/// in-process instance counted on both sides), repeatable to a few thousandths where the timed one
/// moves by a tenth between runs.
///
/// Under valgrind a write takes ~30 times as long: the profile stretches the drain's time-driven
/// intervals (a group's commit every 50 ms, the progress record every 250 ms) by as much
/// (``timeScale``), so they fall on as many writes as at full speed.
struct DrainInstructions {
  /// The target, drain/bare client. The statements the store's features need and reading the
  /// answer put the floor at ~1.35 (docs/performance.md): the target leaves the rest of the
  /// queue's own code up to 0.15 of the bare client (~0.08 when it was set).
  static let target = 1.5
  /// How much slower a drain runs under callgrind than at full speed here (~33 times: 500 writes
  /// drained in 0.17 s, 5.7 s under callgrind), by which the profile stretches the queue's
  /// time-driven intervals (`TimeScale`): its groups then commit ~150 writes as at full speed,
  /// where at the intervals as they are they committed two or three and the commits were a tenth
  /// of the count, moving with the machine's load (1,432k–1,446k instructions a write, 1 %).
  static let timeScale = 30
  /// The two sizes: each run's instructions less the smaller's, over the 400 writes between.
  static let sizes = (small: 100, large: 500)

  /// The row and its detail, one a line.
  let rows: [String]
  /// Whether the row met its target (false when valgrind could not run).
  let met: Bool

  /// Runs the six profiles of `bench` (this binary) under callgrind, two at a time, output files in `folder`.
  static func measure(bench: String, folder: String) throws -> DrainInstructions {
    guard
      let valgrind = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first(where: FileManager.default.isExecutableFile)
    else {
      return DrainInstructions(
        rows: [
          "CPU per drained write, counted: no valgrind here (`make bench` installs it); target ≤ \(Stats.fixed(target)): MISSED"
        ],
        met: false)
    }
    let runs = ["drain", "baseline", "queue"].flatMap { mode in [sizes.small, sizes.large].map { (mode, $0) } }
    var counts: [String: Int] = [:]
    for pair in stride(from: 0, to: runs.count, by: 2) {
      var started: [(key: String, out: String, process: SpawnedProcess)] = []
      // A run that cannot start stops the one started beside it.
      defer { for s in started where s.process.isRunning { s.process.stop(SIGKILL, grace: .zero) } }
      for (mode, n) in runs[pair..<min(pair + 2, runs.count)] {
        let out = folder + "/callgrind-\(mode)-\(n).out"
        let log = open(folder + "/callgrind-\(mode)-\(n).log", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let null = open("/dev/null", O_RDONLY)
        defer {
          close(log)
          close(null)
        }
        let p = try SpawnedProcess(
          valgrind,
          ["--tool=callgrind", "--callgrind-out-file=\(out)", bench, "profile-run", "\(n)", mode, "\(timeScale)"],
          environment: ProcessInfo.processInfo.environment, stdin: null, stdout: log, stderr: log)
        started.append((key: "\(mode)-\(n)", out: out, process: p))
      }
      for s in started {
        let code = s.process.wait(limit: .seconds(1800))
        guard code == 0 else {
          throw BenchFailure(
            message: "callgrind of profile-run \(s.key) exited \(code) (\(folder)/callgrind-\(s.key).log)")
        }
        let text = try String(contentsOfFile: s.out, encoding: .utf8)
        guard let total = Self.total(callgrindOutput: text) else {
          throw BenchFailure(message: "no instruction total in \(s.out)")
        }
        counts[s.key] = total
      }
    }
    func perWrite(_ mode: String) -> Double {
      Double(counts["\(mode)-\(sizes.large)"]! - counts["\(mode)-\(sizes.small)"]!) / Double(sizes.large - sizes.small)
    }
    let queueing = perWrite("queue")
    let drain = perWrite("drain") - queueing
    let bare = perWrite("baseline") - queueing
    let ratio = drain / bare
    let met = ratio <= target
    func k(_ v: Double) -> String { Stats.whole(v / 1000) + "k" }
    return DrainInstructions(
      rows: [
        "CPU per drained write, counted in-process (callgrind of profile-run, the instance in it on both sides; queueing taken out of both):"
          + " drain \(k(drain)) instructions, bare client \(k(bare)); ratio \(Stats.fixed(ratio, 3));"
          + " target ≤ \(Stats.fixed(target)): \(met ? "met" : "MISSED")",
        "  the queue's own \(k(drain - bare)) a write; queueing \(k(queueing)) a write (profile-run at \(sizes.small) and \(sizes.large))",
      ], met: met)
  }

  /// The `totals:` (or `summary:`) line of a callgrind output file: its instruction count.
  static func total(callgrindOutput text: String) -> Int? {
    var summary: Int?
    for line in text.split(separator: "\n", omittingEmptySubsequences: true).reversed() {
      if line.hasPrefix("totals:") { return Int(line.dropFirst(7).trimmingCharacters(in: .whitespaces)) }
      if summary == nil, line.hasPrefix("summary:") {
        summary = Int(line.dropFirst(8).trimmingCharacters(in: .whitespaces))
      }
    }
    return summary
  }
}
