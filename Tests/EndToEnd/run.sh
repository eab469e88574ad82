#!/usr/bin/env bash
# End-to-end checks: the built binary, as users run it (under tmux for the TUI).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="$(swift build --show-bin-path)/verdicts"
pass=0; fail=0
for t in Tests/EndToEnd/test-*.sh; do
  [ -e "$t" ] || continue
  if VERDICTS_BIN="$bin" bash "$t"; then pass=$((pass+1)); echo "ok   $t"; else fail=$((fail+1)); echo "FAIL $t"; fi
done
echo "end-to-end: $pass passed, $fail failed"
[ "$fail" = 0 ]
