/// "Did you mean" for a mistyped command or option.
enum Suggestion {
  /// The candidate closest to `word` by edit distance, if it is close enough to be a typo.
  static func closest(to word: String, among candidates: [String], limit most: Int = 2) -> String? {
    let limit = min(most, word.count <= 3 ? 1 : 2)
    var best: (String, Int)?
    for c in candidates {
      let d = distance(Array(word), Array(c))
      if d <= limit, d < (best?.1 ?? Int.max) { best = (c, d) }
    }
    return best?.0
  }

  /// `; did you mean X?` or nothing.
  static func hint(for word: String, among candidates: [String], limit: Int = 2) -> String {
    closest(to: word, among: candidates, limit: limit).map { "; did you mean \($0)?" } ?? ""
  }

  static func distance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
