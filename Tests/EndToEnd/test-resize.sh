#!/usr/bin/env bash
# The TUI (`verdicts demo`, settled) resized with tmux resize-window: 120x40 → 80x24 → 60x16 →
# 40x10 → 30x8 ("too small") → 120x40. At each size the screen is whole (check_screen.py: boxes
# closed, pane titles with counts, the status lines, no line wider than the terminal, no stray
# corners or text), a ctrl-l repaint changes nothing (so the incremental redraw after the resize
# left no stray characters), and back at 120x40 the screen is the one it was before.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init resize
CHECK="$(dirname "$0")/check_screen.py"

# Waits until two captures 1.2 s apart agree (longer than a held detail's 1 s rest, docs/tui.md);
# leaves the screen in $E2E_TMP/stable.txt.
settle() {
  local i
  screen >"$E2E_TMP/a.txt"
  for ((i = 0; i < 10; i++)); do
    sleep 1.2
    screen >"$E2E_TMP/stable.txt"
    cmp -s "$E2E_TMP/a.txt" "$E2E_TMP/stable.txt" && return 0
    cp "$E2E_TMP/stable.txt" "$E2E_TMP/a.txt"
  done
  fail "the screen never settled"
}

check_size() { # $1 layout, $2 width, $3 height
  local layout="$1" w="$2" h="$3"
  wait_until test "$(tm display-message -p -t "$SESSION" '#{pane_width}x#{pane_height}')" = "${w}x$h"
  case "$layout" in
    grid) wait_re "^┌─ Blocked [0-9]+ ─.*┐┌─ Dead [0-9]+ ─" ;;
    stacked) wait_re "^─ Blocked [0-9]+ ─" ;;
    tabs) wait_re "^1 Wait [0-9]+ │ 2 Ans" ;;
    small) wait_for "too small: ${w}×${h} (need 40×10)" ;;
  esac
  settle
  cp "$E2E_TMP/stable.txt" "$E2E_TMP/before-repaint.txt"
  python3 "$CHECK" "$layout" "$w" "$h" <"$E2E_TMP/stable.txt" || fail "the screen is not whole at ${w}x$h"
  keys C-l
  sleep 0.2
  settle
  if ! cmp -s "$E2E_TMP/before-repaint.txt" "$E2E_TMP/stable.txt"; then
    diff "$E2E_TMP/before-repaint.txt" "$E2E_TMP/stable.txt" >&2 || true
    fail "a repaint (ctrl-l) changed the screen at ${w}x$h: the resize left stray cells"
  fi
  echo "resize: ${w}x$h whole ($layout)"
}

shell_pane
type_line "$VERDICTS demo"
wait_re '┌─ Blocked 7 '
wait_for "credential_refused"
# The first drain has ended (stopped by the refused key; the line's end may be cut at 120 columns).
wait_re '^ writer: verdicts demo \(pid [0-9]+\) · .*key refused · .*instance reachable · .*drain at [0-9:]+: '
# The demo opens with its guide over the screen: closed, what is left is the screen itself.
wait_for "Guide 1 of"
keys Escape
wait_for "guide closed"
check_size grid 120 40
cp "$E2E_TMP/stable.txt" "$E2E_TMP/first.txt"

# The repaint comparison can see stray cells: text written to the pane behind the TUI's back
# shows in the capture, and ctrl-l takes it away.
printf '\033[5;20HSTRAY-CELLS' >"$(tm display-message -p -t "$SESSION" '#{pane_tty}')"
wait_for "STRAY-CELLS"
keys C-l
wait_gone "STRAY-CELLS"
settle
cmp -s "$E2E_TMP/first.txt" "$E2E_TMP/stable.txt" || fail "ctrl-l did not give the screen back"

for size in "stacked 80 24" "stacked 60 16" "tabs 40 10" "small 30 8" "grid 120 40"; do
  set -- $size
  tm resize-window -t "$SESSION" -x "$2" -y "$3"
  check_size "$1" "$2" "$3"
done
if ! cmp -s "$E2E_TMP/first.txt" "$E2E_TMP/stable.txt"; then
  diff "$E2E_TMP/first.txt" "$E2E_TMP/stable.txt" >&2 || true
  fail "back at 120x40 the screen is not the one it was"
fi

echo "resize: a storm of resizes (no waits), then 120x40"
for size in "80 24" "40 10" "100 30" "30 8" "60 16" "41 11" "119 39" "90 25" "120 40"; do
  set -- $size
  tm resize-window -t "$SESSION" -x "$1" -y "$2"
done
check_size grid 120 40
cmp -s "$E2E_TMP/first.txt" "$E2E_TMP/stable.txt" || { diff "$E2E_TMP/first.txt" "$E2E_TMP/stable.txt" >&2; fail "after the storm the screen is not the one it was"; }

echo "resize: down to 30x8 and back in one go, then 100x30 (the smallest grid)"
tm resize-window -t "$SESSION" -x 30 -y 8
tm resize-window -t "$SESSION" -x 100 -y 30
check_size grid 100 30

keys q
expect_clean_shell "Blocked"
e2e_done
