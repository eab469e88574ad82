/// The attempts a store keeps of one write, newest first, and how many earlier ones it let go.
public struct WriteAttempts: Sendable, Codable, Hashable {
  /// The kept attempts, newest first (at most ``WriteAttempt/kept``).
  public var list: [WriteAttempt]
  /// How many earlier attempts were let go (counted, not kept).
  public var omitted: Int

  /// Creates a list of attempts.
  public init(list: [WriteAttempt] = [], omitted: Int = 0) {
    self.list = list
    self.omitted = omitted
  }

  /// Every attempt made, kept or not.
  public var total: Int { list.count + omitted }
}
