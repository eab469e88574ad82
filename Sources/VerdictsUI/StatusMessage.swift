import FoundationEssentials

/// The outcome of the last action, shown on the status line until the next one.
public struct StatusMessage: Sendable, Hashable {
  /// The sentence.
  public var text: String
  /// Whether it reports a failure or a refusal.
  public var isError: Bool
  /// Whether it goes by itself a few seconds after it was said (``UIState/fadeSeconds``): a
  /// watcher's refusal, which no later action of its own replaces.
  public var fades: Bool
  /// When a fading message was first seen on a clock (nil: not yet).
  public var seenAt: Date?

  /// Creates a message.
  public init(_ text: String, isError: Bool = false, fades: Bool = false) {
    self.text = text
    self.isError = isError
    self.fades = fades
  }
}
