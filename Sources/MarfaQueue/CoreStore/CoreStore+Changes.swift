import FoundationEssentials

extension CoreStore {
  /// The back-off of ``changes()``: once a second with inotify (doubling from 25 ms after a
  /// write heard), every 250 ms without.
  static let changePace = SavePace(
    afterSave: { $0 ? 1000 : 250 }, next: { ms, inotify in inotify ? min(ms * 2, 1000) : 250 })

  /// Tells `.saved(dataVersion:)` whenever the core's app commits, and when its writer comes or
  /// goes, until the stream's consumer stops (or the store can no longer be read).
  ///
  /// A ``SaveFollower`` backing off by ``changePace``: woken by inotify for the store's files (a
  /// commit writes the `-wal`), else at the latest once a second, when it also polls again for
  /// the writer: about one wakeup a second when idle.
  public func changes() -> AsyncStream<Change> {
    let (stream, continuation) = AsyncStream<Change>.makeStream(bufferingPolicy: .bufferingNewest(16))
    let path = self.path
    // Watched and read here, not when the task first runs: a commit after this call returns is
    // told even when the task starts late (a loaded machine), and watching before the first read
    // misses none between the two.
    let watch = SaveWatch(storePath: path)
    let start = (try? dataVersion()).map { CoreChangeMark(dataVersion: $0, writer: CoreWriterProbe.writer(of: path)) }
    let task = Task { [weak self] in
      defer { continuation.finish() }
      guard let start, self != nil else { return }
      let follower = SaveFollower(
        watch: watch, pace: Self.changePace,
        start: start,
        poll: { [weak self] in
          guard let self, let now = try? self.dataVersion() else { return .over }
          return .seen(CoreChangeMark(dataVersion: now, writer: CoreWriterProbe.writer(of: path)))
        },
        tell: { continuation.yield(.saved(dataVersion: $0.dataVersion)) },
        heardFiles: {})
      await follower.run()
    }
    continuation.onTermination = { _ in task.cancel() }
    return stream
  }

  /// The `marfa` command that does `action` on this store, for the person to run: verdicts never
  /// writes a store it does not own (`marfa device --db PATH release ID`; reference section 6).
  package func marfaCommand(_ action: String, _ arguments: [String] = []) -> String {
    CoreStore.marfaCommand(store: path, action, arguments)
  }

  /// The `marfa` command that does `action` on the core store at `store`.
  package static func marfaCommand(store: String, _ action: String, _ arguments: [String] = []) -> String {
    (["marfa", "device", "--db", shellQuoted(store), action] + arguments.map(shellQuoted)).joined(separator: " ")
  }

  /// The `marfa` commands that act on `w` in a core store, as its command line spells them
  /// (reference section 6): release for blocked, dead and drain-refused writes, withdraw for the
  /// two reasons the core withdraws, discard for a refused write, forget for an answered one.
  public static func ownerCommands(for w: QueuedWrite, store: String) -> [String] {
    switch w.verdict {
    case nil: return []
    case .blocked(let reason, _):
      var commands = [marfaCommand(store: store, "release", [w.id])]
      if reason == .ancestorUnavailable || reason == .conflictUnresolved {
        commands.append(marfaCommand(store: store, "withdraw", [w.id]))
      }
      return commands
    case .dead: return [marfaCommand(store: store, "release", [w.id])]
    case .refused: return [marfaCommand(store: store, w.sent ? "discard" : "release", [w.id])]
    case .accepted, .merged, .conflicted: return [marfaCommand(store: store, "forget")]
    }
  }

  /// The refusal of an action on this store, naming the `marfa` command that does it.
  public func refusal(_ action: String, _ arguments: [String] = []) -> QueueError {
    .readingHandle(
      reason:
        "this is a Marfa core store, which verdicts only reads; its owner does that: \(marfaCommand(action, arguments))"
    )
  }

  /// A word as a shell reads it: as it is when plain, else in single quotes.
  static func shellQuoted(_ word: String) -> String {
    let plain =
      !word.isEmpty
      && word.unicodeScalars.allSatisfy {
        ($0.properties.isAlphabetic && $0.isASCII) || ("0"..."9").contains($0)
          || "-_./:=@%+,".unicodeScalars.contains($0)
      }
    return plain ? word : "'" + word.replacing("'", with: "'\\''") + "'"
  }
}
