import CSQLite
import FoundationEssentials

/// Tells which program's store a file is, reading it without changing it.
public enum StoreFile {
  /// The kind of store at `path`, read through a read-only connection.
  ///
  /// - Throws: `noStore` when there is no file; `unknownSchema` for a core store of a version
  ///   this build does not read; `wrongSchema` for any other file (a foreign SQLite file, or not
  ///   SQLite at all). Nothing is ever changed.
  public static func kind(at path: String) throws -> StoreKind {
    guard FileManager.default.fileExists(atPath: path) else { throw QueueError.noStore(path: path) }
    let db: SQLite
    do {
      db = try SQLite(path: path, readOnly: true)
    } catch {
      throw QueueError.wrongSchema(path: path, unsent: nil)
    }
    defer { db.close() }
    do {
      return try kind(of: db, path: path)
    } catch let e as QueueError {
      throw e
    } catch {
      throw QueueError.wrongSchema(path: path, unsent: nil)
    }
  }

  static func kind(of db: SQLite, path: String) throws -> StoreKind {
    let tables = Set(
      try db.rows("SELECT name FROM sqlite_master WHERE type = 'table'", reading: SchemaColumn.self) {
        $0.text(.name) ?? ""
      })
    let appId = try db.scalar("PRAGMA application_id") ?? 0
    guard tables.contains("meta"), tables.contains("queue") else {
      throw QueueError.wrongSchema(path: path, unsent: nil)
    }
    let version = try db.meta(MetaKey.schemaVersion)
    if appId == StoreSchema.applicationId {
      guard let version, let v = Int(version) else { throw QueueError.wrongSchema(path: path, unsent: nil) }
      return .verdicts(schemaVersion: v)
    }
    let columns = Set(
      try db.rows("SELECT name FROM pragma_table_info('queue')", reading: SchemaColumn.self) { $0.text(.name) ?? "" })
    let isCore =
      appId == 0 && CoreStoreLayout.coreTables.allSatisfy(tables.contains)
      && CoreStoreLayout.queueColumns.isSubset(of: columns)
    guard isCore else { throw QueueError.wrongSchema(path: path, unsent: nil) }
    guard let version else {
      throw QueueError.unknownSchema(
        path: path, found: "a Marfa core store with no schema version",
        reads: "Marfa core schema \(CoreStoreLayout.versionsRead.joined(separator: ", "))")
    }
    guard CoreStoreLayout.versionsRead.contains(version) else {
      throw QueueError.unknownSchema(
        path: path, found: "a Marfa core store of schema \(version)",
        reads: "Marfa core schema \(CoreStoreLayout.versionsRead.joined(separator: ", "))")
    }
    return .marfaCore(schemaVersion: version)
  }
}
