import FoundationEssentials
import MarfaQueue

/// The message line's rules: a drain's report after the action that woke it, and the messages
/// that fade.
extension UIState {
  /// A drain's own report (`auto-drain: …`, `drain stopped: …`) often arrives in the same frame
  /// as the outcome of the action that woke it (a release, a new key); it is put after that
  /// outcome rather than over it, so the action still says what it did (docs/tui.md). Progress
  /// messages (`releasing 1…`) and earlier drain reports are replaced.
  static func outcome(_ new: StatusMessage, after old: StatusMessage?) -> StatusMessage {
    guard isDrainReport(new.text), let old, !old.text.hasSuffix("…") else { return new }
    var action = old.text
    for p in drainPrefixes {
      if let r = action.firstRange(of: " · " + p) { action = String(action[..<r.lowerBound]) }
    }
    if action.isEmpty || action.hasPrefix("auto-drain") || drainPrefixes.contains(where: action.hasPrefix) {
      return new
    }
    return StatusMessage(action + " · " + new.text, isError: new.isError || old.isError)
  }

  /// The prefixes of a drain's own report, told apart from an action's outcome.
  static let drainPrefixes = ["auto-drain: ", "drain stopped: "]

  /// Whether an outcome is a drain's own report rather than an action's.
  static func isDrainReport(_ text: String) -> Bool { drainPrefixes.contains(where: text.hasPrefix) }

  /// Keeps the writer's record and when it was last seen live.
  /// How auto-drain's wait for its next try begins (AppCore's words): said until a drain runs.
  static let nextTryWords = "auto-drain: next try"

  /// How long a fading message stays once a clock saw it.
  static let fadeSeconds: Double = 5

  /// Lets a fading message go once ``fadeSeconds`` have passed since a clock first saw it.
  mutating func fadeMessage(at: Date) {
    guard let clock = fadeClock, let m = message, clock.message == m else {
      fadeClock = nil
      return
    }
    guard let since = clock.since else {
      fadeClock?.since = at
      return
    }
    if at.timeIntervalSince(since) >= Self.fadeSeconds {
      message = nil
      fadeClock = nil
    }
  }
}
