#!/usr/bin/env bash
# `y` inside a real tmux: with `set -g set-clipboard on` the ID lands in tmux's buffer
# (`tmux show-buffer`), and the status line says it was sent to the terminal, never `copied`;
# with tmux's default (`external`) no buffer is made and the line says how to let it on.
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
tm kill-session -t "$SESSION"

echo "clipboard: with set-clipboard on, tmux's buffer holds the ID"
command_pane "HOME='$E2E_TMP' '$VERDICTS' --store '$STORE'"
tm set-option -g set-clipboard on
wait_for "Waiting 1"
keys y
wait_for "sent $ID to the terminal through tmux"
buffer_is_id() { [ "$(tm show-buffer 2>/dev/null)" = "$ID" ]; }
WHY="tmux's buffer does not hold $ID" wait_until buffer_is_id
keys q
wait_for "EXIT=0"
echo "clipboard: ok ($((SECONDS - E2E_START)) s)"
