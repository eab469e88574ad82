extension DrainReport {
  /// Lists a verdict entry and counts its verdict; with `keeping`, only the last `keeping`
  /// entries stay listed (the earlier ones are counted in ``verdictsOmitted``).
  ///
  /// The list is trimmed when it reaches twice the bound, so an entry costs O(1) on average.
  mutating func list(_ verdict: DrainVerdict, keeping limit: Int?) {
    verdicts.append(verdict)
    if let name = verdict.verdict?.wireName { verdictCounts[name, default: 0] += 1 }
    if let limit, verdicts.count >= 2 * max(limit, 1) { trim(to: limit) }
  }

  /// Leaves only the last `limit` verdict entries listed.
  mutating func trim(to limit: Int) {
    let extra = verdicts.count - max(limit, 0)
    guard extra > 0 else { return }
    verdicts.removeFirst(extra)
    verdictsOmitted += extra
  }

  /// The report with only its last `limit` verdict entries listed.
  public func bounded(to limit: Int = DrainReport.keptVerdicts) -> DrainReport {
    var copy = self
    copy.trim(to: limit)
    return copy
  }
}
