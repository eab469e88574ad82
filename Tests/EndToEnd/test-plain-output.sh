#!/usr/bin/env bash
# Output for pipes and logs never carries raw terminal controls:
# - `verdicts demo --plain --seconds 3`: the header, a line per change in the documented shape,
#   a summary naming all six blocked reasons, exit 0, and not one raw ESC / C0 / C1 / bidi byte
#   (the tour's answers carry HTML and JSON);
# - a scripted instance (`verdicts instance --scenario escape-laden.json`) whose answers carry
#   ESC sequences (CSI, OSC title, DCS), C1 controls, BEL, DEL, bidi overrides and isolates and a
#   zero-width space: `drain` and `queue` text output and `watch --plain` lines show them made
#   visible (␛, \u{202e} …), never raw; and the TUI shows the same texts without the pane's title
#   being set or its screen cleared by them.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init plain-output

# Fails when a file holds a raw control: C0 other than LF and TAB, DEL, C1 (U+0080–U+009F),
# bidi embeddings/overrides/isolates/marks, zero-width and line/paragraph separators, BOM; or
# bytes that are not UTF-8.
clean_bytes() { # $1: file, $2: what it is
  python3 - "$1" "$2" <<'PY' || fail "$2 carries raw control bytes"
import sys
data = open(sys.argv[1], "rb").read()
try:
    text = data.decode("utf-8")
except UnicodeDecodeError as e:
    print(f"{sys.argv[2]}: not UTF-8: {e}"); sys.exit(1)
bad = set(range(0x00, 0x20)) - {0x0A, 0x09} | {0x7F} | set(range(0x80, 0xA0)) \
    | set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A)) | {0x200B, 0x200C, 0x200D, 0x200E, 0x200F,
      0x2028, 0x2029, 0x061C, 0xFEFF}
found = sorted({f"U+{ord(c):04X}" for c in text if ord(c) in bad})
if found:
    for n, line in enumerate(text.split("\n"), 1):
        if any(ord(c) in bad for c in line):
            print(f"{sys.argv[2]} line {n}: {line!r}"[:300])
            break
    print(f"{sys.argv[2]}: raw {', '.join(found)}"); sys.exit(1)
PY
}

echo "plain-output: demo --plain --seconds 3"
OUT="$E2E_TMP/demo-plain.txt"
start=$SECONDS
"$VERDICTS" demo --plain --seconds 3 >"$OUT" 2>"$E2E_TMP/demo-plain.err" || fail "demo --plain failed: $(cat "$E2E_TMP/demo-plain.err")"
[ $((SECONDS - start)) -lt 30 ] || fail "demo --plain --seconds 3 took $((SECONDS - start)) s"
[ "$(head -1 "$OUT")" = "time id kind rows verdict reason streak status text" ] || fail "no header: $(head -1 "$OUT")"
python3 - "$OUT" <<'PY' || fail "demo --plain lines"
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
assert lines[-1] == "", "no final line feed"
body = [l for l in lines[1:-1] if not l.startswith("# ")]
shape = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z [0-9a-f-]{36} ([a-z_]+|-) \S+ ([a-z_]+|-) \S+ (\d+|-) \S+( .+)?$")
odd = [l for l in body if not shape.match(l)]
assert not odd, f"lines not in the documented shape: {odd[:3]}"
assert len(body) >= 20, f"only {len(body)} lines"
for verdict in ("accepted", "merged", "conflicted", "refused", "blocked", "dead"):
    assert any(f" {verdict} " in l for l in body), f"no {verdict} line"
summary = [l for l in lines if l.startswith("# summary:")]
assert len(summary) == 1, "no summary (or more than one)"
assert summary[0] == lines[-2], "the summary is not the last line"
for reason in ("credential_refused", "key_spent", "ancestor_unavailable", "conflict_unresolved",
               "failing_alone", "instance_changed"):
    assert reason in summary[0], f"the summary does not name {reason}: {summary[0]}"
PY
clean_bytes "$OUT" "demo --plain"
[ ! -s "$E2E_TMP/demo-plain.err" ] || fail "demo --plain wrote to stderr: $(cat "$E2E_TMP/demo-plain.err")"
ls "$TMPDIR" | grep -q verdicts-demo && fail "demo --plain left its temporary folder"

echo "plain-output: an instance whose answers carry escapes"
start_instance --scenario "$(dirname "$0")/escape-laden.json"
STORE="$E2E_TMP/esc.store"
V() { "$VERDICTS" --store "$STORE" --url "$INSTANCE_URL" "$@"; }
V fill >/dev/null
for t in esc-refused fine esc-gateway; do
  V items create --type note --properties "{\"title\":\"$t\"}" >/dev/null
done
PLAIN="$E2E_TMP/watch-plain.txt"
background "$VERDICTS" watch --plain --store "$STORE" >"$PLAIN" 2>"$E2E_TMP/watch-plain.err"
WATCH_PID=$BG_PID
wait_until grep -q '^time id kind rows verdict reason streak status text$' "$PLAIN"

rc=0
V drain >"$E2E_TMP/drain.txt" 2>"$E2E_TMP/drain.err" || rc=$?
[ "$rc" = 3 ] || fail "the drain should end undelivered (exit 3), got $rc: $(cat "$E2E_TMP/drain.err")"
grep -qF "unavailable: " "$E2E_TMP/drain.txt" || fail "the drain text does not say unavailable"
clean_bytes "$E2E_TMP/drain.txt" "drain text"
clean_bytes "$E2E_TMP/drain.err" "drain stderr"

V queue >"$E2E_TMP/queue.txt"
clean_bytes "$E2E_TMP/queue.txt" "queue text"
for visible in '␛]0;pwned␇' '␛[31mred␛[0m' '\u{009b}2J' '\u{202e}gnp.exe' '\u{2066}x\u{2069}' 'del␡'; do
  grep -qF -- "$visible" "$E2E_TMP/queue.txt" || fail "queue text does not show $visible: $(cat "$E2E_TMP/queue.txt")"
done
V queue --ascii >"$E2E_TMP/queue-ascii.txt"
clean_bytes "$E2E_TMP/queue-ascii.txt" "queue --ascii text"
grep -qF '\u{001b}[31mred' "$E2E_TMP/queue-ascii.txt" || fail "queue --ascii does not show \\u{001b}"
LC_ALL=C LANG=C V queue --ascii | LC_ALL=C grep -q $'[\x80-\xff]' && fail "queue --ascii printed non-ASCII bytes"
# Outside a UTF-8 locale every output path is ASCII, with or without --ascii: text, --json, errors.
for args in "queue" "--json queue" "status" "--json status" "release no-such-write" "--json release no-such-write"; do
  LC_ALL=C LANG=C V $args 2>&1 | LC_ALL=C grep -q $'[\x80-\xff]' && fail "LANG=C: $args printed non-ASCII bytes"
done
# --json in a UTF-8 locale: C1 controls and direction overrides as \u escapes, never raw.
V --json queue | LC_ALL=C grep -q $'\xc2[\x80-\x9f]\|\xe2\x80\xae' && fail "--json queue printed a raw C1 or U+202E"
V --json queue | grep -qF '\u202e' || fail "--json queue does not escape U+202E"

# watch --plain: a line for the refusal (its message) and for the gateway's failure (its text).
has_lines() {
  grep -qE ' create_item [^ ]+ refused validation_error ' "$PLAIN" &&
    grep -qE ' create_item [^ ]+ accepted ' "$PLAIN" &&
    grep -qE ' create_item [^ ]+ undelivered - 1 503 ' "$PLAIN"
}
wait_until has_lines
kill -TERM "$WATCH_PID"
wait "$WATCH_PID" || fail "watch --plain did not end cleanly on SIGTERM"
clean_bytes "$PLAIN" "watch --plain"
[ ! -s "$E2E_TMP/watch-plain.err" ] || fail "watch --plain wrote to stderr: $(cat "$E2E_TMP/watch-plain.err")"
grep -qF '␛[2J␛[H title \u{202e}evil\u{200b}' "$PLAIN" || fail "watch --plain does not show the refusal's message made visible: $(cat "$PLAIN")"
grep -qF '␛]0;pwned␇' "$PLAIN" || fail "watch --plain does not show the failure text made visible"

# Outside a UTF-8 locale, watch --plain is ASCII, byte for byte (the drain's text: OutputTests).
PLAIN_C="$E2E_TMP/watch-plain-c.out"
LC_ALL=C LANG=C background "$VERDICTS" watch --plain --store "$STORE" >"$PLAIN_C" 2>/dev/null
wait_until grep -q ' create_item [^ ]* refused validation_error ' "$PLAIN_C"
kill -TERM "$BG_PID"; wait "$BG_PID" || true
LC_ALL=C grep -q $'[\x80-\xff]' "$PLAIN_C" && fail "LANG=C: watch --plain printed non-ASCII bytes: $(cat "$PLAIN_C")"
grep -qF '\u{001b}[2J' "$PLAIN_C" || fail "LANG=C: watch --plain does not show ESC as \\u{001b}"

echo "plain-output: the TUI shows the same texts, and the terminal is untouched by them"
shell_pane
tm set-option -t "$SESSION" allow-rename on >/dev/null 2>&1 || true
tm set-option -t "$SESSION" set-titles on >/dev/null 2>&1 || true
title_before=$(tm display-message -p -t "$SESSION" '#{pane_title}')
type_line "$VERDICTS watch --store '$STORE'"
wait_re '┌─ Waiting 1 '
wait_for "undelivered 503 streak 1"
wait_for "HTTP 503 · <html><title>␛]0;pwned␇</title><body>␛[31mred␛[0m"
keys 2
wait_re '^│rows'
keys g
wait_for "bad ␛[2J␛[H title \u{202e}evil"
[ "$(tm display-message -p -t "$SESSION" '#{pane_title}')" = "$title_before" ] || fail "an answer set the pane's title"
expect_screen "┌─ Answered 2 "
python3 "$(dirname "$0")/check_screen.py" grid 120 40 < <(screen) || fail "the screen is not whole with escape-laden texts"
keys q
expect_clean_shell "┌─ Waiting"

echo "plain-output: outside a UTF-8 locale the TUI writes ASCII only"
type_line "LC_ALL=C LANG=C $VERDICTS watch --store '$STORE'"
wait_re '^[+|].* Waiting 1 '
wait_for "undelivered 503 streak 1"
screen | LC_ALL=C grep -q $'[\x80-\xff]' && fail "LANG=C: the TUI drew non-ASCII: $(screen)"
keys q
wait_gone "Waiting 1 "
e2e_done
