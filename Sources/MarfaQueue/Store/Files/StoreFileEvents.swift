/// What ``SaveWatch`` heard about a store's files in one wait.
struct StoreFileEvents: OptionSet, Sendable, Hashable {
  let rawValue: Int

  /// One of the store's files was written (a commit may have landed).
  static let written = StoreFileEvents(rawValue: 1)
  /// One of the store's files was closed after writing, made, deleted or moved (a writer came
  /// or went, or the store was removed or replaced).
  static let files = StoreFileEvents(rawValue: 2)
  /// The folder itself went away: inotify hears nothing more; the caller polls on a timer.
  static let lost = StoreFileEvents(rawValue: 4)
}
