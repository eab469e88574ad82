/// Queue calls waiting to share the next durable commit (``Store/runDurably(_:)``): group commit.
///
/// While one durable commit syncs the log, the calls that arrive meanwhile gather here; the next
/// commit takes them all, each in a savepoint of its own, and syncs once for the lot. A call is
/// answered only after the commit that holds it has synced, so a call that returned is durable.
struct SharedCommit {
  /// One call: its statements, and how its caller is answered.
  struct Call {
    /// Runs the call's statements and keeps their result; false when they threw (its savepoint
    /// is then rolled back, and the others commit without it).
    let run: (SQLite) -> Bool
    /// Answers the caller once the shared commit is known: with the call's own result, or with
    /// why the commit (or the store) failed, when it did.
    let answer: (Error?) -> Void
  }

  /// The calls for the next commit, in the order they came.
  var calls: [Call] = []
  /// Whether a commit of these calls is already on the store's queue.
  var scheduled = false
  /// Whether calls share commits (on unless a measurement turns it off: `verdicts-bench drain`
  /// compares eight callers with and without, in one run).
  var shared = true
}

/// The result of one call in a shared commit, kept from its savepoint until the commit is known.
///
/// Made and read on the store's queue only.
final class SharedCommitResult<T> {
  var value: Result<T, Error>?
}
