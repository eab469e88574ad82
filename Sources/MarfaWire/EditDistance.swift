/// The edit distance (Levenshtein) between two sequences: the one copy, for "did you mean" on
/// the command line and for the IDs closest to a mistyped one.
public enum EditDistance {
  /// The fewest single-element insertions, deletions and substitutions from `a` to `b`.
  public static func between<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
