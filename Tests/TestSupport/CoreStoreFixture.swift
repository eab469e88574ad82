import CSQLite
import Foundation

/// A Marfa core store made for a test, laid out as the core lays out its own (the facts are from
/// `shared/reference/marfa-core-store.md`, itself from the core's `schema.sql`, `store.rs`,
/// `lock.rs` and `drain.rs`; the DDL is written here from those facts, not copied).
///
/// The connection stays open until ``close()``: with `checkpoint: false` its commits stay in the
/// `-wal` as they do under a live app mid-drain.
public final class CoreStoreFixture: @unchecked Sendable {  // unchecked: a C handle, used by one test
  /// The store's path.
  public let path: String
  private var db: OpaquePointer?
  private var seq = 0

  /// The core's tables, as far as a queue reader needs them.
  static let schema = """
    -- reference 2: `meta` is made before the schema, and `schema_version` written where absent.
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    -- reference 2, "Tables": the core's own tables (their columns are not read by verdicts).
    CREATE TABLE items (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, state TEXT NOT NULL,
      version INTEGER NOT NULL, properties TEXT NOT NULL);
    CREATE TABLE edges (id TEXT PRIMARY KEY, source_id TEXT NOT NULL, target_id TEXT NOT NULL,
      edge_type TEXT NOT NULL, properties TEXT NOT NULL, version INTEGER NOT NULL);
    CREATE TABLE beneath (subject TEXT NOT NULL, id TEXT NOT NULL, row TEXT NOT NULL, PRIMARY KEY (subject, id));
    CREATE TABLE read_backs (subject TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (subject, id));
    CREATE TABLE pins (item_id TEXT PRIMARY KEY);
    -- reference 3: the queue, its columns and checks.
    CREATE TABLE queue (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      kind TEXT NOT NULL CHECK (kind IN ('create_item','update_item','delete_item','restore_item',
        'transition_item','create_edge','update_edge','delete_edge','replace_metadata','merge_metadata',
        'add_tag','remove_tag','write_extension','delete_extension','upload_blob')),
      item_id TEXT, target_id TEXT, edge_id TEXT, namespace TEXT, tag TEXT, blob TEXT,
      base_version INTEGER,
      idempotency_key TEXT NOT NULL UNIQUE,
      spent_keys TEXT,
      payload TEXT NOT NULL,
      sent INTEGER NOT NULL DEFAULT 0,
      depends_on TEXT,
      follows TEXT,
      read TEXT,
      verdict TEXT CHECK (verdict IS NULL OR verdict IN
        ('accepted','merged','conflicted','refused','blocked','dead')),
      reason TEXT,
      answer TEXT,
      conflicted_copy_id TEXT,
      refusals INTEGER NOT NULL DEFAULT 0 CHECK (refusals BETWEEN 0 AND 5),
      queued_at TEXT NOT NULL,
      answered_at TEXT
    );
    CREATE INDEX queue_verdict_seq ON queue (verdict, seq);
    """

  /// Makes a core store at `path` of schema `version` (nil: no `schema_version` at all).
  public init(path: String, version: String? = "0", origin: String = "http://127.0.0.1:7700") throws {
    self.path = path
    // reference 1: the store file is made 0600 before SQLite opens it.
    FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
    _ = SQLiteFile.configured
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
      throw FixtureError("cannot open \(path)")
    }
    // reference 1: WAL, synchronous NORMAL, foreign keys on; no checkpoint until closed.
    try exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")
    try exec("PRAGMA wal_autocheckpoint = 0;")
    try exec(Self.schema)
    if let version { try exec("INSERT INTO meta (key, value) VALUES ('schema_version', '\(version)')") }
    try exec(
      """
      INSERT INTO meta (key, value) VALUES ('server_origin', '\(origin)'),
        ('instance_id', '01900000-0000-7000-8000-00000000c0de'), ('event_cursor', 'c-42');
      """)
  }

  deinit { close() }

  /// Closes the connection (SQLite checkpoints the WAL into the file then).
  public func close() {
    if let db { sqlite3_close_v2(db) }
    db = nil
  }

  /// Runs SQL.
  public func exec(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(db, sql, nil, nil, &message) == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? "?"
      sqlite3_free(message)
      throw FixtureError("\(text) in \(sql.prefix(80))")
    }
  }

  /// Appends one queue row as the core writes it; returns its id.
  @discardableResult
  public func append(
    id: String? = nil, kind: String = "update_item", itemId: String? = "item-1", targetId: String? = nil,
    edgeId: String? = nil, baseVersion: Int? = 3, payload: String = #"{"properties":{"title":"x"},"version":3}"#,
    sent: Bool = false, dependsOn: [String]? = nil, follows: String? = nil, verdict: String? = nil,
    reason: String? = nil, answer: String? = nil, conflictedCopyId: String? = nil, refusals: Int = 0,
    spentKeys: [String]? = nil
  ) throws -> String {
    seq += 1
    let id = id ?? String(format: "01900000-0000-7000-8000-%012d", seq)
    func q(_ s: String?) -> String { s.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" } ?? "NULL" }
    func list(_ a: [String]?) -> String {
      a.map { q("[" + $0.map { "\"\($0)\"" }.joined(separator: ",") + "]") } ?? "NULL"
    }
    let answeredAt = verdict == nil ? "NULL" : q("2026-11-30T10:00:0\(seq % 10).000Z")
    try exec(
      """
      INSERT INTO queue (seq, id, kind, item_id, target_id, edge_id, base_version, idempotency_key, spent_keys,
        payload, sent, depends_on, follows, verdict, reason, answer, conflicted_copy_id, refusals, queued_at,
        answered_at)
      VALUES (\(seq), \(q(id)), \(q(kind)), \(q(itemId)), \(q(targetId)), \(q(edgeId)), \(baseVersion.map(String.init) ?? "NULL"),
        \(q("key-\(seq)")), \(list(spentKeys)), \(q(payload)), \(sent ? 1 : 0), \(list(dependsOn)), \(q(follows)),
        \(q(verdict)), \(q(reason)), \(q(answer)), \(q(conflictedCopyId)), \(refusals),
        \(q("2026-11-30T09:00:0\(seq % 10).000Z")), \(answeredAt));
      """)
    return id
  }

  /// Makes a store holding one row of every shape the core writes (reference 3): every verdict,
  /// every blocked reason, a refusal envelope, a dead write, a write waiting on another.
  public static func everyShape(path: String) throws -> CoreStoreFixture {
    let f = try CoreStoreFixture(path: path)
    try f.append(
      id: "w-waiting-first", kind: "create_item", itemId: "i-new", baseVersion: nil,
      payload: #"{"type":"note","properties":{"title":"new"}}"#)
    try f.append(
      id: "w-held", itemId: "i-new", baseVersion: 0, follows: "w-waiting-first",
      verdict: "blocked", reason: "awaiting_dependency")
    try f.append(id: "w-accepted", sent: true, verdict: "accepted", answer: #"{"item":{"id":"item-1","version":4}}"#)
    try f.append(
      id: "w-merged", sent: true, verdict: "merged",
      answer: #"{"item":{"id":"item-1","version":5},"conflict_resolution":{"fields":["title","priority"]}}"#)
    try f.append(
      id: "w-conflicted", sent: true, verdict: "conflicted",
      answer:
        #"{"item":{"id":"item-1","version":6},"conflict_resolution":{"fields":["title"],"conflicted_copy_id":"i-sibling"}}"#,
      conflictedCopyId: "i-sibling")
    try f.append(
      id: "w-refused", kind: "create_item", sent: true, verdict: "refused", reason: "validation_error",
      answer:
        #"{"error":{"code":"validation_error","message":"title is required","details":{"errors":[{"field":"title","message":"is required"}]}}}"#
    )
    try f.append(
      id: "w-trashed", sent: true, verdict: "refused", reason: "item_not_found",
      answer: #"{"error":{"code":"item_not_found","message":"in the bin","details":{"trashed":true}}}"#)
    try f.append(
      id: "w-grant", sent: true, verdict: "blocked", reason: "credential_refused",
      answer:
        #"{"error":{"code":"forbidden","message":"no grant","details":{"grant":{"kind":"type","name":"note","level":"write"}}}}"#
    )
    try f.append(
      id: "w-spent", sent: true, verdict: "blocked", reason: "key_spent",
      answer: #"{"error":{"code":"idempotency_key_reused","message":"another body"}}"#, spentKeys: ["key-old"])
    try f.append(
      id: "w-ancestor", sent: true, verdict: "blocked", reason: "ancestor_unavailable",
      answer: #"{"error":{"code":"ancestor_unavailable","message":"gone"}}"#)
    try f.append(
      id: "w-conflict", sent: true, verdict: "blocked", reason: "conflict_unresolved",
      answer: #"{"error":{"code":"version_conflict","message":"moved on"}}"#)
    try f.append(
      id: "w-dead", sent: true, verdict: "dead", answer: "<html>bad gateway</html>", refusals: 5)
    try f.append(
      id: "w-refused-unsent", kind: "add_tag", itemId: "i-x", payload: #"{"tags":["t"]}"#, dependsOn: ["w-refused"],
      verdict: "refused", reason: "the create_item it waits for was refused")
    return f
  }
}

/// A fixture could not be made.
public struct FixtureError: Error, CustomStringConvertible {
  public let description: String
  public init(_ text: String) { description = text }
}
