/// The answer kept for one `Idempotency-Key`: a repeat of the same request is answered from it.
public struct IdempotencyRecord: Sendable {
  /// The key.
  public let key: String
  /// The method of the first request.
  package let method: String
  /// The path of the first request.
  public let path: String
  /// The body of the first request.
  package let requestBody: [UInt8]
  /// The status answered.
  public let status: Int
  /// The body answered, as JSON text.
  public let answer: String
  /// How many repeats were answered from this record.
  public internal(set) var replays = 0
}
