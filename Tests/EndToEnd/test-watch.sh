#!/usr/bin/env bash
# `verdicts watch` follows a drain run by another process, and never acts:
# - a scripted instance (`verdicts instance --scenario empty`) in the background, a store filled
#   from it and 50 writes queued with `verdicts items create`;
# - `verdicts watch` in one tmux pane, `verdicts drain` typed in another pane's shell: the watch
#   screen goes from Waiting 50 to Answered 50 within a couple of seconds of the drain's end;
# - in watch, `r` on a write is refused on the status line with the reason (opened to read);
# - `verdicts watch --plain` (another run, its output to a file) prints a line for each write the
#   next drain answers, and ends cleanly on SIGTERM;
# - `verdicts` (the TUI) on a store held by `verdicts hold` is read-only and says why, and
#   refuses an action with that reason.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init watch

STORE="$E2E_TMP/watch.store"
start_instance --scenario empty
V() { "$VERDICTS" --store "$STORE" --url "$INSTANCE_URL" "$@"; }

echo "watch: fill, queue 50 writes"
V fill >/dev/null
for i in $(seq 1 50); do
  V items create --type note --properties "{\"title\":\"note $i\"}" >/dev/null
done
[ "$(V status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["counts"]["waiting"])')" = 50 ] ||
  fail "50 writes should wait"

shell_pane
shell_pane 120 40 writer
type_line "$VERDICTS watch --store '$STORE'"
wait_re '┌─ Waiting 50 '
wait_re '┌─ Answered 0 '
wait_for "read-only (opened to read)"

echo "watch: a drain in another shell; the watch follows it"
type_line "$VERDICTS --store '$STORE' --url '$INSTANCE_URL' drain; echo DRAIN-\$((40+2))" writer
wait_for "DRAIN-42" writer
drained_at=$(date +%s.%N)
history writer | grep -qF "answered 50, held 0, undelivered 0" || fail "the drain did not answer 50"
wait_re '┌─ Answered 50 ' "$SESSION" 5
wait_re '┌─ Waiting 0 ' "$SESSION" 5
lag=$(python3 -c "import time; print(round(time.time() - $drained_at, 2))")
python3 -c "import sys; sys.exit(0 if $lag <= 2.0 else 1)" || fail "the watch took ${lag}s to show the drain"
echo "watch: followed the drain within ${lag}s"
wait_for "50 answered"   # the status line names the last drain

echo "watch: r is refused, with the reason"
keys 2
wait_re '^│kind +create item'
keys r
wait_for "read-only: release (selected or marked) is not allowed (opened to read)"
keys w
wait_re "read-only: withdraw.* is not allowed \(opened to read\)"
# Nothing changed in the store.
[ "$(V status --json | python3 -c 'import json,sys; c=json.load(sys.stdin)["counts"]; print(c["answered"], c["waiting"])')" = "50 0" ] ||
  fail "the watch changed the store"
keys q
expect_clean_shell "┌─ Waiting"

echo "watch --plain: a line per answered write"
ids=()
for i in $(seq 1 10); do
  ids+=("$(V --json items create --type note --properties "{\"title\":\"plain $i\"}" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')")
done
PLAIN="$E2E_TMP/plain.out"
background "$VERDICTS" watch --plain --store "$STORE" >"$PLAIN" 2>"$E2E_TMP/plain.err"
PLAIN_PID=$BG_PID
wait_until grep -q '^time id kind rows verdict reason streak status text$' "$PLAIN"
type_line "$VERDICTS --store '$STORE' --url '$INSTANCE_URL' drain; echo DRAIN-\$((50+2))" writer
wait_for "DRAIN-52" writer
answered_all() {
  local id
  for id in "${ids[@]}"; do grep -qE "^[^ ]+ $id create_item [^ ]+ accepted " "$PLAIN" || return 1; done
}
wait_until answered_all
kill -TERM "$PLAIN_PID"
rc=0; wait "$PLAIN_PID" || rc=$?
[ "$rc" = 0 ] || fail "watch --plain ended $rc on SIGTERM: $(cat "$E2E_TMP/plain.err")"
[ ! -s "$E2E_TMP/plain.err" ] || fail "watch --plain wrote to stderr: $(cat "$E2E_TMP/plain.err")"

echo "tui on a held store: read-only, and why"
background "$VERDICTS" hold --seconds 40 --store "$STORE" >"$E2E_TMP/hold.out" 2>&1
HOLD_PID=$BG_PID
wait_until grep -q "holding" "$E2E_TMP/hold.out"
type_line "$VERDICTS --store '$STORE' --url '$INSTANCE_URL'"
wait_re "read-only \(another process holds the writer role: pid [0-9]+"
wait_re '┌─ Answered 60 '
keys 2 d
wait_re "read-only: drain now is not allowed \(another process holds the writer role: pid [0-9]+"
keys r
wait_re "read-only: release \(selected or marked\) is not allowed \(another process holds the writer role: pid [0-9]+"
keys q
expect_clean_shell "┌─ Waiting"
kill -TERM "$HOLD_PID" 2>/dev/null || true
e2e_done
