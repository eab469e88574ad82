/// The queue's rules for the four actions on one write, written once: the engine, the screen,
/// its key hints, the command line and the test fakes all ask ``QueuedWrite/allows(_:)``.
extension QueuedWrite {
  /// Whether `action` may take this write, and, when not, why.
  ///
  /// - `release`: a blocked write (any reason) or a dead one; and a write the drain refused
  ///   unsent (behind a refused or dead write, a delete with no confirmed version, bytes no
  ///   longer held or not the bytes queued), unless what it waited for is gone (``dependencyGone``). Never a write the
  ///   instance itself refused, never an answered or unanswered one.
  /// - `withdraw`: a write blocked for a ``BlockedReason/withdrawable`` reason.
  /// - `discard`: a refused write, the instance's refusal or the drain's.
  /// - `forget` (and `takeAnswered()`): accepted, merged and conflicted writes, and refused
  ///   writes that carried no content, once sent or once what they waited for is gone.
  ///
  /// The write alone cannot know whether a waiting write depends on it, which refuses
  /// `discard` and `forget` too: the store checks that part (``ActionObstacle/waitingDependant``);
  /// ask `Queue.permission(_:for:)` for the whole of it.
  public func allows(_ action: WriteAction) -> ActionPermission {
    let state = stateWords
    switch (action, verdict) {
    case (.release, .blocked?), (.release, .dead?):
      return .allowed
    case (.release, .refused?):
      if sent { return .notAllowed(.refusedByInstance) }
      return dependencyGone ? .notAllowed(.dependencyGone) : .allowed
    case (.release, _):
      return .notAllowed(.notFor(.release, state: state))
    case (.withdraw, .blocked(let reason, _)?) where reason.withdrawable:
      return .allowed
    case (.withdraw, _):
      return .notAllowed(.notFor(.withdraw, state: state))
    case (.discard, .refused?):
      return .allowed
    case (.discard, _):
      return .notAllowed(.notFor(.discard, state: state))
    case (.forget, .accepted?), (.forget, .merged?), (.forget, .conflicted?):
      return .allowed
    case (.forget, .refused?):
      if kind.carriesContent { return .notAllowed(.carriesContent) }
      return sent || dependencyGone ? .allowed : .notAllowed(.refusedUnsent)
    case (.forget, _):
      return .notAllowed(.notFor(.forget, state: state))
    }
  }

  /// The whole answer for a write among `writes` held in memory: its own rule, then, for
  /// discard and forget, whether an outstanding write among them depends on it. The store asks
  /// the same rule of its table (``SQLite/permission(_:for:)``); a fake queue asks this.
  package func allows(_ action: WriteAction, among writes: some Sequence<QueuedWrite>) -> ActionPermission {
    let own = allows(action)
    guard own.isAllowed, action.asksDependants else { return own }
    let dependant = writes.contains { $0.dependsOn.contains(id) && $0.isOutstanding }
    return dependant ? .notAllowed(.waitingDependant) : .allowed
  }

  /// The write's state in a word or two, as the engine's sentences name it: `accepted`,
  /// `refused`, `blocked key_spent`, `dead`, `waiting` (held behind another write), or
  /// `not yet answered`.
  public var stateWords: String {
    switch verdict {
    case nil: return waiting ? "waiting" : "not yet answered"
    case .blocked(let reason, _): return "blocked \(reason.wireName)"
    case let v?: return v.wireName
    }
  }
}
