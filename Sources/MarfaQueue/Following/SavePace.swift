/// How long a ``SaveFollower`` waits for its next poll, in milliseconds, while nothing is heard:
/// each store kind's back-off rule.
struct SavePace: Sendable {
  /// The wait after telling of a save, and before the first poll; the flag is whether inotify
  /// watches the files.
  var afterSave: @Sendable (_ inotify: Bool) -> Int
  /// The wait after a poll that found nothing, given the wait before it.
  var next: @Sendable (_ after: Int, _ inotify: Bool) -> Int
}
