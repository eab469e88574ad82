import MarfaQueue

/// The candidates for a request, the store's ids read when the word is one.
extension CompletionRequest {
  /// The candidates that fit the word typed so far, each with ``prefix`` before it.
  ///
  /// The store is the one the line names (`--store`), else `MARFA_DB`, else the default; it is
  /// only read, and one that is missing or cannot be read gives no ids and no error.
  func answer(environment: [String: String]) async -> CompletionAnswer {
    switch target {
    case .nothing:
      return CompletionAnswer()
    case .files:
      return CompletionAnswer(files: true)
    case .words(let words):
      return CompletionAnswer(candidates: fitting(words))
    case .namesOrFiles(let names):
      let fit = fitting(names)
      let pathLike = word.contains("/") || word.hasPrefix(".") || word.hasPrefix("~")
      return CompletionAnswer(candidates: fit, files: pathLike || fit.isEmpty)
    case .writeIDs(let action, let also):
      var parsed = ParsedArguments()
      if let store { parsed.globals["--store"] = store }
      let path = GlobalOptions(parsed, environment: environment).storePath
      let ids = await WriteIDCandidates.ids(store: path, action: action)
      return CompletionAnswer(candidates: fitting(also) + WriteIDCandidates.fitting(ids, word).map { prefix + $0 })
    case .departedIDs:
      var parsed = ParsedArguments()
      if let store { parsed.globals["--store"] = store }
      let path = GlobalOptions(parsed, environment: environment).storePath
      let ids = await WriteIDCandidates.departedIDs(store: path)
      return CompletionAnswer(candidates: WriteIDCandidates.fitting(ids, word).map { prefix + $0 })
    }
  }

  /// The words that start with the word typed, with the prefix put back.
  func fitting(_ words: [String]) -> [String] {
    words.filter { $0.hasPrefix(word) }.map { prefix + $0 }
  }
}
