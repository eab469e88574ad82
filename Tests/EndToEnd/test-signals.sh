#!/usr/bin/env bash
# SIGHUP (an SSH link dropping), SIGTERM and SIGINT reach the TUI mid-drain, and then:
# - the terminal is restored: the shell's prompt is back, no alternate screen, stty sane;
# - the process ended without crashing;
# - the store is consistent: `verdicts queue --json` parses and holds every write, the writer
#   role is free again, a later `verdicts drain` answers every write, and the instance applied
#   each write exactly once (its idempotency records).
# The drain is caught mid-way deterministically: the scripted instance stalls (never answers)
# the request of one write, and the signal is sent once that request has arrived.
# Then the same for `verdicts demo` mid-tour (SIGTERM, SIGHUP): terminal restored, and its
# temporary folder (store and all) removed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init signals

cat >"$E2E_TMP/stall.json" <<'JSON'
{
  "name": "stall-once-per-signal",
  "summary": "Each write titled stall-<signal> is never answered the first time it is sent.",
  "rules": [
    {"match": {"method": "POST", "path": "/items", "body_contains": "stall-HUP"}, "answers": ["stall"]},
    {"match": {"method": "POST", "path": "/items", "body_contains": "stall-TERM"}, "answers": ["stall"]},
    {"match": {"method": "POST", "path": "/items", "body_contains": "stall-INT"}, "answers": ["stall"]}
  ]
}
JSON
start_instance --scenario "$E2E_TMP/stall.json"

# The process the pane's shell runs in the foreground (the TUI).
tui_pid() { pgrep -P "$(tm display-message -p -t "$SESSION" '#{pane_pid}')" | head -1; }

# The instance holds an unanswered request whose body names $1.
stalled() {
  curl -sf "$INSTANCE_URL/_scripted/requests" | python3 -c '
import json, sys
rs = json.load(sys.stdin)["requests"]
sys.exit(0 if any(r["status"] is None and sys.argv[1] in (r["body"] or "") for r in rs) else 1)' "$1"
}

# The exit status the shell saw for the command it ran last; leaves it in $RC.
last_status() {
  type_line 'echo "RC=$?"'
  wait_re '^RC=[0-9]+$'
  RC=$(screen | grep -E '^RC=[0-9]+$' | tail -1 | cut -d= -f2)
  type_line clear
  wait_re "$PROMPT_RE"
}

not_a_crash() { # $1: exit status, $2: what
  case "$1" in
    132 | 133 | 134 | 135 | 136 | 139) fail "$2 crashed (exit $1)" ;;
  esac
}

shell_pane

for sig in HUP TERM INT; do
  echo "signals: SIG$sig to the TUI mid-drain"
  STORE="$E2E_TMP/$sig.store"
  V() { "$VERDICTS" --store "$STORE" --url "$INSTANCE_URL" "$@"; }
  V fill >/dev/null
  for t in one two "stall-$sig" four five six; do
    V items create --type note --properties "{\"title\":\"$t\"}" >/dev/null
  done
  type_line "$VERDICTS --store '$STORE' --url '$INSTANCE_URL'"
  wait_re '┌─ Waiting 6 '
  wait_re '^ writer(: verdicts tui \(pid [0-9]+\))? · '
  keys d
  wait_for "draining…"
  wait_until stalled "stall-$sig"   # mid-drain: two writes answered, the third sent and never answered
  pid=$(tui_pid)
  [ -n "$pid" ] || fail "no TUI process under the pane's shell"
  kill -"$sig" "$pid"
  wait_ended "$pid" "the TUI did not end after SIG$sig (mid-drain)"
  wait_re "$PROMPT_RE"
  last_status
  not_a_crash "$RC" "the TUI on SIG$sig"
  echo "signals: the TUI ended with status $RC on SIG$sig"
  expect_clean_shell "┌─ Waiting"

  # The store: readable, every write there, the writer role free, a drain finishes the job.
  V queue --json >"$E2E_TMP/q.json"
  python3 - "$E2E_TMP/q.json" <<'PY' || fail "queue --json after SIG$sig"
import json, sys
q = json.load(open(sys.argv[1]))
assert isinstance(q, list) and len(q) == 6, f"{len(q)} writes"
verdicts = sorted(w.get("verdict") or "" for w in q)
assert verdicts.count("accepted") == 2, verdicts
PY
  [ "$(V status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["handle"])')" = writer ] ||
    fail "the writer role was not freed after SIG$sig"
  V drain >"$E2E_TMP/drain.txt" || fail "drain after SIG$sig: $(cat "$E2E_TMP/drain.txt")"
  V queue --json | python3 -c '
import json, sys
q = json.load(sys.stdin)
bad = [w for w in q if w.get("verdict") != "accepted"]
sys.exit(1 if bad or len(q) != 6 else 0)' || fail "not every write accepted after SIG$sig"
done

echo "signals: every write applied exactly once"
curl -sf "$INSTANCE_URL/_scripted/records" | python3 -c '
import json, sys
rs = json.load(sys.stdin)["records"]
assert len(rs) == 18, f"{len(rs)} records"
assert all(r["applied"] == 1 for r in rs), [r for r in rs if r["applied"] != 1]' || fail "a write was applied twice or never"

for sig in TERM HUP; do
  echo "signals: SIG$sig to verdicts demo mid-tour"
  type_line "$VERDICTS demo"
  wait_re '┌─ Waiting [0-9]+ '
  pid=$(tui_pid)
  [ -n "$pid" ] || fail "no demo process under the pane's shell"
  ls -d "$TMPDIR"/verdicts-demo-* >/dev/null 2>&1 || fail "the demo made no temporary folder under TMPDIR"
  kill -"$sig" "$pid"
  wait_ended "$pid" "the demo did not end after SIG$sig (mid-tour)"
  wait_re "$PROMPT_RE"
  last_status
  not_a_crash "$RC" "the demo on SIG$sig"
  echo "signals: the demo ended with status $RC on SIG$sig"
  expect_clean_shell "┌─ Waiting"
  if ls -d "$TMPDIR"/verdicts-demo-* >/dev/null 2>&1; then
    fail "the demo left its temporary folder: $(ls -d "$TMPDIR"/verdicts-demo-*)"
  fi
done
e2e_done
