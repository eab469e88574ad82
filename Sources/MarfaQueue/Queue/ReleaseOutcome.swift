/// One write of a batch release and what became of it.
public struct ReleaseOutcome: Sendable, Codable, Hashable {
  /// The write's id, as asked.
  public var id: String
  /// What the release did to it.
  public var result: ReleaseResult

  /// A write's outcome.
  public init(id: String, result: ReleaseResult) {
    self.id = id
    self.result = result
  }
}
