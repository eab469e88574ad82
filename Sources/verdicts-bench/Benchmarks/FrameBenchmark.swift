import Foundation

/// The built `verdicts watch` on a 120×40 pty, from `exec` to the last byte of
/// the first complete frame (the pane titles show the store's true counts), on generated and
/// drained stores at every size; warm (the store's pages cached) and cold (evicted with
/// `posix_fadvise` DONTNEED first). Peak RSS is the process's `ru_maxrss` from `wait4`.
struct FrameBenchmark: Benchmark {
  let name = "frame"
  let summary =
    "first complete frame on a 120×40 pty, exec → last byte, warm (≤ 30 ms at 1M with the device binary, once"
    + " ≤ 100 ms) and cold (≤ 300 ms at 5M); peak RSS (≤ 50 MB)"
  static let warmTargetMs = 100.0
  /// The target for the same frame with the device binary's faster start (docs/performance.md,
  /// "The device binary").
  static let fastStartTargetMs = 30.0
  static let coldTargetMs = 300.0
  static let rssTargetMB = 50.0
  /// A frame that never comes counts as this long.
  static let limit = Duration.seconds(30)

  struct Run {
    var ms: Double
    var peakMB: Double
    var wrongFrames: Int
  }

  func run(_ options: BenchOptions) async throws -> BenchOutcome {
    let cache = try StoreCache(options)
    var notes: [String] = []
    var rows: [Row] = []
    let home = cache.folder + "/home-frame"
    for writes in options.sizes {
      for shape in options.shapes {
        let store = try await cache.store(shape, writes) { notes.append($0) }
        let truth = try PaneTitles.truth(store: store)
        let label = "\(shape.rawValue) \(Stats.whole(Double(writes)))"
        // One run to warm the page cache, not counted.
        _ = try await measure(store, truth, home: home)
        var warm: [Run] = []
        var cold: [Run] = []
        for _ in 0..<options.rounds { warm.append(try await measure(store, truth, home: home)) }
        for _ in 0..<options.rounds {
          StoreCache.evict(store)
          cold.append(try await measure(store, truth, home: home))
        }
        for (kind, runs) in [("warm", warm), ("cold", cold)] {
          let ms = runs.map(\.ms)
          let median = Stats.median(ms)
          var target: (String, Bool)?
          if kind == "warm" && writes == options.middle {
            target = ("≤ 30 ms (the device binary; once ≤ 100 ms)", median <= Self.fastStartTargetMs)
          }
          if kind == "cold" && writes == options.large { target = ("≤ 300 ms", median <= Self.coldTargetMs) }
          let wrong = runs.map(\.wrongFrames).max() ?? 0
          rows.append(
            Row(
              name: "first frame, \(label), \(kind)",
              figure:
                "median \(Self.ms(median)), p95 \(Self.ms(Stats.percentile(ms, 95))) over \(runs.count) (\(ms.map(Self.ms).joined(separator: ", ")))"
                + (wrong > 0 ? "; up to \(wrong) frame(s) before it showed a count that was not the store's" : ""),
              target: target?.0, met: target?.1))
        }
        let peak = (warm + cold).map(\.peakMB).max() ?? 0
        rows.append(
          Row(
            name: "peak RSS, \(label)",
            figure: "\(Stats.fixed(peak, 1)) MB (the largest of \(warm.count + cold.count) runs)",
            target: "≤ 50 MB", met: peak <= Self.rssTargetMB))
      }
    }
    notes.append(
      "`verdicts watch --store S` on a 120×40 pty; true counts: `GROUP BY pane`; \(options.rounds) rounds each")
    return Row.outcome(rows, notes: notes)
  }

  /// One exec of `verdicts watch` to its first complete frame, then `q`.
  func measure(_ store: String, _ truth: PaneTitles, home: String) async throws -> Run {
    let session = try TUISession(store: store, home: home)
    let first = await session.firstFrame(truth, limit: Self.limit)
    try? await Task.sleep(for: .milliseconds(200))
    session.pty.finish()
    return Run(
      ms: first?.ms ?? .infinity, peakMB: session.pty.child.peakMB, wrongFrames: first?.wrongFrames ?? 0)
  }

  static func ms(_ v: Double) -> String { v.isFinite ? "\(Stats.fixed(v, 1)) ms" : "none in 30 s" }
}
