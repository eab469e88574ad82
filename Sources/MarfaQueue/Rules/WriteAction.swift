/// What a person (or an app) can do to a write the queue holds: the four queue calls that take
/// one write by id (`release(_:)`, `withdraw(_:)`, `discard(_:)`, `forgetAnswered(ids:)`).
///
/// Ask ``QueuedWrite/allows(_:)`` whether an action may take a write; the engine, the screen,
/// the command line and the test fakes all ask it, so the rule lives in one place.
public enum WriteAction: String, Sendable, Codable, Hashable, CaseIterable {
  /// Send a blocked or dead write, or one the drain refused unsent, again under a fresh key.
  case release
  /// Take a write blocked for a reason a person can resolve out of the queue, its row read back.
  case withdraw
  /// Take a refused write, and the content it carried, out of the queue.
  case discard
  /// Clear an answered write (`forgetAnswered(ids:)`; `takeAnswered()` takes the same writes).
  case forget

  /// Whether an outstanding write that depends on the write refuses the action too (what the
  /// write alone cannot know: ``ActionObstacle/waitingDependant``).
  var asksDependants: Bool { self == .discard || self == .forget }
}
