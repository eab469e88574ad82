import MarfaQueue

/// "Did you mean" for a mistyped command or option.
enum Suggestion {
  /// The candidate closest to `word` by edit distance, if it is close enough to be a typo.
  static func closest(to word: String, among candidates: [String], limit most: Int = 2) -> String? {
    let length = word.count
    let limit = min(most, length <= 3 ? 1 : 2)
    let typed = Array(word)
    var best: (String, Int)?
    for c in candidates {
      // The distance is at least the difference in length: a long paste is compared with nothing
      // (its distance to every name took its length times the name's, for each name).
      guard abs(length - c.count) <= limit else { continue }
      let d = EditDistance.between(typed, Array(c))
      if d <= limit, d < (best?.1 ?? Int.max) { best = (c, d) }
    }
    return best?.0
  }

  /// `; did you mean X?` or nothing.
  static func hint(for word: String, among candidates: [String], limit: Int = 2) -> String {
    closest(to: word, among: candidates, limit: limit).map { "; did you mean \($0)?" } ?? ""
  }
}
