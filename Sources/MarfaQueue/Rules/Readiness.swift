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

    /// A refused create's standing with the row its natural key names (``Landing``).
    var landing: Landing? = nil

    /// The kind's name for a reason: the wire name, or `unreadable:<stored>`.
    var kindName: String { unknownKind.map(QueuedWrite.unreadableName) ?? kind.wireName }
  }

  /// A refused create whose natural key names a row the instance holds (another device's).
  enum Landing: Sendable, Equatable {
    /// The read of that row is still owed: what waits on the create waits on the read.
    case owed
    /// The copy moved onto that row: what only adds to it (a tag, an edge) goes there; what would
    /// take from it is refused, as it was made against this device's row.
    case landed
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
  ///
  /// A refused create whose landing is owed holds what depends on it; once landed, it frees a
  /// write that only adds (`adds`) and refuses the rest.
  static func of(
    follows: String?, dependsOn: [String], setAside: Set<String>, adds: Bool = false,
    gate: (String) throws -> Gate?
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
      case .refused? where g.landing == .owed:
        return .held
      case .refused? where g.landing == .landed:
        if adds { continue }
        return .refusedWith(
          "the \(g.kindName) it waits for was refused: its natural key names another device's row, which this write would change"
        )
      case .refused?, .dead?:
        return .refusedWith("the \(g.kindName) it waits for was \(g.verdict!.rawValue)")
      case .accepted?, .merged?, .conflicted?:
        continue
      }
    }
    return .free
  }
}
