#!/usr/bin/env bash
# The real ncurses UI under tmux, over an in-memory queue (VerdictsUITests' TTYSmokeTests):
# first paint, keys, a confirmed withdraw, resize down to "too small" and back, a clean quit,
# and the bytes sent (idle sends nothing; one verdict changes well under 1 KB at 120x40).
# Needs tmux and script(1); builds the tests first. Helpers: lib.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init ui-smoke
cd "$E2E_ROOT"
swift build --build-tests >/dev/null
BIN=.build/debug/verdictsPackageTests.xctest
OUT="$E2E_TMP"

UI="VERDICTS_TTY=1 $BIN --testing-library swift-testing --filter TTYSmokeTests/realTerminal 2>$OUT/err"
run() { command_pane "$1"; } # $1: the command

echo "ui-smoke: panes, keys, confirm, resize, quit"
run "$UI"
wait_for "Blocked 7"
wait_for "Dead 2"
keys 3 j j j j
wait_for "Detail b-alone"
keys w
wait_for "Withdraw 1 write?"
keys y
wait_for "withdrew b-alone"
wait_for "Blocked 6"
tm resize-window -t "$SESSION" -x 70 -y 20; wait_for "─ Blocked 6"
tm resize-window -t "$SESSION" -x 40 -y 10; wait_for "3 Blk 6"
tm resize-window -t "$SESSION" -x 30 -y 8;  wait_for "too small: 30×8"
tm resize-window -t "$SESSION" -x 120 -y 40; wait_for "┌─ Blocked 6"
keys '?'; wait_for "j/k scroll · other keys close"; keys x
keys q
wait_for "EXIT=0"
screen | grep -qF "Blocked 6" && fail "the screen was not restored"
tm kill-session -t "$SESSION"

echo "ui-smoke: bytes (idle 3 s, one verdict, SIGTERM)"
run "script -q -t$OUT/timing -c 'VERDICTS_TTY_SCRIPTED=1 $UI' $OUT/typescript"
wait_for "EXIT=0"
python3 - "$OUT/timing" <<'PY'
import sys
t = 0.0; chunks = []
for line in open(sys.argv[1]):
    d, n = line.split(); t += float(d); chunks.append((t, int(n)))
first = sum(n for t, n in chunks if t < 1.0)
idle = sum(n for t, n in chunks if 1.0 <= t < 2.9)
change = sum(n for t, n in chunks if 2.9 <= t < 5.5)
print(f"first paint {first} B, idle {idle} B, one verdict {change} B")
ok = idle == 0 and 0 < change <= 1024
print("ok" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
echo "ui-smoke: passed"
