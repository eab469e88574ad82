#!/usr/bin/env bash
# `verdicts demo` as a person runs it, in a shell under tmux (120x40, tmux-256color, C.UTF-8):
# - within the tour every pane has writes and all six blocked reasons are on screen at once, with
#   the guide's first step over the detail's end;
# - a release that lands (tour-moved, blocked instance_changed, goes to Answered as accepted);
# - a withdraw confirmed with y (tour-overtaken leaves Blocked);
# - a discard confirmed with y (tour-invalid leaves Answered);
# - K + tour-key-2 + enter sends tour-keyed (credential_refused leaves the screen);
# - each action's outcome on the bottom line; `q` gives the shell back with a sane terminal.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init demo

# Walks the focused pane from its top until the detail pane's `rows` line is $1.
select_rows() {
  local want="$1" i before
  keys g
  for ((i = 0; i < 25; i++)); do
    if screen | grep -qE "^│rows +$want +│"; then return 0; fi
    before=$(screen | grep -E '─ Detail ' || true)
    keys j
    local n
    for ((n = 0; n < 40; n++)); do
      [ "$(screen | grep -E '─ Detail ' || true)" != "$before" ] && break
      screen | grep -qE "^│rows +$want +│" && break
      sleep 0.05
    done
  done
  fail "could not select the write on $want"
}

# The count in a pane's title (120x40 layout: "┌─ Blocked 7 ─").
count() { screen | grep -oE "┌─ $1 [0-9]+" | grep -oE '[0-9]+$' | head -1; }
wait_count() { wait_re "┌─ $1 $2 "; }

LOG="$E2E_TMP/demo.log"
shell_pane
started=$(date +%s.%N)
type_line "$VERDICTS demo --log '$LOG'"

echo "demo: every pane has writes, every blocked reason on screen, and the guide's first step"
wait_for "Guide 1 of 6"
wait_re '┌─ Waiting [1-9]'
wait_re '┌─ Answered [1-9]'
wait_re '┌─ Dead [1-9]'
for reason in instance_changed key_spent ancestor_unavailable conflict_unresolved failing_alone credential_refused; do
  wait_for "$reason"
done
# All six at once, on one screen (the tour settled: seven blocked, two waiting behind tour-failing).
wait_count Blocked 7
wait_count Waiting 2
screen >"$E2E_TMP/first.txt"
took=$(python3 -c "import time; print(round(time.time() - $started, 1))")
echo "demo: every pane and every blocked reason on screen after ${took}s"
python3 -c "import sys; sys.exit(0 if $took <= 10 else 1)" || fail "the tour took ${took}s to be on screen (promised: ten seconds)"
for reason in instance_changed key_spent ancestor_unavailable conflict_unresolved failing_alone credential_refused; do
  grep -qF "$reason" "$E2E_TMP/first.txt" || fail "not all six blocked reasons on one screen: $reason"
done
[ "$(grep -c '^│■' "$E2E_TMP/first.txt")" = 7 ] || fail "seven blocked rows should show"
grep -qF "tour-inflight dead" "$E2E_TMP/first.txt" || fail "tour-inflight is not dead"
grep -qF "refused: validation_error" "$E2E_TMP/first.txt" || fail "tour-invalid is not refused"
grep -qF "refused: item_not_found" "$E2E_TMP/first.txt" || fail "tour-trashed is not refused"
grep -qF "failing_alone streak 3" "$E2E_TMP/first.txt" || fail "tour-failing has no streak"
[ "$(grep -c '^│◌.*waiting on' "$E2E_TMP/first.txt")" = 2 ] || fail "two writes should wait behind tour-failing"
grep -qF "auto-drain on" "$E2E_TMP/first.txt" || fail "the demo's auto-drain is not on"
grep -qE "^ writer: verdicts demo \(pid [0-9]+\) · .*reachable" "$E2E_TMP/first.txt" || fail "the demo is not the writer, or not reachable"

answered=$(count Answered)

echo "demo: release tour-moved (r); it lands in Answered"
keys 3
select_rows tour-moved
expect_screen "clears by    release (r)"
keys r
wait_for "released 1"
wait_count Blocked 6
wait_count Answered $((answered + 1))
screen | grep -E '^│■' | grep -qF tour-moved && fail "tour-moved is still in Blocked"
keys 2 G
select_rows tour-moved
wait_re "^│verdict +✓ accepted"
grep -qF "released 1" "$LOG" || fail "the log does not say released 1"

echo "demo: withdraw tour-overtaken (w, y)"
keys 3
select_rows tour-overtaken
keys w
wait_for "Withdraw 1 write?"
keys n                                  # any other key cancels
wait_for "withdraw cancelled"
wait_gone "Withdraw 1 write?"
wait_count Blocked 6
keys w
wait_for "Withdraw 1 write?"
keys y
wait_re "withdrew …[0-9a-f]{8}"
wait_count Blocked 5
wait_no_re '^│■.*conflict_unresolved'

echo "demo: discard tour-invalid (x, y)"
answered=$(count Answered)
keys 2
select_rows tour-invalid
keys x
wait_for "Discard 1 write?"
keys y
wait_re "discarded …[0-9a-f]{8}"
wait_count Answered $((answered - 1))
wait_no_re 'refused: validation_error'

echo "demo: K tour-key-2 enter sends tour-keyed"
keys K
wait_for "new key (hidden):"
keys -l tour-key-2
wait_for "••••••••••"
expect_not_screen "tour-key-2"
keys Enter
wait_for "using the new key"
wait_count Blocked 4
wait_no_re '^│■.*credential_refused'
grep -qF "using the new key" "$LOG" || fail "the log does not say the new key was used"
grep -qF "tour-key-2" "$LOG" && { grep -F "tour-key-2" "$LOG" >&2; fail "the key reached the log"; }

echo "demo: q leaves a clean terminal"
keys q
expect_clean_shell "┌─ Waiting"
e2e_done
