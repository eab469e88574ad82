import FoundationEssentials
import MarfaQueue

/// `metrics [--textfile DIR]`: the store in the Prometheus text exposition (docs/monitoring.md).
extension CommandRunner {
  /// Prints the exposition, or replaces `DIR/verdicts.prom` with it (printing nothing). Reads the
  /// store as `status` does, never taking the writer role: a drain is never kept waiting.
  func metrics() async throws -> ExitCode {
    // The folder is checked before the store is opened: a bad one changes nothing.
    let textfile = try args.string("--textfile").map {
      try MetricsTextfile(folder: GlobalOptions.expand($0, context.environment))
    }
    let figures = try await withReader { try await Self.gatherMetrics($0) }
    let text = MetricsText.exposition(figures)
    if let textfile {
      try textfile.write(text)
    } else {
      context.output.out(text)
    }
    return .done
  }

  /// What the exposition says of the store, each figure counted in SQL or read from one row:
  /// the kept pane counts, the blocked reasons along their index, one step down an index for
  /// each pane's oldest write and the largest streak, the kept drains (at most
  /// ``DrainRecord/kept``), the writer's record.
  static func gatherMetrics(_ copy: WorkingCopy) async throws -> MetricsFigures {
    var f = MetricsFigures()
    let status = try await copy.status()
    f.counts = status.counts
    f.fill = status.fill
    f.refused = status.refused ?? 0
    f.blocked = try await copy.queue.blockedCounts()
    for pane in QueuePane.allCases where f.counts[pane] > 0 {
      let extremes = try await copy.queue.extremes(of: pane)
      f.oldest[pane] = extremes.oldest
      if pane == .waiting { f.largestStreak = extremes.largestStreak }
    }
    let drains = try await copy.history()
    f.drainsBegun = drains.first?.number ?? 0
    for d in drains { f.keptDrains[d.ending, default: 0] += 1 }
    f.lastEnding = drains.first?.ending
    f.lastDrainEnd =
      drains.first(where: { $0.endedAt != nil })?.endedAt ?? status.lastDrainAt.flatMap(Timestamp.date)
    let writer = try await copy.writer()
    f.writerUp = writer?.state == .live
    if let writer, !writer.unpublished {
      f.writerUpdated = writer.updatedAt
      f.instance = writer.instance
    }
    f.generated = Date()
    return f
  }
}
