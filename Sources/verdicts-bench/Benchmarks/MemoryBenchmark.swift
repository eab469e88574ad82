import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Peak RSS (`wait4` `ru_maxrss`) of `verdicts watch --plain` on the
/// generated "1M" store (after its first listing; then with `--from now`, when the binary has
/// it), and of `verdicts drain` at the "100k" and "1M" drained stores (measured when the store was
/// drained; a reused store says when and with which build).
struct MemoryBenchmark: Benchmark {
  let name = "memory"
  let summary =
    "peak RSS: `watch --plain` on 1M (≤ 50 MB), with `--from now` (≤ 50 MB); `verdicts drain` at 100k and 1M (≤ 100 MB)"
  static let plainTarget = 50.0
  static let drainTarget = 100.0

  func run(_ options: BenchOptions) async throws -> BenchOutcome {
    let cache = try StoreCache(options)
    var notes: [String] = []
    var rows: [Row] = []
    let store = try await cache.store(.generated, options.middle) { notes.append($0) }
    let home = cache.folder + "/home-memory"
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    let size = Stats.whole(Double(options.middle))
    let total = try PaneTitles.truth(store: store).counts.reduce(0) { $0 + ($1 ?? 0) }
    for extra in [[], ["--from", "now"]] {
      let plain = try PipeReader(
        try Binaries.verdicts(), ["watch", "--plain", "--store", store] + extra,
        environment: Binaries.environment(home: home), errorFile: home + "/plain.stderr")
      let started = plain.child.started
      // The first listing: a line per write (with --from now none), then 2 s without a line.
      await plain.settle(lines: extra.isEmpty ? total : 0, quiet: .seconds(2), limit: .seconds(600))
      let listed = plain.lastArrival.map { Stats.seconds($0 - started) } ?? 0
      let name =
        "`watch --plain\(extra.isEmpty ? "" : " " + extra.joined(separator: " "))` on generated \(size), peak RSS"
      if !plain.child.isRunning {
        let code = plain.child.wait()
        rows.append(
          Row(
            name: name,
            figure: "not available: the binary exited \(code) (\(plain.firstErrorLine.prefix(120)))",
            target: nil, met: nil))
        continue
      }
      let code = plain.child.stop(SIGINT)
      rows.append(
        Row(
          name: name,
          figure: "\(Stats.fixed(plain.child.peakMB, 1)) MB (printed \(Stats.whole(Double(plain.lines))) lines,"
            + " \(Stats.whole(Double(plain.bytes))) B, the last at"
            + " \(Stats.fixed(listed, 1)) s; exit \(code) on SIGINT)",
          target: "≤ 50 MB", met: plain.child.peakMB <= Self.plainTarget))
    }
    for writes in Array(Set([options.small, options.middle])).sorted() {
      _ = try await cache.store(.drained, writes) { notes.append($0) }
      guard let record = cache.record(writes) else {
        rows.append(
          Row(
            name: "`verdicts drain` peak RSS at \(Stats.whole(Double(writes)))", figure: "no record", target: nil,
            met: nil))
        continue
      }
      let stale = record.binary != Binaries.stamp()
      rows.append(
        Row(
          name: "`verdicts drain` peak RSS, \(Stats.whole(Double(record.drained))) writes drained"
            + (record.generated > 0 ? " on \(Stats.whole(Double(record.generated))) generated" : ""),
          figure:
            "\(Stats.fixed(record.drainPeakMB, 1)) MB (\(Stats.fixed(record.drainSeconds, 1)) s, measured \(record.date)"
            + (stale ? "; an earlier build of verdicts: --rebuild measures this one" : "") + ")",
          target: "≤ 100 MB", met: record.drainPeakMB <= Self.drainTarget))
    }
    return Row.outcome(rows, notes: notes)
  }
}
