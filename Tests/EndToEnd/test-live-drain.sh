#!/usr/bin/env bash
# A live drain seen from a second terminal (issue 9), as support staff would watch it:
# - a scripted instance that waits 15 ms before answering each write, a store of 1,000 writes queued
#   one command at a time, as a person's commands would;
# - the writer TUI in one pane turns auto-drain on (`a`); `verdicts watch` in a pane at 80x24 and
#   another at 160x48 show `writer: verdicts tui (pid N) · auto-drain on · draining N of 1000` with N
#   rising, a rate and the last minute's rate as a sparkline, and Answered tails the newest
#   verdict (its last row is on screen);
# - `kill -9` of the writer: both watchers say `writer: gone — pid N ended without closing` within 3 s;
# - a writer that quits cleanly (`q`) is `writer: none since HH:MM:SS`;
# - `watch --plain` prints a writer line when the writer comes, and when it goes;
# - the store deleted under the watchers: both say `store removed at …` within 2 s; made again
#   (`fill`, three writes), they show the new queue, read from the start.
# Queueing 1,000 writes one command at a time takes a minute or more on a busy machine:
# time-limit: 420
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init live-drain

STORE="$E2E_TMP/live.store"
WRITES=${LIVE_WRITES:-1000}
SHOWN=$(python3 -c "print(f'{$WRITES:,}')")   # pane titles group thousands
VERDICTS_INSTANCE_WRITE_DELAY_MS=15 start_instance --scenario empty
V() { "$VERDICTS" --store "$STORE" --url "$INSTANCE_URL" "$@"; }

echo "live-drain: fill, queue $WRITES writes"
V fill >/dev/null
queue_started=$SECONDS
# Two commands at a time: each waits its turn for the writer role, as two people's would.
seq 1 "$WRITES" | xargs -P 2 -I{} "$VERDICTS" --store "$STORE" --url "$INSTANCE_URL" \
  items create --type note --properties '{"title":"note {}"}' >/dev/null
echo "live-drain: queued in $((SECONDS - queue_started)) s"

"$VERDICTS" watch --plain --store "$STORE" >"$E2E_TMP/plain.out" 2>"$E2E_TMP/plain.err" &
PLAIN_PID=$!
E2E_PIDS+=("$PLAIN_PID")

shell_pane 120 40 writer
shell_pane 80 24 small
shell_pane 160 48 large
type_line "$VERDICTS watch --store '$STORE'" small
type_line "$VERDICTS watch --store '$STORE'" large
wait_re "┌─ Waiting $SHOWN " large
type_line "$VERDICTS --store '$STORE' --url '$INSTANCE_URL'" writer
wait_re "┌─ Waiting $SHOWN " writer
wait_re "writer: verdicts tui \(pid [0-9]+\) · .*auto-drain off" large
WRITER_PID=$(screen large | sed -nE 's/.*writer: verdicts tui \(pid ([0-9]+)\).*/\1/p' | head -1)
[ -n "$WRITER_PID" ] || fail "no writer pid on the watcher's screen"

echo "live-drain: auto-drain on in the writer; the watchers follow the drain"
keys_to writer a
wait_re "draining [0-9]+ of $WRITES · [0-9.]+/s" large
first=$(screen large | sed -nE "s/.*draining ([0-9]+) of $WRITES.*/\1/p" | head -1)
# At 80 columns the watcher gives the writer's essentials first, shortened (`writer pid N · draining …`).
wait_re "writer(: verdicts tui \(pid| pid) $WRITER_PID\)? · .*draining" small
# The rate is followed by the last minute's rates in cells (a sparkline of block glyphs).
wait_re "draining [0-9]+ of $WRITES · [0-9.]+/s [ ▁▂▃▄▅▆▇█]*[▁▂▃▄▅▆▇█]" large
sleep 1
second=$(screen large | sed -nE "s/.*draining ([0-9]+) of $WRITES.*/\1/p" | head -1)
[ -n "$second" ] && [ "$second" -gt "$first" ] || fail "the progress did not rise ($first, then ${second:-none})"
echo "live-drain: draining $first, then $second of $WRITES"
# Answered tails the newest: its last write is on screen as the drain ends.
wait_re "┌─ Answered $SHOWN .*$SHOWN of $SHOWN" large 60
wait_re "drain at [0-9:]+: $WRITES answered" large

echo "live-drain: kill -9 of the writer; the watchers say it is gone"
kill -9 "$WRITER_PID"
killed=$(date +%s.%N)
wait_for "writer: gone — pid $WRITER_PID ended without closing" large 3
wait_for "writer: gone — pid $WRITER_PID ended without closing" small 3
lag=$(python3 -c "import time; print(round(time.time() - $killed, 2))")
echo "live-drain: gone seen within ${lag}s"
# watch --plain samples the writer once a second too: it says so before the next writer comes.
wait_until grep -q "writer: gone — pid $WRITER_PID ended without closing" "$E2E_TMP/plain.out"

echo "live-drain: a writer that quits cleanly"
type_line "$VERDICTS --store '$STORE' --url '$INSTANCE_URL'" writer
wait_re "writer: verdicts tui \(pid [0-9]+\)" large
keys_to writer q
wait_for "writer: none since" large 5

wait_until grep -q "writer: none since" "$E2E_TMP/plain.out"
kill -TERM "$PLAIN_PID"
wait_ended "$PLAIN_PID" "watch --plain"
grep -qE "writer: verdicts tui \(pid $WRITER_PID\)" "$E2E_TMP/plain.out" || fail "watch --plain never said the writer came"
grep -qE "writer: gone — pid $WRITER_PID ended without closing" "$E2E_TMP/plain.out" || fail "watch --plain never said the writer died"
grep -qE "writer: none since" "$E2E_TMP/plain.out" || fail "watch --plain never said the writer closed"
[ ! -s "$E2E_TMP/plain.err" ] || fail "watch --plain wrote to stderr: $(cat "$E2E_TMP/plain.err")"
echo "live-drain: the store removed under the watchers, then made again"
rm -f "$STORE" "$STORE-wal" "$STORE-shm"
# wait_for polls for up to its limit in whole seconds: 2 s is the issue's bound.
SESSION=large wait_for "store removed at" large 2
SESSION=small wait_for "store removed at" small 2
V fill >/dev/null
for i in 1 2 3; do
  V items create --type note --properties "{\"title\":\"again $i\"}" >/dev/null
done
# The watchers open the new file and read it from the start.
wait_re "┌─ Waiting 3 " large 10
wait_re "┌─ Answered 0 " large 10
keys_to small q
keys_to large q
e2e_done
