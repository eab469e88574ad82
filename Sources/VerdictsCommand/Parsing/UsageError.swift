/// A command line the parser could not accept, with the command it got as far as.
struct UsageError: Error, Sendable, Hashable {
  /// The words of the command reached (`["items", "create"]`), for the hint to its help.
  var path: [String]
  /// One plain sentence.
  var message: String
}
