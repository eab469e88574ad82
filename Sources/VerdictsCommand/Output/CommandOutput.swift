/// Where a command's output goes: standard output for results, standard error for the rest.
///
/// The executable writes to the process's streams; tests capture both in memory.
public protocol CommandOutput: Sendable {
  /// Writes `text` as is (the caller adds line ends) to standard output.
  func out(_ text: String)
  /// Writes `text` as is to standard error.
  func err(_ text: String)
}
