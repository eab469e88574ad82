/// The store's schema, versioned.
enum StoreSchema {
  /// Written to `PRAGMA application_id` so a foreign SQLite file is recognised ('VRDT').
  static let applicationId = 0x5652_4454
  /// Bumped with every change of the tables below.
  static let version = 1

  static var create: String {
    // Each CHECK names its values one by one (`kind = 'a' OR kind = 'b' …`), not as an `IN`
    // list: SQLite builds a temporary index for an `IN` list of more than two constants every
    // time the statement runs, and the verdict's CHECK runs with every verdict stored (a
    // temporary database opened and closed for each drained write, ~3 % of a drain's CPU).
    let kinds = WriteKind.sqlOneOf("kind", WriteKind.allCases)
    let verdicts = VerdictName.sqlOneOf("verdict", VerdictName.allCases)
    return """
      PRAGMA application_id = \(applicationId);
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
      CREATE TABLE queue (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (\(kinds)),
        item_id TEXT, target_id TEXT, edge_id TEXT, namespace TEXT, tag TEXT, blob TEXT,
        base_version INTEGER,
        idempotency_key TEXT NOT NULL UNIQUE,
        spent_keys TEXT NOT NULL DEFAULT '[]',
        payload TEXT NOT NULL,
        payload_sha TEXT,
        sent INTEGER NOT NULL DEFAULT 0,
        depends_on TEXT NOT NULL DEFAULT '[]',
        follows TEXT,
        verdict TEXT CHECK (verdict IS NULL OR \(verdicts)),
        reason TEXT,
        answer TEXT,
        conflicted_copy_id TEXT,
        refusals INTEGER NOT NULL DEFAULT 0 CHECK (refusals BETWEEN 0 AND \(QueueLimits.ceiling)),
        queued_at TEXT NOT NULL,
        answered_at TEXT,
        instance_id TEXT,
        refusal TEXT,
        merged_fields TEXT,
        replayed INTEGER NOT NULL DEFAULT 0,
        last_failure_status INTEGER,
        last_failure_text TEXT,
        environmental_streak INTEGER NOT NULL DEFAULT 0,
        waiting INTEGER NOT NULL DEFAULT 0,
        withdrawn_dependency INTEGER NOT NULL DEFAULT 0,
        pane INTEGER GENERATED ALWAYS AS (
          \(QueuePane.sqlFromVerdict)
        ) VIRTUAL
      );
      CREATE INDEX queue_pane ON queue (pane, seq);
      CREATE INDEX queue_item ON queue (item_id, seq);
      CREATE INDEX queue_edge ON queue (edge_id, seq);
      CREATE INDEX queue_follows ON queue (follows);
      CREATE TABLE queue_deps (id TEXT NOT NULL, on_id TEXT NOT NULL, PRIMARY KEY (id, on_id)) WITHOUT ROWID;
      CREATE INDEX queue_deps_on ON queue_deps (on_id);
      CREATE TABLE rows (
        kind TEXT NOT NULL, id TEXT NOT NULL, version INTEGER, state TEXT, body TEXT NOT NULL,
        PRIMARY KEY (kind, id)
      ) WITHOUT ROWID;
      CREATE TABLE read_backs (id TEXT PRIMARY KEY, kind TEXT NOT NULL, row_id TEXT NOT NULL);
      INSERT INTO meta (key, value) VALUES ('\(MetaKey.schemaVersion.rawValue)', '\(version)'), ('\(MetaKey.fill.rawValue)', '\(FillState.never.rawValue)');
      \(paneCounts)
      \(changeLog)
      \(departures)
      \(archive)
      \(releases)
      \(events)
      \(editReads)
      \(orderIndexes)
      \(attempts)
      \(drainHistory)
      """
  }

  /// Each write's attempts (``WriteAttempt``): the last ``WriteAttempt/kept`` of each, numbered
  /// `k` from 1 per write (so the newest's number tells how many were made). The triggers prune
  /// in the writer's own statement: an insert lets go of the attempts older than the last kept,
  /// and a write that leaves the queue takes its attempts with it. ~70 bytes an attempt
  /// (docs/rules.md "Each write's attempts"). Additive: an older store gets it when a writer opens it.
  static let attempts = """
    CREATE TABLE attempts (
      write_id TEXT NOT NULL, k INTEGER NOT NULL, at_ms INTEGER NOT NULL, drain INTEGER, result TEXT NOT NULL,
      status INTEGER, code TEXT, replayed INTEGER NOT NULL DEFAULT 0, ms INTEGER NOT NULL DEFAULT 0, text TEXT,
      PRIMARY KEY (write_id, k)
    ) WITHOUT ROWID;
    CREATE TRIGGER attempts_prune AFTER INSERT ON attempts WHEN NEW.k > \(WriteAttempt.kept) BEGIN
      DELETE FROM attempts WHERE write_id = NEW.write_id AND k <= NEW.k - \(WriteAttempt.kept);
    END;
    CREATE TRIGGER IF NOT EXISTS attempts_leave AFTER DELETE ON queue
    WHEN NOT EXISTS (SELECT 1 FROM archive WHERE id = OLD.id) BEGIN
      DELETE FROM attempts WHERE write_id = OLD.id;
    END;
    CREATE TRIGGER IF NOT EXISTS attempts_leave_archive AFTER DELETE ON archive
    WHEN NOT EXISTS (SELECT 1 FROM queue WHERE id = OLD.id) AND NOT EXISTS (SELECT 1 FROM archive WHERE id = OLD.id) BEGIN
      DELETE FROM attempts WHERE write_id = OLD.id;
    END;
    """

  /// The drains before this one (``DrainRecord``): one bounded row each, begun when a drain
  /// begins and ended when it ends; the insert's trigger keeps the last ``DrainRecord/kept``.
  /// Additive: an older store gets it when a writer opens it.
  static let drainHistory = """
    CREATE TABLE drains (
      n INTEGER PRIMARY KEY AUTOINCREMENT, started_ms INTEGER NOT NULL, ended_ms INTEGER,
      program TEXT NOT NULL DEFAULT '', mode TEXT NOT NULL DEFAULT '', pid INTEGER NOT NULL DEFAULT 0,
      host TEXT NOT NULL DEFAULT '', answered INTEGER NOT NULL DEFAULT 0, held INTEGER NOT NULL DEFAULT 0,
      undelivered INTEGER NOT NULL DEFAULT 0, unsent INTEGER NOT NULL DEFAULT 0, unmade INTEGER NOT NULL DEFAULT 0,
      verdicts TEXT, ending TEXT NOT NULL DEFAULT 'open', why TEXT, retry_after INTEGER
    );
    CREATE TRIGGER drains_prune AFTER INSERT ON drains BEGIN
      DELETE FROM drains WHERE n <= NEW.n - \(DrainRecord.kept);
    END;
    """

  /// One index per ``PaneOrder`` that reads a value besides the send order, each `(pane, value,
  /// seq)` in the order's direction, so a page in any order walks an index instead of sorting
  /// the pane (at 1,000,000 writes a sorted page took 0.2–4 s; along its index
  /// ~0.2 ms at its start, ~25 ms at its middle, as the send order). Newest first reads
  /// `queue_pane` backwards. Additive: an older store gets them when a writer opens it.
  static var orderIndexes: String {
    let indexed: [(String, PaneOrder)] = [
      ("queue_order_age", .age), ("queue_order_streak", .streak), ("queue_order_reason", .reason),
      ("queue_order_kind", .kind),
    ]
    return indexed.map { name, order in
      "CREATE INDEX IF NOT EXISTS \(name) ON queue (pane, \(order.sqlKey!)\(order.descending ? " DESC" : ""), seq);"
    }.joined(separator: "\n")
  }

  /// The last of ``orderIndexes``' names: a store holding it holds them all (they are made in
  /// one transaction).
  static let lastOrderIndex = "queue_order_kind"

  /// How many writes each pane holds, kept by triggers, so a screen of a million writes reads
  /// four numbers instead of counting the index on every change (a count of the answered pane
  /// of a million-write store took ~70 ms, the four panes and the status ~230 ms).
  ///
  /// Additive: a store made before it gets it when a writer opens it (``upgrade``), and readers
  /// count the index until then. The triggers live in the file, so every binary keeps it true.
  static let paneCounts = """
    CREATE TABLE pane_counts (pane INTEGER PRIMARY KEY, n INTEGER NOT NULL);
    INSERT INTO pane_counts (pane, n) SELECT p.pane, (SELECT count(*) FROM queue WHERE pane = p.pane)
      FROM (\(QueuePane.allCases.map { "SELECT \($0.rawValue) AS pane" }.joined(separator: " UNION ALL "))) p;
    CREATE TRIGGER queue_count_insert AFTER INSERT ON queue BEGIN
      UPDATE pane_counts SET n = n + 1 WHERE pane = NEW.pane;
    END;
    CREATE TRIGGER queue_count_delete AFTER DELETE ON queue BEGIN
      UPDATE pane_counts SET n = n - 1 WHERE pane = OLD.pane;
    END;
    CREATE TRIGGER queue_count_update AFTER UPDATE OF verdict ON queue WHEN OLD.pane IS NOT NEW.pane BEGIN
      UPDATE pane_counts SET n = n - 1 WHERE pane = OLD.pane;
      UPDATE pane_counts SET n = n + 1 WHERE pane = NEW.pane;
    END;
    """

  /// Which writes changed, in the order they changed, kept by triggers: a reader that follows
  /// the queue line by line (`watch --plain`) reads the writes named after the last entry it
  /// read instead of comparing the whole queue on every change (at 100,000 writes a whole read
  /// took ~200 ms, more while a drain shared the CPUs).
  ///
  /// Every insert, update and delete of a write appends its id; the newest
  /// ``changeLogKept`` entries are kept (a prune every ``changeLogPruneEvery``). `n` only
  /// grows: the prune never removes the newest entry. A reader whose last entry was pruned
  /// reads the whole queue once and follows from there. Additive, like ``paneCounts``: an
  /// older store gets it when a writer opens it.
  static let changeLog = """
    CREATE TABLE change_log (n INTEGER PRIMARY KEY, id TEXT NOT NULL);
    CREATE TRIGGER queue_log_insert AFTER INSERT ON queue BEGIN
      INSERT INTO change_log (id) VALUES (NEW.id);
    END;
    CREATE TRIGGER queue_log_update AFTER UPDATE ON queue BEGIN
      INSERT INTO change_log (id) VALUES (NEW.id);
    END;
    CREATE TRIGGER queue_log_delete AFTER DELETE ON queue BEGIN
      INSERT INTO change_log (id) VALUES (OLD.id);
    END;
    CREATE TRIGGER change_log_prune AFTER INSERT ON change_log WHEN NEW.n % \(changeLogPruneEvery) = 0 BEGIN
      DELETE FROM change_log WHERE n <= NEW.n - \(changeLogKept);
    END;
    """

  /// Why each write left the queue (``Departure``), so a watcher in another process tells a
  /// withdraw from a discard from a forget. The newest ``changeLogKept`` entries are kept, as the
  /// change log's. Additive: an older store gets it when a writer opens it; until then a watcher
  /// says a write left as `forgotten`.
  static let departures = """
    CREATE TABLE departures (n INTEGER PRIMARY KEY, id TEXT NOT NULL, event TEXT NOT NULL);
    CREATE INDEX departures_id ON departures (id);
    CREATE TRIGGER departures_prune AFTER INSERT ON departures WHEN NEW.n % \(changeLogPruneEvery) = 0 BEGIN
      DELETE FROM departures WHERE n <= NEW.n - \(changeLogKept);
    END;
    """

  /// Every write that left the queue (discarded, withdrawn, forgotten, taken), kept whole: `row`
  /// is the queue row as a JSON object of every column (``QueueColumn``), `deps` its dependency
  /// rows, `marked` the writes its discard marked ``QueuedWrite/dependencyGone``, `departed_by`
  /// the process that took it out, `last_seq` the newest send order given out when it left
  /// (`sqlite_sequence`, so writes gone before count too). `seq`, `item_id`, `edge_id` and `blob`
  /// are copied out of the row for the undo's checks. Bounded by ``ArchiveLimits`` (age and
  /// bytes, oldest out first), pruned in the writer's transaction that archives. Additive: an
  /// older store gets it when a writer opens it; writes that left before were not kept.
  /// What an unanswered edit was made against: the properties the copy showed its row with
  /// when it was queued. A drain moves the edit onto the answer to an edit ahead of it only where
  /// that answer holds what it read (``SQLite/moveOntoAnswer(_:row:replayed:)``). Kept while the write is
  /// in the queue; a write put back by an undo has none, and goes on the version it holds.
  static let editReads = """
    CREATE TABLE edit_reads (id TEXT PRIMARY KEY, properties TEXT NOT NULL) WITHOUT ROWID;
    CREATE TRIGGER edit_reads_gone AFTER DELETE ON queue BEGIN DELETE FROM edit_reads WHERE id = OLD.id; END;
    """

  /// Each write a release put back, as it was just before (every column but the pane), so
  /// that an undo right after can lay it back while nothing was sent since: `batch` numbers one
  /// release call (one write, a batch of ids, or a reason), `key` the fresh key the release gave.
  /// Only the last ``releasesKept`` batches are kept; a write that leaves the queue takes its
  /// own with it. Additive: an older store gets it when a writer opens it.
  static let releases = """
    CREATE TABLE releases (
      n INTEGER PRIMARY KEY, batch INTEGER NOT NULL, id TEXT NOT NULL, released_at_ms INTEGER NOT NULL,
      key TEXT NOT NULL, row TEXT NOT NULL
    );
    CREATE INDEX releases_batch ON releases (batch);
    CREATE TRIGGER releases_gone AFTER DELETE ON queue BEGIN DELETE FROM releases WHERE id = OLD.id; END;
    """

  /// The events beside the drains (``QueueEvent``): when, what, who (`by`, as the archive's
  /// `departed_by`), how many writes, the reason, and words. Additive: an older store gets it
  /// when a writer opens it; what happened before was not kept.
  static let events = """
    CREATE TABLE events (
      n INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, kind TEXT NOT NULL, by TEXT,
      count INTEGER, reason TEXT, detail TEXT
    );
    CREATE INDEX events_at ON events (at_ms);
    """

  /// How many release batches ``releases`` keeps.
  static let releasesKept = 16

  static let archive = """
    CREATE TABLE archive (
      n INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL, event TEXT NOT NULL,
      departed_at_ms INTEGER NOT NULL, departed_by TEXT,
      seq INTEGER NOT NULL, last_seq INTEGER NOT NULL DEFAULT 0, item_id TEXT, edge_id TEXT, blob TEXT,
      deps TEXT NOT NULL DEFAULT '[]', marked TEXT NOT NULL DEFAULT '[]',
      bytes INTEGER NOT NULL DEFAULT 0, row TEXT NOT NULL
    );
    CREATE INDEX archive_id ON archive (id);
    CREATE INDEX archive_at ON archive (departed_at_ms);
    CREATE INDEX archive_item ON archive (item_id, seq);
    CREATE INDEX archive_edge ON archive (edge_id, seq);
    """

  /// How many change-log entries are kept at least.
  static let changeLogKept = 65_536
  /// How often (in entries) the log is pruned.
  static let changeLogPruneEvery = 4_096

  /// Adds what a store made by an earlier build lacks (the pane counts, the change log, the
  /// departures, the order indexes) and drops
  /// what it no longer keeps (the verdict index); best effort, in one transaction: a store that
  /// cannot be written (read-only file, full disk) stays as it was and is read the slower way.
  static func upgrade(_ db: SQLite) {
    var missing: [String] = []
    // Stores made by earlier builds kept a second index by verdict; `queue_pane` serves every
    // read it served, and each verdict paid to keep both.
    if (try? db.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'queue_verdict'")) == 1 {
      missing.append("DROP INDEX queue_verdict;")
    }
    if (try? db.hasPaneCounts()) == false { missing.append(paneCounts) }
    if (try? db.hasChangeLog()) == false { missing.append(changeLog) }
    if (try? db.hasDepartures()) == false { missing.append(departures) }
    if (try? db.hasArchive()) == false { missing.append(archive) }
    if (try? db.hasReleases()) == false { missing.append(releases) }
    if (try? db.hasEvents()) == false { missing.append(events) }
    if (try? db.hasAttempts()) == false { missing.append(attempts) }
    if (try? db.hasDrainHistory()) == false { missing.append(drainHistory) }
    let reads = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'edit_reads'"
    if (try? db.scalar(reads)) == 0 { missing.append(editReads) }
    if !db.keepsPayloadChecksums() { missing.append("ALTER TABLE queue ADD COLUMN payload_sha TEXT;") }
    let orderIndex = "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = '\(lastOrderIndex)'"
    if (try? db.scalar(orderIndex)) == 0 { missing.append(orderIndexes) }
    guard !missing.isEmpty else { return }
    try? db.transaction(durable: true) { try db.execute(missing.joined(separator: "\n")) }
  }
}
