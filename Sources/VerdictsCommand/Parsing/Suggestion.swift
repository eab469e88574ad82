import MarfaQueue

/// "Did you mean" for a mistyped command or option.
enum Suggestion {
  /// The candidate closest to `word` by edit distance, if it is close enough to be a typo.
  static func closest(to word: String, among candidates: [String], limit most: Int = 2) -> String? {
    let limit = min(most, word.count <= 3 ? 1 : 2)
    var best: (String, Int)?
    for c in candidates {
      let d = EditDistance.between(Array(word), Array(c))
      if d <= limit, d < (best?.1 ?? Int.max) { best = (c, d) }
    }
    return best?.0
  }

  /// `; did you mean X?` or nothing.
  static func hint(for word: String, among candidates: [String], limit: Int = 2) -> String {
    closest(to: word, among: candidates, limit: limit).map { "; did you mean \($0)?" } ?? ""
  }
}
