import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The binary a device gets (docs/performance.md, "The device binary"). Each command is timed from `posix_spawn` (the exec) to its
/// exit, or to its first line for `watch --plain --from now`, `rounds` times (median), with a
/// blocking `wait4` so nothing of the bench's polling is in the figure; peak RSS is the child's
/// `ru_maxrss` as `/usr/bin/time` (a small parent) reads it, since the bench's own high-water mark
/// would hide a child smaller than itself; the size is the file as it would be copied, stripped.
struct StartBenchmark: Benchmark {
  let name = "start"
  let summary =
    "the device binary: --version, status, queue --json (1,000 drained), watch --plain's first line (≤ 8 ms for"
    + " --version), peak RSS (≤ 10 MB), stripped size (≤ 20 MB, one file)"
  static let versionTarget = 8.0
  static let memoryTarget = 10.0
  static let sizeTarget = 20.0
  static let storeWrites = 1_000

  func run(_ options: BenchOptions) async throws -> BenchOutcome {
    let cache = try StoreCache(options)
    var notes: [String] = []
    let store = try await cache.store(.drained, Self.storeWrites) { notes.append($0) }
    let binary = try Binaries.verdicts()
    let home = cache.folder + "/home-start"
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    let environment = Binaries.environment(home: home)
    let rounds = max(options.rounds, 20)
    let writes = Stats.whole(Double(Self.storeWrites))
    let commands: [(label: String, arguments: [String], target: Double?, untilLine: Int?)] = [
      ("`verdicts --version`", ["--version"], Self.versionTarget, nil),
      ("`verdicts status`, \(writes) drained", ["--store", store, "status"], nil, nil),
      ("`verdicts queue --json`, \(writes) drained", ["--store", store, "queue", "--json"], nil, nil),
      (
        "`verdicts watch --plain --from now`, \(writes) drained: its first line after the header",
        ["--store", store, "watch", "--plain", "--from", "now"], nil, 2
      ),
    ]
    var rows: [Row] = []
    for command in commands {
      var times: [Double] = []
      for _ in 0...rounds {  // the first round warms the page cache and is not counted
        times.append(try Self.time(binary, command.arguments, environment: environment, untilLine: command.untilLine))
      }
      times.removeFirst()
      let median = Stats.median(times) * 1000
      let figure =
        "median \(Stats.fixed(median, 1)) ms (min \(Stats.fixed(times.min()! * 1000, 1)), "
        + "p95 \(Stats.fixed(Stats.percentile(times, 95) * 1000, 1)); \(rounds) runs)"
      rows.append(
        Row(
          name: command.label + ", exec → " + (command.untilLine == nil ? "exit" : "the line"), figure: figure,
          target: command.target.map { "≤ \(Stats.fixed($0, 0)) ms" }, met: command.target.map { median <= $0 }))
      let peaks = (0..<5).compactMap { _ in
        Self.peakKB(binary, command.arguments, environment: environment, seconds: command.untilLine == nil ? nil : 1)
      }
      let peak = Stats.median(peaks.map(Double.init)) / 1024
      // The memory target is --version's (≤ 10 MB); the others are printed beside it.
      let bounded = command.target != nil
      rows.append(
        Row(
          name: command.label + ", peak RSS (median of \(peaks.count))", figure: "\(Stats.fixed(peak, 1)) MB",
          target: bounded ? "≤ \(Stats.fixed(Self.memoryTarget, 0)) MB" : nil,
          met: bounded ? peak <= Self.memoryTarget : nil))
    }
    let size = try Self.strippedSize(binary, in: home)
    let libraries = Self.libraries(binary)
    let fromToolchain = libraries.filter { $0.contains("swift") || $0.contains("Foundation") || $0.contains("icu") }
    rows.append(
      Row(
        name: "the binary, stripped (\(binary))",
        figure: "\(Stats.fixed(Double(size) / 1_048_576, 1)) MB; needs \(libraries.count) libraries: "
          + libraries.joined(separator: " "),
        target: "≤ 20 MB, one file (no library of the toolchain)",
        met: Double(size) / 1_048_576 <= Self.sizeTarget && fromToolchain.isEmpty))
    return Row.outcome(rows, notes: notes)
  }

  /// Seconds from `posix_spawn` to the child's exit (`untilLine` nil) or to the end of its
  /// `untilLine`th line on stdout (then the child is ended).
  static func time(_ binary: String, _ arguments: [String], environment: [String: String], untilLine: Int?) throws
    -> Double
  {
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { throw BenchFailure(message: "pipe: \(String(cString: strerror(errno)))") }
    let null = open("/dev/null", O_RDWR)
    defer { close(null) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, null, 0)
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
    posix_spawn_file_actions_adddup2(&actions, null, 2)
    posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
    let argv = ([binary] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var child: pid_t = 0
    let start = ContinuousClock.now
    let rc = posix_spawn(&child, binary, &actions, nil, argv, envp)
    close(pipeEnds[1])
    defer { close(pipeEnds[0]) }
    guard rc == 0 else { throw BenchFailure(message: "cannot start \(binary): \(String(cString: strerror(rc)))") }
    var status: Int32 = 0
    if let untilLine {
      var seen = 0
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while seen < untilLine {
        let n = buffer.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
        if n <= 0 { break }
        seen += buffer[0..<n].filter { $0 == 0x0A }.count
      }
      let elapsed = Stats.seconds(ContinuousClock.now - start)
      kill(child, SIGTERM)
      while waitpid(child, &status, 0) < 0 && errno == EINTR {}
      guard seen >= untilLine else {
        throw BenchFailure(message: "\(arguments.joined(separator: " ")) printed \(seen) line(s), not \(untilLine)")
      }
      return elapsed
    }
    // Drain stdout so a long answer (queue --json) never blocks the child on a full pipe.
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while buffer.withUnsafeMutableBytes({ read(pipeEnds[0], $0.baseAddress, $0.count) }) > 0 {}
    while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    let elapsed = Stats.seconds(ContinuousClock.now - start)
    guard status == 0 else {
      throw BenchFailure(message: "\(arguments.joined(separator: " ")) exited \(SpawnedProcess.code(status))")
    }
    return elapsed
  }

  /// The child's peak RSS in kB as `/usr/bin/time -f %M` reports it (its `ru_maxrss`, read by a
  /// parent smaller than the child); a command that runs on (`seconds`) is ended after that long.
  static func peakKB(_ binary: String, _ arguments: [String], environment: [String: String], seconds: Int?) -> Int? {
    let report = FileManager.default.temporaryDirectory.path + "/verdicts-bench-peak-\(getpid()).txt"
    defer { unlink(report) }
    var command = ["/usr/bin/time", "-f", "%M", "-o", report]
    if let seconds { command = ["/usr/bin/timeout", "-s", "INT", "\(seconds)"] + command }
    guard
      let p = try? SpawnedProcess.run(
        command[0], Array(command.dropFirst()) + [binary] + arguments, environment: environment, limit: .seconds(60))
    else { return nil }
    _ = p
    guard let text = try? String(contentsOfFile: report, encoding: .utf8) else { return nil }
    return text.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.last
  }

  /// The size of the binary as copied to a device: itself when stripped, else a stripped copy.
  static func strippedSize(_ binary: String, in folder: String) throws -> Int {
    let copy = folder + "/verdicts.stripped"
    let p = try SpawnedProcess.run("/usr/bin/strip", ["--strip-all", "-o", copy, binary], environment: [:])
    guard p.wait() == 0 else { throw BenchFailure(message: "strip \(binary) failed") }
    let attributes = try FileManager.default.attributesOfItem(atPath: copy)
    return (attributes[.size] as? Int) ?? 0
  }

  /// The shared libraries the binary needs, by file name (`ldd`).
  static func libraries(_ binary: String) -> [String] {
    let out = FileManager.default.temporaryDirectory.path + "/verdicts-bench-ldd-\(getpid()).txt"
    defer { unlink(out) }
    guard let p = try? SpawnedProcess.run("/usr/bin/ldd", [binary], environment: [:], stdout: out), p.wait() == 0,
      let text = try? String(contentsOfFile: out, encoding: .utf8)
    else { return [] }
    return text.split(separator: "\n").compactMap { line in
      let name = line.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? ""
      return name.isEmpty || name.hasPrefix("linux-vdso") ? nil : (name as NSString).lastPathComponent
    }
  }
}
