extension QueueError {
  /// The queue error a failure of SQLite means: a full disk is always `storage_full`.
  static func from(_ failure: SQLite.Failure, path: String) -> QueueError {
    if failure.isFull { return .storageFull(message: failure.message) }
    return .store(path: path, message: failure.message)
  }
}
