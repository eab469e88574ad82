"""A stand-in for an app on the Marfa core, for the end-to-end checks: it lays out a core store as
the core does (WAL, the queue's columns, meta.schema_version "0"; shared/reference/marfa-core-store.md),
holds the writer lock (BEGIN EXCLUSIVE on <stem>.writer-lock) and, on each line of standard input,
does what the line says: `queue N` appends N writes, `answer` answers every waiting write in one
commit and prints the time of that commit, `quit` ends."""
import sqlite3, sys, time

def say(line):
    """One whole line in one write, so a reader never sees half of it."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


path = sys.argv[1]
lock = sqlite3.connect(path.rsplit(".", 1)[0] + ".writer-lock", isolation_level=None, timeout=0)
lock.execute("BEGIN EXCLUSIVE")
db = sqlite3.connect(path, isolation_level=None)
db.execute("PRAGMA journal_mode = WAL")
db.execute("PRAGMA wal_autocheckpoint = 0")
db.executescript(
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS items (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE);"
    "CREATE TABLE IF NOT EXISTS edges (id TEXT PRIMARY KEY);"
    "CREATE TABLE IF NOT EXISTS beneath (subject TEXT, id TEXT, row TEXT, PRIMARY KEY (subject, id));"
    "CREATE TABLE IF NOT EXISTS queue (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,"
    " item_id TEXT, target_id TEXT, edge_id TEXT, namespace TEXT, tag TEXT, blob TEXT, base_version INTEGER,"
    " idempotency_key TEXT NOT NULL UNIQUE, spent_keys TEXT, payload TEXT NOT NULL, sent INTEGER NOT NULL DEFAULT 0,"
    " depends_on TEXT, follows TEXT, read TEXT, verdict TEXT, reason TEXT, answer TEXT, conflicted_copy_id TEXT,"
    " refusals INTEGER NOT NULL DEFAULT 0, queued_at TEXT NOT NULL, answered_at TEXT);"
    "INSERT OR IGNORE INTO meta VALUES ('schema_version', '0'), ('server_origin', 'http://127.0.0.1:7700');"
)
say("ready")
n = 0
for line in sys.stdin:
    words = line.split()
    if not words or words[0] == "quit":
        break
    if words[0] == "queue":
        db.execute("BEGIN")
        for _ in range(int(words[1])):
            n += 1
            db.execute(
                "INSERT INTO queue (id, kind, item_id, idempotency_key, payload, queued_at)"
                " VALUES (?, 'update_item', 'item-1', ?, '{\"version\":1}', '2026-12-01T00:00:00.000Z')",
                (f"app-write-{n:04d}", f"key-{n}"))
        db.execute("COMMIT")
        say(f"queued {n}")
    elif words[0] == "answer":
        db.execute("BEGIN")
        db.execute("UPDATE queue SET sent = 1, verdict = 'accepted', answer = '{}',"
                   " answered_at = '2026-12-01T00:00:01.000Z' WHERE verdict IS NULL")
        db.execute("COMMIT")
        say(f"answered {time.time()}")
