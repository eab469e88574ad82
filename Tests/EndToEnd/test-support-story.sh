#!/usr/bin/env bash
# What support staff read while nobody else is watching (issue 24), every view at each step:
# - a writer TUI (120x40) drains with auto-drain on; `verdicts watch` at 80x24 and 160x48,
#   `watch --plain` and `status` follow it;
# - the instance stops mid-drain: the watchers say `instance unreachable since …` in the writer's
#   words, `status` says it on its `writer says` line, `watch --plain` prints it once; the drain's
#   end line carries the report's counts and why it ended;
# - the instance comes back and `d` drains again: the watchers say so (the drain goes on);
# - the writer is killed mid-drain (kill -9): the watchers say `died during a drain (N of M
#   sent …)`, `status` that this process could now take the role, `watch --plain` that the drain
#   died with no report kept.
# time-limit: 300
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init support-story

STORE="$E2E_TMP/story.store"
WRITES=200
VERDICTS_INSTANCE_WRITE_DELAY_MS=60 start_instance --scenario empty
PORT=${INSTANCE_URL##*:}
V() { "$VERDICTS" --store "$STORE" --url "$INSTANCE_URL" "$@"; }

echo "support-story: fill, queue $WRITES writes"
V fill >/dev/null
seq 1 "$WRITES" | xargs -P 2 -I{} "$VERDICTS" --store "$STORE" --url "$INSTANCE_URL" \
  items create --type note --properties '{"title":"note {}"}' >/dev/null

"$VERDICTS" watch --plain --store "$STORE" >"$E2E_TMP/plain.out" 2>"$E2E_TMP/plain.err" &
PLAIN_PID=$!
E2E_PIDS+=("$PLAIN_PID")

shell_pane 120 40 writer
shell_pane 80 24 small
shell_pane 160 48 large
type_line "$VERDICTS watch --store '$STORE'" small
type_line "$VERDICTS watch --store '$STORE'" large
type_line "$VERDICTS --store '$STORE' --url '$INSTANCE_URL'" writer
wait_re "writer: verdicts tui \(pid [0-9]+\) · .*auto-drain off" large
WRITER_PID=$(screen large | sed -nE 's/.*writer: verdicts tui \(pid ([0-9]+)\).*/\1/p' | head -1)
[ -n "$WRITER_PID" ] || fail "no writer pid on the watcher's screen"

echo "support-story: auto-drain on; the instance stops mid-drain"
keys_to writer a
wait_re "draining [0-9]+ of $WRITES" large
kill -TERM "$INSTANCE_PID"
wait "$INSTANCE_PID" 2>/dev/null || true
wait_re "writer: verdicts tui \(pid $WRITER_PID\) · .*instance unreachable since [0-9:]+" large 30
# At 80 columns the watcher gives the writer's essentials first: the outage and since when.
SESSION=small wait_re "instance unreachable since [0-9:]+" small 10
V status >"$E2E_TMP/status.txt" 2>&1 || true
grep -qE "^writer says +verdicts tui \(pid $WRITER_PID\) .*instance unreachable since" "$E2E_TMP/status.txt" ||
  fail "status does not give the writer's words: $(cat "$E2E_TMP/status.txt")"
wait_until grep -qE "writer: verdicts tui \(pid $WRITER_PID\) .*instance unreachable since" "$E2E_TMP/plain.out"
# The drain's end line is the stored report's: counts and why it ended, as status gives them
# (auto-drain tries again while the instance is away: the line for status's pass may come later).
last=$(sed -nE 's/^last drain +[^:]+:[0-9]+:[0-9.]+Z: //p' "$E2E_TMP/status.txt")
[ -n "$last" ] || fail "status names no last drain: $(cat "$E2E_TMP/status.txt")"
end_line_says() { grep -E "drain ended [0-9:]+: answered [0-9]+, .*; unavailable: " "$E2E_TMP/plain.out" | grep -qF -- "$1"; }
WHY="watch --plain printed no end line with the report status gives ($last)" wait_until end_line_says "${last%%;*}"
echo "support-story: $(grep -E "drain ended [0-9:]+: answered" "$E2E_TMP/plain.out" | head -1)"

echo "support-story: the instance back; d drains again"
VERDICTS_INSTANCE_WRITE_DELAY_MS=60 background "$VERDICTS" instance --port "$PORT" --scenario empty \
  >"$E2E_TMP/instance-again.out" 2>&1
INSTANCE_PID=$BG_PID
wait_until grep -q "listening at" "$E2E_TMP/instance-again.out"
keys_to writer d
# The rest of the queue goes at 60 ms a write: seconds of draining, and the writer is killed in it.
SESSION=large wait_re "writer: verdicts tui \(pid $WRITER_PID\) · .*draining [0-9]+ of [0-9]+" large 20
SESSION=small wait_re "instance reach|draining" small 10

echo "support-story: the writer killed mid-drain"
kill -9 "$WRITER_PID"
wait_re "writer: gone — pid $WRITER_PID died during a drain \([0-9]+ of [0-9]+ sent" large 5
wait_re "pid $WRITER_PID died during" small 5
V status >"$E2E_TMP/status-dead.txt" 2>&1 || true
grep -qE "pid $WRITER_PID died during a drain.*this process could now take the role" "$E2E_TMP/status-dead.txt" ||
  fail "status does not say the writer died during a drain: $(cat "$E2E_TMP/status-dead.txt")"
wait_until grep -qE "drain ended: pid $WRITER_PID died during it \([0-9]+ of [0-9]+ sent" "$E2E_TMP/plain.out"
kill -TERM "$PLAIN_PID"
wait_ended "$PLAIN_PID" "watch --plain"
[ ! -s "$E2E_TMP/plain.err" ] || fail "watch --plain wrote to stderr: $(cat "$E2E_TMP/plain.err")"
keys_to small q
keys_to large q
e2e_done
