/// What recording each write's attempts and each drain's history row costs the drain, judged on
/// whole drains: the same writes drained with recording on and off in each round, the two
/// alternating which goes first (docs/performance.md, "Keeping each write's attempts and the
/// drains' history").
struct RecordingCost {
  /// The most the recording may add to the drain's time.
  static let target = 0.03

  /// Each round's cost, the drain with recording over the drain without, less one.
  let differences: [Double]
  /// The median of ``differences``.
  let median: Double
  /// Half the spread of ``differences``: how far apart whole drains of one machine fall.
  let noise: Double
  /// The share of the drain's time measured in-process around each recording write.
  let inProcess: Double
  /// The median seconds with recording on and off.
  let recorded: Double
  let unrecorded: Double

  /// The cost of `rounds` (each the drain's seconds with recording on, then off).
  init(_ rounds: [(recorded: Double, unrecorded: Double)], inProcess: Double) {
    differences = rounds.map { $0.recorded / $0.unrecorded - 1 }
    median = Stats.median(differences)
    noise = ((differences.max() ?? 0) - (differences.min() ?? 0)) / 2
    self.inProcess = inProcess
    recorded = Stats.median(rounds.map(\.recorded))
    unrecorded = Stats.median(rounds.map(\.unrecorded))
  }

  /// Met: the median cost is within the target.
  var met: Bool { median <= Self.target }
  /// Not resolved by whole drains: over the target by less than their noise, while the time
  /// measured around the recording is within it.
  var withinNoise: Bool { !met && median - Self.target <= noise && inProcess <= Self.target }
  /// Whether the run passes: met, or not resolved by whole drains as said.
  var acceptable: Bool { met || withinNoise }

  /// The row `make bench` prints.
  var row: String {
    let head =
      "recording attempts and drains: \(Stats.fixed(median * 100, 1)) % of the drain (target ≤ "
      + "\(Stats.fixed(Self.target * 100, 0)) %): "
    if met {
      let noisy =
        noise > abs(median)
        ? "; the rounds differ by more than the cost, the time spent recording, measured in-process, is "
          + "\(Stats.fixed(inProcess * 100, 2)) %"
        : ""
      return head + "met (whole drains, noise ±\(Stats.fixed(noise * 100, 1)) %\(noisy))"
    }
    if withinNoise {
      return head
        + "not resolved by whole drains (their noise is ±\(Stats.fixed(noise * 100, 1)) %); the time spent recording,"
        + " measured in-process, is \(Stats.fixed(inProcess * 100, 2)) %: met"
    }
    return head + "MISSED (noise ±\(Stats.fixed(noise * 100, 1)) %)"
  }

  /// The figures behind the row.
  var detail: String {
    "  median drain \(Stats.fixed(recorded, 3)) s recording, \(Stats.fixed(unrecorded, 3)) s not (the same writes to"
      + " two stores made alike, back to back in each round, alternating which goes first); per round "
      + differences.map { Stats.fixed($0 * 100, 1) + " %" }.joined(separator: ", ")
  }
}
