/// Whether a write may go now (contract 5 `readiness`, with docs/rules.md's set-aside and
/// failing-alone holds): decided from what the writes it follows and depends on stand at, with
/// no I/O; the drain reads those from the store (``SQLite/gate(_:)``).
enum Readiness: Sendable, Equatable {
  /// Nothing holds it: it goes.
  case free
  /// Held behind another write (`waiting`): it goes once that one is answered.
  case held
  /// Refused unsent by the drain, for this reason: what it depends on was refused or is dead.
  case refusedWith(String)

  /// What readiness reads of another write: its verdict, blocked reason and kind.
  struct Gate: Sendable, Equatable {
    var verdict: VerdictName?
    var blockedReason: BlockedReason?
    var kind: WriteKind
    /// What the store holds as the kind when this build does not know it (``kind`` is then a placeholder).
    var unknownKind: String? = nil

    /// The kind's name for a reason: the wire name, or `unreadable:<stored>`.
    var kindName: String { unknownKind.map(QueuedWrite.unreadableName) ?? kind.wireName }
  }

  /// The readiness of a write that follows `follows` and depends on `dependsOn`.
  ///
  /// - A write it follows holds it while that one has no verdict, is set aside, or is blocked
  ///   `credential_refused` or `failing_alone`; any other outcome frees it (a refusal ahead does
  ///   not refuse the follower).
  /// - A write it depends on holds it while that one has no verdict, is set aside or is blocked;
  ///   refused or dead, it refuses this one unsent: `the <kind> it waits for was <verdict>`,
  ///   `<kind>` the wire name.
  /// - A write the queue no longer holds holds nothing.
  static func of(
    follows: String?, dependsOn: [String], setAside: Set<String>, gate: (String) throws -> Gate?
  ) rethrows -> Readiness {
    if let f = follows, let g = try gate(f) {
      if setAside.contains(f) || g.verdict == nil { return .held }
      if g.blockedReason == .credentialRefused || g.blockedReason == .failingAlone { return .held }
    }
    for d in dependsOn {
      guard let g = try gate(d) else { continue }
      if setAside.contains(d) { return .held }
      switch g.verdict {
      case nil, .blocked?:
        return .held
      case .refused?, .dead?:
        return .refusedWith("the \(g.kindName) it waits for was \(g.verdict!.rawValue)")
      case .accepted?, .merged?, .conflicted?:
        continue
      }
    }
    return .free
  }
}
