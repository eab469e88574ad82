#!/usr/bin/env python3
"""What each part of a drained verdict's SQL costs SQLite (docs/performance.md, "What the store's
statements alone cost").

Runs the drain's own statements for every queued write of a copy of STORE (the plan's SELECT, a
savepoint, the verdict's UPDATE, the copy row's INSERT OR REPLACE, the attempt's INSERT), in
groups of 100 as the drain commits, with one part of the schema or one statement taken out, and
prints the process CPU a write. Under callgrind, one variant a run, the totals' differences are
SQLite's alone (the script's own cost cancels):

    python3 statement-cost.py STORE                       # every variant, CPU a write
    valgrind --tool=callgrind python3 statement-cost.py STORE asis
    valgrind --tool=callgrind python3 statement-cost.py STORE no-order-indexes   # and so on

STORE is a store `verdicts items create` filled (its writes unanswered); it is copied, never
changed. A diagnostic: the drain runs these statements from Swift through the same libsqlite3.
"""
import json
import shutil
import sqlite3
import sys
import tempfile
import time

ANSWER = json.dumps({
    "item": {"id": "0190aaaa-bbbb-7ccc-8ddd-eeeeffff0000", "type": "note", "version": 1,
             "properties": {"title": "write 1", "n": 1}, "created_at": "2026-12-07T07:00:00.000Z",
             "updated_at": "2026-12-07T07:00:00.000Z", "tier": None, "state": "live"},
    "replayed": False, "server_version": 1})
PLAN = "SELECT verdict, base_version, payload, payload_sha FROM queue WHERE id = ?"
VERDICT = """UPDATE queue SET verdict = ?, reason = ?, refusal = ?, merged_fields = ?, conflicted_copy_id = ?,
  sent = CASE WHEN ? THEN 1 ELSE sent END, answer = COALESCE(?, answer), answered_at = ?, waiting = 0,
  replayed = ?, refusals = CASE WHEN ? = 'dead' THEN 5 ELSE refusals END,
  last_failure_status = NULL, last_failure_text = NULL, environmental_streak = 0
WHERE id = ?"""
COPY_ROW = "INSERT OR REPLACE INTO rows (kind, id, version, state, body) VALUES (?, ?, ?, ?, ?)"
ATTEMPT = """INSERT INTO attempts (write_id, k, at_ms, drain, result, status, code, replayed, ms, text)
VALUES (?, coalesce((SELECT max(k) FROM attempts WHERE write_id = ?), 0) + 1, ?, ?, ?, ?, ?, ?, ?, ?)"""
ORDER_INDEXES = ["queue_order_age", "queue_order_streak", "queue_order_reason", "queue_order_kind"]
TRIGGERS = ["queue_count_update", "queue_log_update"]

# variant: (schema changes, statements left out, answer stored)
VARIANTS = {
    "asis": ([], set(), True),
    "no-order-indexes": (["DROP INDEX " + i for i in ORDER_INDEXES], set(), True),
    "no-count-log-triggers": (["DROP TRIGGER " + t for t in TRIGGERS], set(), True),
    "no-derived": (["DROP INDEX " + i for i in ORDER_INDEXES + ["queue_pane"]]
                   + ["DROP TRIGGER " + t for t in TRIGGERS], set(), True),
    "no-copy-row": ([], {"copy"}, True),
    "no-attempt": ([], {"attempt"}, True),
    "no-answer": ([], set(), False),
    "no-savepoint": ([], {"savepoint"}, True),
}


def run(store, variant):
    changes, left_out, answered = VARIANTS[variant]
    with tempfile.TemporaryDirectory() as folder:
        path = folder + "/copy.store"
        shutil.copy(store, path)
        db = sqlite3.connect(path, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        # The drain's savepoints keep their undo in memory (csqlite_configure: 8 MiB before a
        # spill); Python cannot set that, and SQLite's 64 KiB default would send every savepoint
        # of a group to a temporary file. temp_store=MEMORY keeps them in memory here too.
        db.execute("PRAGMA temp_store=MEMORY")
        for change in changes:
            db.execute(change)
        ids = [r[0] for r in db.execute("SELECT id FROM queue WHERE verdict IS NULL ORDER BY seq")]
        if not ids:
            sys.exit("statement-cost: the store holds no unanswered write")
        start = time.process_time()
        for group in range(0, len(ids), 100):
            db.execute("BEGIN")
            for write in ids[group:group + 100]:
                db.execute(PLAN, (write,)).fetchone()
                if "savepoint" not in left_out:
                    db.execute("SAVEPOINT step")
                db.execute(VERDICT, ("accepted", None, None, None, None, 1, ANSWER if answered else None,
                                     "2026-12-07T07:00:00.000Z", 0, "accepted", write))
                if "copy" not in left_out:
                    db.execute(COPY_ROW, ("item", write, 1, "live", ANSWER))
                if "savepoint" not in left_out:
                    db.execute("RELEASE step")
                if "attempt" not in left_out:
                    db.execute(ATTEMPT, (write, write, 1765090000000, 1, "accepted", 201, None, 0, 1, None))
            db.execute("COMMIT")
        spent = time.process_time() - start
        db.close()
        return spent / len(ids) * 1e6, len(ids)


def main():
    if len(sys.argv) < 2 or (len(sys.argv) > 2 and sys.argv[2] not in VARIANTS):
        sys.exit("usage: statement-cost.py STORE [" + "|".join(VARIANTS) + "]")
    for variant in ([sys.argv[2]] if len(sys.argv) > 2 else VARIANTS):
        micros, n = run(sys.argv[1], variant)
        print(f"{variant:22} {micros:7.1f} µs a write of CPU ({n} writes)")


if __name__ == "__main__":
    main()
