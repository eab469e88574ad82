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

  /// Runs the six profiles of `bench` (this binary) under callgrind, two at a time, output files
  /// in `folder`. Never throws: a run that fails is tried once more on its own (two valgrinds at
  /// once need twice the memory and the machine's both CPUs); a run that fails again makes the
  /// row say which and why, from its log, and count as missed.
  static func measure(bench: String, folder: String) -> DrainInstructions {
    guard
      let valgrind = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first(where: FileManager.default.isExecutableFile)
    else {
      return DrainInstructions(
        rows: [
          "CPU per drained write, counted: not measured: no valgrind here (`make bench` installs it); target ≤ \(Stats.fixed(target)): MISSED"
        ],
        met: false)
    }
    let runs = ["drain", "baseline", "queue"].flatMap { mode in [sizes.small, sizes.large].map { (mode, $0) } }
    var counts: [String: Int] = [:]
    var failures: [(key: String, why: String)] = []
    var notes: [String] = []
    for pair in stride(from: 0, to: runs.count, by: 2) {
      let batch = Array(runs[pair..<min(pair + 2, runs.count)])
      for (key, outcome) in profile(batch, valgrind: valgrind, bench: bench, folder: folder) {
        switch outcome {
        case .success(let total): counts[key] = total
        case .failure(let failure): failures.append((key, failure.message))
        }
      }
    }
    // Each failed run once more, alone.
    let failed = failures
    failures = []
    for (key, why) in failed {
      let parts = key.split(separator: "-")
      let run = (String(parts[0]), Int(parts[1]) ?? 0)
      switch profile([run], valgrind: valgrind, bench: bench, folder: folder)[0].1 {
      case .success(let total):
        counts[key] = total
        notes.append("  \(key) failed beside another run (\(why)) and was counted alone")
      case .failure(let failure):
        failures.append((key, failure.message == why ? "\(why), alone too" : "\(why); alone: \(failure.message)"))
      }
    }
    guard failures.isEmpty else {
      // One clause a reason, naming the runs that met it (the same reason six times is one).
      var reasons: [(why: String, keys: [String])] = []
      for f in failures {
        if let i = reasons.firstIndex(where: { $0.why == f.why }) {
          reasons[i].keys.append(f.key)
        } else {
          reasons.append((f.why, [f.key]))
        }
      }
      return DrainInstructions(
        rows: [
          "CPU per drained write, counted: not measured: callgrind of profile-run "
            + reasons.map { "\($0.keys.joined(separator: ", ")): \($0.why)" }.joined(separator: "; ")
            + " (logs: \(folder)/callgrind-*.log); target ≤ \(Stats.fixed(target)): MISSED"
        ] + notes, met: false)
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
      ] + notes, met: met)
  }

  /// Runs `runs` (mode, writes) under callgrind at once and waits for them: each one's count, or why it has none.
  static func profile(_ runs: [(String, Int)], valgrind: String, bench: String, folder: String)
    -> [(String, Result<Int, BenchFailure>)]
  {
    var started: [(key: String, out: String, log: String, process: SpawnedProcess?, failure: String?)] = []
    // A run left going (the bench stopped) is stopped with it.
    defer { for s in started where s.process?.isRunning == true { s.process?.stop(SIGKILL, grace: .zero) } }
    for (mode, n) in runs {
      let key = "\(mode)-\(n)"
      let out = folder + "/callgrind-\(key).out"
      let logPath = folder + "/callgrind-\(key).log"
      try? FileManager.default.removeItem(atPath: out)
      let log = open(logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      let null = open("/dev/null", O_RDONLY)
      defer {
        close(log)
        close(null)
      }
      do {
        let p = try SpawnedProcess(
          valgrind,
          ["--tool=callgrind", "--callgrind-out-file=\(out)", bench, "profile-run", "\(n)", mode, "\(timeScale)"],
          environment: ProcessInfo.processInfo.environment, stdin: null, stdout: log, stderr: log)
        started.append((key, out, logPath, p, nil))
      } catch {
        started.append((key, out, logPath, nil, "\(error)"))
      }
    }
    return started.map { s in
      guard let process = s.process else { return (s.key, .failure(BenchFailure(message: s.failure ?? "not started"))) }
      let code = process.wait(limit: .seconds(1800))
      guard code == 0 else {
        return (s.key, .failure(BenchFailure(message: "exited \(code): \(Self.why(log: s.log))")))
      }
      guard let text = try? String(contentsOfFile: s.out, encoding: .utf8),
        let total = Self.total(callgrindOutput: text)
      else { return (s.key, .failure(BenchFailure(message: "no instruction total in \(s.out)"))) }
      return (s.key, .success(total))
    }
  }

  /// What a failed run's log says of why: valgrind's own words (`the 'impossible' happened`, an
  /// unhandled instruction, a fatal signal) or the profile's, the first such line.
  static func why(log path: String) -> String {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let telling = [
      "impossible", "Killed by fatal signal", "unhandled instruction", "Process terminating", "profile-run:",
      "valgrind:",
      "Fatal error", "signal",
    ]
    for word in telling {
      if let i = lines.firstIndex(where: { $0.contains(word) }) {
        // The line after "the 'impossible' happened:" says what.
        let next = i + 1 < lines.count && word == "impossible" ? " " + lines[i + 1] : ""
        return String((lines[i] + next).prefix(200))
      }
    }
    return lines.last.map { String($0.prefix(200)) } ?? "no log"
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
