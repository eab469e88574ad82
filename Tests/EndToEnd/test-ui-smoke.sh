#!/usr/bin/env bash
# The real ncurses UI under tmux, over an in-memory queue (VerdictsUITests' TTYSmokeTests):
# first paint, keys, a confirmed withdraw, resize down to "too small" and back, a clean quit,
# and the bytes sent (idle sends nothing; one verdict changes well under 1 KB at 120x40).
# Needs tmux and script(1); builds the tests first. Run from the package root.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --build-tests >/dev/null
BIN=.build/debug/verdictsPackageTests.xctest
SESSION="verdicts-ui-smoke-$$"
OUT=$(mktemp -d)
trap 'tmux kill-session -t "$SESSION" 2>/dev/null || true; rm -rf "$OUT"' EXIT

UI="VERDICTS_TTY=1 $BIN --testing-library swift-testing --filter TTYSmokeTests/realTerminal 2>$OUT/err"
run() { # $1: the command
  tmux new-session -d -s "$SESSION" -x 120 -y 40 "cd '$PWD' && export TERM=tmux-256color && $1; echo EXIT=\$?; sleep 600"
}
screen() { tmux capture-pane -t "$SESSION" -p; }
wait_for() { # $1: text; waits up to 10 s
  for _ in $(seq 1 100); do screen | grep -qF -- "$1" && return 0; sleep 0.1; done
  echo "FAIL: never saw: $1"; screen; exit 1
}
keys() { tmux send-keys -t "$SESSION" "$@"; }

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
tmux resize-window -t "$SESSION" -x 70 -y 20; wait_for "─ Blocked 6"
tmux resize-window -t "$SESSION" -x 40 -y 10; wait_for "3 Blk 6"
tmux resize-window -t "$SESSION" -x 30 -y 8;  wait_for "too small: 30×8"
tmux resize-window -t "$SESSION" -x 120 -y 40; wait_for "┌─ Blocked 6"
keys '?'; wait_for "Keys (j/k scroll"; keys x
keys q
wait_for "EXIT=0"
if screen | grep -qF "Blocked 6"; then echo "FAIL: the screen was not restored"; screen; exit 1; fi
tmux kill-session -t "$SESSION"

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
