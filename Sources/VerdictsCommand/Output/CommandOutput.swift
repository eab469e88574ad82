/// Where a command's output goes: standard output for results, standard error for the rest.
///
/// The executable writes to the process's streams; tests capture both in memory.
public protocol CommandOutput: Sendable {
  /// Writes `text` as is (the caller adds line ends) to standard output.
  func out(_ text: String)
  /// Writes `text` as is to standard error.
  func err(_ text: String)
  /// The first failure writing standard output, if one came: what was written after it was dropped.
  var outFailure: OutputFailure? { get }
  /// Makes sure everything written to standard output so far is delivered: handed over whole
  /// and, when standard output is a regular file, synced to its disk.
  ///
  /// - Throws: the first ``OutputFailure`` (of a write, or of the sync).
  func deliver() throws
  /// Whether standard output is gone: a write to it failed, or nothing reads it any more (a
  /// pipe whose reader closed it, a terminal that hung up).
  func isGone() -> Bool
}
