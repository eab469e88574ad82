/// The outcome of the last action, shown on the status line until the next one.
package struct StatusMessage: Sendable, Hashable {
  /// The sentence.
  public var text: String
  /// Whether it reports a failure or a refusal.
  public var isError: Bool

  /// Creates a message.
  public init(_ text: String, isError: Bool = false) {
    self.text = text
    self.isError = isError
  }
}
