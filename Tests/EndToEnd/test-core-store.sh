#!/usr/bin/env bash
# `verdicts watch` on a store the Marfa core wrote, beside the app that owns it:
# - a stand-in app (core_app.py) lays out a core store, holds its writer lock and queues 20 writes;
# - `verdicts watch` shows them in Waiting, says the core's app is the writer (with its pid), and
#   follows the app's commits: its answering every write reaches the screen within 250 ms;
# - `r` is refused on the status line, and nothing of the core's files changes but `-shm`;
# - when the app ends, the status line says no app holds the store.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init core-store

STORE="$E2E_TMP/device.sqlite"
APP_IN="$E2E_TMP/app.in"
APP_OUT="$E2E_TMP/app.out"
mkfifo "$APP_IN"
python3 "$(dirname "$0")/core_app.py" "$STORE" <"$APP_IN" >"$APP_OUT" 2>"$E2E_TMP/app.err" &
APP_PID=$!
exec 7>"$APP_IN"
wait_until grep -q '^ready' "$APP_OUT"
echo "queue 20" >&7
wait_until grep -q '^queued 20' "$APP_OUT"

echo "core-store: watch shows the app's queue and its writer"
shell_pane
type_line "$VERDICTS watch --store '$STORE'"
wait_re '┌─ Waiting 20 '
wait_re '┌─ Answered 0 '
wait_for "pid $APP_PID) is the writer"

hash_files() { sha256sum "$STORE" "$STORE-wal" "$E2E_TMP/device.writer-lock" | cut -c1-64; stat -c %Y "$E2E_TMP/device.writer-lock"; }

echo "core-store: the app answers every write; the watch follows within 250 ms (median of 5 commits)"
echo "answer" >&7
wait_re '┌─ Answered 20 '
lags=$(python3 - "$E2E_SOCK" "$SESSION" "$APP_OUT" <<'PY'
import os, statistics, subprocess, sys, time
sock, session, out = sys.argv[1], sys.argv[2], sys.argv[3]
def screen():
    return subprocess.run(["tmux", "-S", sock, "-f", "/dev/null", "capture-pane", "-t", session, "-p"],
                          capture_output=True, text=True).stdout
def wait(test, seconds=10):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if test(): return True
        time.sleep(0.005)
    return False
def lines(word): return [l.split() for l in open(out) if l.startswith(word) and l.endswith("\n")]
lags = []
for n in range(1, 6):
    os.write(7, b"queue 1\n")
    if not wait(lambda: "\u250c\u2500 Waiting 1 " in screen()): print("never waited"); sys.exit(1)
    # The screen paces a stream of changes to 2 KB/s (docs/tui.md, "Frames and pacing"); a
    # change after quiet shows at once: that is the commit measured here, as a person meets it.
    time.sleep(2)
    before = len(lines("answered"))
    os.write(7, b"answer\n")
    if not wait(lambda: len(lines("answered")) > before): print("never answered"); sys.exit(1)
    committed = float(lines("answered")[-1][1])
    if not wait(lambda: f"\u250c\u2500 Answered {20 + n} " in screen()): print("never shown"); sys.exit(1)
    lags.append(time.time() - committed)
print(round(statistics.median(lags), 3), " ".join(str(round(l, 3)) for l in lags))
PY
) || fail "the watch did not follow the app's commits: $lags"
median=${lags%% *}
python3 -c "import sys; sys.exit(0 if $median <= 0.25 else 1)" || fail "the watch took ${median}s (median) to show the app's commits: $lags"
echo "core-store: followed the app's commits in ${median}s (median; each: ${lags#* })"

echo "core-store: actions are refused, and nothing changed"
before=$(hash_files)
keys 2
wait_re '^│kind +update item'
keys r
wait_for "read-only: release"
[ "$(hash_files)" = "$before" ] || fail "the watch changed the core's files"

echo "core-store: the app ends; the watch says no app holds the store"
echo "quit" >&7
exec 7>&-
wait "$APP_PID" || true
wait_for "no app holds it now"
keys q
expect_clean_shell "┌─ Waiting"
echo "core-store: passed"
