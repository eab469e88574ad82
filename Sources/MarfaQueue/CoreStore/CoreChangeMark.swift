/// What ``CoreStore/changes()`` compares between two polls: a commit of the core's app moves
/// `data_version`, and a writer that comes or goes changes the lock's holder.
struct CoreChangeMark: Equatable, Sendable {
  /// SQLite's `data_version` on the core store's connection.
  var dataVersion: Int
  /// The process holding the core's writer lock, if any.
  var writer: CoreWriterProbe.Writer?
}
