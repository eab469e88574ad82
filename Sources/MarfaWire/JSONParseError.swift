/// Why a text could not be read as JSON.
public struct JSONParseError: Error, Sendable, CustomStringConvertible {
  /// The byte offset where reading stopped.
  public let offset: Int
  /// What was wrong there.
  public let reason: String

  /// Says where reading stopped and why.
  public init(offset: Int, reason: String) {
    self.offset = offset
    self.reason = reason
  }

  public var description: String { "not valid JSON at byte \(offset): \(reason)" }
}
