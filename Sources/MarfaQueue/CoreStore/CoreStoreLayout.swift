/// What this build knows of the Marfa core's store layout (reference: marfa-core-store.md;
/// the core's `schema.sql`, `store.rs` and `lock.rs`).
///
/// A core store is recognised by its layout, never by its name: a `meta` table holding
/// `schema_version`, the core's own tables (`items`, `edges`, `beneath`), and a `queue` table with
/// the core's columns (among them `read`, which this project's store does not have). Neither
/// `application_id` nor `user_version` is set by the core.
enum CoreStoreLayout {
  /// The core's schema versions this build reads. The core writes "0" until its first public
  /// release and tells builds apart by table shape; the columns read here are those of "0".
  static let versionsRead = ["0"]

  /// Tables every core store has beside `meta` and `queue` (`schema.sql`).
  static let coreTables = ["items", "edges", "beneath"]

  /// The `queue` columns the reader needs (`schema.sql`, `queue`).
  static let queueColumns: Set<String> = [
    "seq", "id", "kind", "item_id", "target_id", "edge_id", "namespace", "tag", "blob", "base_version",
    "idempotency_key", "spent_keys", "payload", "sent", "depends_on", "follows", "read", "verdict", "reason",
    "answer", "conflicted_copy_id", "refusals", "queued_at", "answered_at",
  ]

  /// The blocked reasons the core writes (`store.rs`, `model.rs`); any other makes the core refuse
  /// to read its queue, and this reader shows it as written.
  static let blockedReasons = [
    "credential_refused", "key_spent", "ancestor_unavailable", "conflict_unresolved", "awaiting_dependency",
  ]

  /// The writer-lock files the core may hold for a store at `path` (`lock.rs`): the store's path
  /// with its last extension replaced (`core.sqlite` → `core.writer-lock`), and the newer
  /// `<file name>.writer-lock` (`device/writer-per-file`); both are checked.
  static func lockPaths(for path: String) -> [String] {
    let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
    let name = path[slash...]
    var replaced = path + ".writer-lock"
    if let dot = name.lastIndex(of: "."), dot != name.startIndex {
      replaced = String(path[..<dot]) + ".writer-lock"
    }
    let appended = path + ".writer-lock"
    return replaced == appended ? [appended] : [replaced, appended]
  }
}
