import FoundationEssentials

/// A fading message and when a clock first saw it: the message goes ``UIState/fadeSeconds``
/// after that (another message starts the clock again).
struct FadeClock: Sendable, Hashable {
  /// The message the clock runs for.
  var message: StatusMessage
  /// When a clock first saw it (nil: none has yet).
  var since: Date?
}
