#!/usr/bin/env bash
# `y` inside a real tmux: with `set -g set-clipboard on` the ID lands in tmux's buffer
# (`tmux show-buffer`), and the status line says it was sent to the terminal, never `copied`;
# with tmux's default (`external`) no buffer is made and the line says how to let it on; with
# `set -g allow-passthrough on` the copy reaches the terminal outside tmux (an attached client in
# a pty `script` records: its bytes hold the OSC 52 with the ID).
# Helpers: lib.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init clipboard
STORE="$E2E_TMP/q.store"
ID=$("$VERDICTS" --store "$STORE" --json items create --type note --properties '{}' |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')

echo "clipboard: tmux's default keeps no copy; the line says how to let it on"
command_pane "HOME='$E2E_TMP' '$VERDICTS' --store '$STORE'"
wait_for "Waiting 1"
keys y
wait_for "sent $ID to the terminal through tmux"
expect_not_screen "copied"
if tm show-buffer >/dev/null 2>&1; then fail "tmux made a buffer under set-clipboard external"; fi
keys q
wait_for "EXIT=0"

echo "clipboard: with set-clipboard on, tmux's buffer holds the ID"
command_pane "HOME='$E2E_TMP' '$VERDICTS' --store '$STORE'" clipboard-on
tm kill-session -t "$SESSION"
SESSION=clipboard-on
tm set-option -g set-clipboard on
wait_for "Waiting 1"
keys y
wait_for "sent $ID to the terminal through tmux"
buffer_is_id() { [ "$(tm show-buffer 2>/dev/null)" = "$ID" ]; }
WHY="tmux's buffer does not hold $ID" wait_until buffer_is_id
keys q
wait_for "EXIT=0"

echo "clipboard: with allow-passthrough on, the outer terminal receives the copy"
# The new session comes before the old one goes: a server left with none exits, and a session
# asked of it while it exits is refused ("server exited unexpectedly").
command_pane "HOME='$E2E_TMP' '$VERDICTS' --store '$STORE'" passthrough
tm kill-session -t "$SESSION"
SESSION=passthrough
tm set-option -g set-clipboard off
tm set-option -g allow-passthrough on
wait_for "Waiting 1"
OUTER="$E2E_TMP/outer.bin"
# The outer terminal: a client attached in a pty of its own, every byte it is sent kept. Its
# input is a fifo this shell holds open and never writes: `script` types ctrl-d into the client
# when its input ends (it did with </dev/null, and the screen took the ctrl-d, sometimes after
# the y, whose message it then replaced).
OUTER_IN="$E2E_TMP/outer.in"
mkfifo "$OUTER_IN"
TERM=xterm-256color script -qfc "tmux -S '$E2E_SOCK' -f /dev/null attach -t '$SESSION'" "$OUTER" <"$OUTER_IN" >/dev/null 2>&1 &
OUTER_PID=$!
E2E_PIDS+=("$OUTER_PID")
exec 7>"$OUTER_IN"
outer_attached() { [ "$(tm list-clients -t "$SESSION" 2>/dev/null | wc -l)" -ge 1 ]; }
WHY="no client attached to the session" wait_until outer_attached
keys y
wait_for "sent $ID to the terminal through tmux"
B64=$(printf '%s' "$ID" | base64 -w0)
outer_has_copy() { grep -aqF "]52;c;$B64" "$OUTER"; }
WHY="the outer terminal never received the OSC 52 with $ID" wait_until outer_has_copy
kill "$OUTER_PID" 2>/dev/null || true
exec 7>&-
keys q
wait_for "EXIT=0"
echo "clipboard: ok ($((SECONDS - E2E_START)) s)"
