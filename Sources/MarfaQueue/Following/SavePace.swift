/// How long a ``SaveFollower`` waits for its next look, in milliseconds, while nothing is heard:
/// each store kind's back-off rule.
struct SavePace: Sendable {
  /// The wait after telling of a save, and before the first look; the flag is whether inotify
  /// watches the files.
  var afterSave: @Sendable (_ inotify: Bool) -> Int
  /// The wait after a look that found nothing, given the wait before it.
  var next: @Sendable (_ after: Int, _ inotify: Bool) -> Int
}
