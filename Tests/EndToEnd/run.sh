#!/usr/bin/env bash
# End-to-end checks: the built binary, as users run it (under tmux for the TUI).
# Runs every Tests/EndToEnd/test-*.sh (or the ones named: run.sh demo resize) with VERDICTS_BIN
# set, each under a time limit, and ends with one line, `end-to-end: N passed, M failed`; the
# exit status is 0 only when every script passed.
set -uo pipefail
cd "$(dirname "$0")/../.."
bin="$(swift build --show-bin-path)/verdicts"
[ -x "$bin" ] || { echo "no binary at $bin (run swift build)"; echo "end-to-end: 0 passed, 1 failed"; exit 1; }
limit=${E2E_TIME_LIMIT:-120}   # seconds a script may take before it counts as failed
# A script that needs longer says so in a line of its own: `# time-limit: SECONDS`.
limit_of() { local own; own=$(sed -nE 's/^# time-limit: ([0-9]+)$/\1/p' "$1" | head -1); echo "${own:-$limit}"; }
tests=()
if [ $# -gt 0 ]; then
  for name in "$@"; do
    name=$(basename "$name" .sh); name=${name#test-}
    tests+=("Tests/EndToEnd/test-$name.sh")
  done
else
  for t in Tests/EndToEnd/test-*.sh; do [ -e "$t" ] && tests+=("$t"); done
fi
pass=0; fail=0; failed=(); start=$SECONDS
for t in "${tests[@]}"; do
  t0=$SECONDS
  own=$(limit_of "$t")
  if VERDICTS_BIN="$bin" timeout --kill-after=10 "$own" bash "$t" </dev/null; then
    pass=$((pass+1)); echo "ok   $t ($((SECONDS - t0)) s)"
  else
    rc=$?
    fail=$((fail+1)); failed+=("$t")
    [ "$rc" = 124 ] && echo "FAIL $t: took more than $own s" || echo "FAIL $t ($((SECONDS - t0)) s)"
  fi
done
[ "$fail" = 0 ] || echo "failed: ${failed[*]}"
echo "end-to-end time: $((SECONDS - start)) s"
echo "end-to-end: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
