#!/usr/bin/env bash
# Shell completion and the man page, as a person's shell and `man` meet them:
# - bash: `verdicts completion bash` passes `bash -n`; once sourced, `complete -p verdicts` names
#   _verdicts, and the function with COMP_WORDS=(verdicts rel) COMP_CWORD=1 sets COMPREPLY=(release);
#   it offers --pane's values (`--pane=` split at `=` as bash does too), the store's short ids
#   (MARFA_DB, and --store typed on the line), files for `blobs put`, and nothing without a store
#   (which it does not create). A real interactive bash under tmux completes `verdicts rel<Tab>`
#   and `--reason=key<Tab>`.
# - zsh: `zsh -n`; the function with words/CURRENT set and compadd stubbed gives release and the
#   panes; a real zsh (compinit) under tmux completes `verdicts rel<Tab>` and `--pane=bl<Tab>`.
# - fish: `fish -n`; `complete -C 'verdicts rel'` prints release, and the panes and the ids.
# - planted ids: write ids holding `$(…)`, a backtick, `;`, `|`, `&`, a space, quotes and a line
#   break, planted in a store: bash (COMPREPLY, after no quote, `'` and `"`, and a real interactive
#   bash), zsh and fish under tmux complete each with Tab; the line, run, reads each back as it is,
#   and none of them runs (no marker file appears); the one with a line break is never offered.
# - the man page: docs/verdicts.1 is what `verdicts __man` prints now; `groff -ww -man -Tutf8` reads
#   it with nothing on stderr; `man -l` renders its sections.
# zsh or fish is skipped, saying so, only when it is not installed; bash, tmux, groff and man are
# needed (Debian: bash, tmux, zsh, fish, groff-base, man-db).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init completion

# `verdicts` on PATH, as the scripts call it by its name.
mkdir -p "$E2E_TMP/bin" "$E2E_TMP/files"
ln -s "$VERDICTS" "$E2E_TMP/bin/verdicts"
export PATH="$E2E_TMP/bin:$PATH"
unset MARFA_DB

STORE="$E2E_TMP/q.store"
ids=()
for i in 1 2 3; do
  ids+=("$(MARFA_DB="$STORE" verdicts --json items create --type note --properties "{\"n\":$i}" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')")
done
SHORTS=$(for id in "${ids[@]}"; do echo "${id: -8}"; done | sort)
PANES=$'waiting\nanswered\nblocked\ndead'
touch "$E2E_TMP/files/note.txt"

# ------------------------------------------------------------------------------------------------
echo "completion: bash"
BASH_SCRIPT="$E2E_TMP/verdicts.bash"
verdicts completion bash >"$BASH_SCRIPT"
bash -n "$BASH_SCRIPT" || fail "bash -n refuses the bash script"
[ "$(bash --norc --noprofile -c 'source "$1"; complete -p verdicts' _ "$BASH_SCRIPT")" = "complete -F _verdicts verdicts" ] ||
  fail "complete -p verdicts after sourcing the script"
# The COMPREPLY for the words after `verdicts` (the last one under the cursor), one a line.
bash_reply() {
  bash --norc --noprofile -c 'source "$1"; shift; COMP_WORDS=(verdicts "$@"); COMP_CWORD=$#; _verdicts
    (( ${#COMPREPLY[@]} == 0 )) || printf "%s\n" "${COMPREPLY[@]}"' _ "$BASH_SCRIPT" "$@"
}
expect_reply() { # $1: what, $2: the expected lines, $3: the lines given
  [ "$3" = "$2" ] || fail "$1: expected $(printf %q "$2"), got $(printf %q "$3")"
}
expect_reply "bash: rel" "release" "$(bash_reply rel)"
expect_reply "bash: queue --pane" "$PANES" "$(bash_reply queue --pane '')"
expect_reply "bash: queue --pane=bl (split at =)" "blocked" "$(bash_reply queue --pane = bl)"
expect_reply "bash: show, MARFA_DB" "$SHORTS" "$(MARFA_DB="$STORE" bash_reply show '' | sort)"
expect_reply "bash: show, --store on the line" "$SHORTS" "$(MARFA_DB=/nonexistent bash_reply --store "$STORE" show '' | sort)"
expect_reply "bash: blobs put" "note.txt" "$(cd "$E2E_TMP/files" && bash_reply blobs put no)"
expect_reply "bash: show, no store" "" "$(MARFA_DB="$E2E_TMP/none.store" bash_reply show '')"
[ ! -e "$E2E_TMP/none.store" ] || fail "completing an id created a store"

shell_pane
type_line "source '$BASH_SCRIPT'"
keys "verdicts rel" Tab
wait_for "verdicts release"
keys -- "--reason=key" Tab
wait_for "verdicts release --reason=key_spent"
keys C-u
tm kill-session -t "$SESSION"

# ------------------------------------------------------------------------------------------------
if ! command -v zsh >/dev/null 2>&1; then
  echo "completion: zsh: skipped: zsh is not installed"
else
  echo "completion: zsh"
  ZSH_SCRIPT="$E2E_TMP/zfunc/_verdicts"
  mkdir -p "$E2E_TMP/zfunc"
  verdicts completion zsh >"$ZSH_SCRIPT"
  zsh -n "$ZSH_SCRIPT" || fail "zsh -n refuses the zsh script"
  [ "$(head -1 "$ZSH_SCRIPT")" = "#compdef verdicts" ] || fail "the zsh script does not start with #compdef"
  # What compadd is given (and _files asked) for `words`, compdef and compadd stubbed.
  zsh_reply() {
    zsh -f -c '
      compdef() { :; }
      compadd() {
        local -a got
        while (( $# )); do
          case $1 in
            -a) shift; got+=("${(@P)1}") ;;
            --) shift; got+=("$@"); break ;;
            -*) ;;
            *) got+=("$1") ;;
          esac
          shift
        done
        (( ${#got} )) && print -rl -- "${got[@]}"
      }
      _files() { print -r -- "<files>"; }
      source "$1"; shift
      words=(verdicts "$@"); CURRENT=${#words}
      _verdicts' _ "$ZSH_SCRIPT" "$@"
  }
  expect_reply "zsh: rel" "release" "$(zsh_reply rel)"
  expect_reply "zsh: queue --pane" "$PANES" "$(zsh_reply queue --pane '')"
  expect_reply "zsh: queue --pane=bl" "--pane=blocked" "$(zsh_reply queue --pane=bl)"
  expect_reply "zsh: show, MARFA_DB" "$SHORTS" "$(MARFA_DB="$STORE" zsh_reply show '' | sort)"
  expect_reply "zsh: blobs put" "<files>" "$(zsh_reply blobs put '')"

  # A real zsh: the script found on $fpath by compinit, as an installed one is.
  tm new-session -d -s zsh -x 120 -y 40 \
    "env -i PATH='$PATH' HOME='$E2E_TMP' TERM=tmux-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 zsh -f"
  tm set-option -t zsh -g status off >/dev/null
  type_line "PS1='zsh\$ '; fpath=('$E2E_TMP/zfunc' \$fpath); autoload -Uz compinit; compinit -u -D; echo READY" zsh
  wait_for "READY" zsh
  keys_to zsh "verdicts rel" Tab
  wait_for "zsh\$ verdicts release" zsh
  keys_to zsh C-u
  keys_to zsh -- "verdicts queue --pane=bl" Tab
  wait_for "zsh\$ verdicts queue --pane=blocked" zsh
  keys_to zsh C-u
  tm kill-session -t zsh
fi

# ------------------------------------------------------------------------------------------------
if ! command -v fish >/dev/null 2>&1; then
  echo "completion: fish: skipped: fish is not installed"
else
  echo "completion: fish"
  FISH_SCRIPT="$E2E_TMP/verdicts.fish"
  verdicts completion fish >"$FISH_SCRIPT"
  fish --no-config -n "$FISH_SCRIPT" || fail "fish -n refuses the fish script"
  fish_reply() { # $1: the command line typed so far
    HOME="$E2E_TMP" fish --no-config -c 'source $argv[1]; complete -C $argv[2]' "$FISH_SCRIPT" "$1"
  }
  expect_reply "fish: rel" "release" "$(fish_reply 'verdicts rel')"
  expect_reply "fish: queue --pane" "$(sort <<<"$PANES")" "$(fish_reply 'verdicts queue --pane ' | sort)"
  expect_reply "fish: queue --pane=bl" "--pane=blocked" "$(fish_reply 'verdicts queue --pane=bl')"
  expect_reply "fish: show, MARFA_DB" "$SHORTS" "$(MARFA_DB="$STORE" fish_reply 'verdicts show ' | sort)"
  expect_reply "fish: blobs put" "note.txt" "$(cd "$E2E_TMP/files" && fish_reply 'verdicts blobs put no')"
fi

# ------------------------------------------------------------------------------------------------
# Write ids planted in a store (anyone who can write the store can plant one): each shell offers
# them quoted, so the line reads each back as it is and runs none of it. Each id redirects into a
# marker file (m1…m8) if the shell ever runs it; none may appear. An id holding a line break is
# never offered (it could not be one candidate).
echo "completion: planted ids"
PLANTED="$E2E_TMP/planted"
mkdir -p "$PLANTED"
HOSTILE="$PLANTED/h.store"
for i in 1 2 3 4 5 6 7 8; do
  MARFA_DB="$HOSTILE" verdicts items create --type note --properties "{\"n\":$i}" >/dev/null
done
python3 - "$HOSTILE" <<'PY'
import sqlite3, sys
ids = ["a$(>m1)", "b`>m2`", "c;>m3", "d|>m4", "e&>m5", "f >m6", "g'\"h>m7", "i\n>m8"]
db = sqlite3.connect(sys.argv[1])
rows = [r[0] for r in db.execute("SELECT id FROM queue ORDER BY seq")]
for old, new in zip(rows, ids):
    db.execute("UPDATE queue SET id = ? WHERE id = ?", (new, old))
db.commit()
PY
PLANTED_IDS=('a$(>m1)' 'b`>m2`' 'c;>m3' 'd|>m4' 'e&>m5' 'f >m6' "g'\"h>m7")
no_markers() { # $1: what ran
  local found
  found=$(cd "$PLANTED" && ls m? 2>/dev/null || true)
  [ -z "$found" ] || fail "$1 ran a planted id: $found"
}
cd "$PLANTED"
[ -z "$(verdicts __complete -- --store "$HOSTILE" show i)" ] || fail "an id holding a line break was offered"
for id in "${PLANTED_IDS[@]}"; do
  first=${id:0:1}
  # bash as the issue's repro drives it: COMPREPLY, then the line as bash reads it.
  reply=$(bash_reply --store "$HOSTILE" show "$first")
  [ "$(eval "printf '%s\n' $reply")" = "$id" ] || fail "bash: COMPREPLY $(printf %q "$reply") does not read back as $id"
  for open in "'" '"'; do
    reply=$(bash_reply --store "$HOSTILE" show "$open$first")
    [ "$(eval "printf '%s\n' $open$reply$open")" = "$id" ] ||
      fail "bash: after $open, COMPREPLY $(printf %q "$reply") does not read back as $id"
  done
  if command -v fish >/dev/null 2>&1; then
    [ "$(fish_reply "verdicts --store $HOSTILE show $first")" = "$id" ] || fail "fish: complete -C does not give $id"
  fi
done
no_markers "reading COMPREPLY"

# A real shell under tmux: Tab, then the line run with printf in front, each argument in <>.
# $1: session, $2: what the session runs, $3: how the shell is made ready
planted_in_shell() {
  local s="$1" id typed n=0
  tm new-session -d -s "$s" -x 160 -y 50 "$2"
  tm set-option -t "$s" -g status off >/dev/null
  type_line "$3; cd '$PLANTED'; echo READY-$s" "$s"
  wait_for "READY-$s" "$s"
  for typed in a b c d e f g "'a" '"g'; do
    keys_to "$s" -l -- "verdicts --store $HOSTILE show $typed"
    keys_to "$s" Tab
    sleep 0.5
    keys_to "$s" C-a
    n=$((n + 1))
    keys_to "$s" -l -- "printf '<$n:%s>\n' "
    keys_to "$s" Enter
    for id in "${PLANTED_IDS[@]}"; do [ "${id:0:1}" = "${typed: -1}" ] && break; done
    wait_for "<$n:$id>" "$s"
  done
  keys_to "$s" -l -- "verdicts --store $HOSTILE show i"
  keys_to "$s" Tab
  sleep 0.5
  keys_to "$s" C-u
  tm kill-session -t "$s"
  no_markers "$s, Tab then Enter,"
}
ENVI="env -i PATH='$PATH' HOME='$E2E_TMP' TERM=tmux-256color LANG=C.UTF-8 LC_ALL=C.UTF-8"
planted_in_shell pbash "$ENVI bash --norc --noprofile -i" "PS1='bash\$ '; source '$BASH_SCRIPT'"
if command -v zsh >/dev/null 2>&1; then
  planted_in_shell pzsh "$ENVI zsh -f" \
    "PS1='zsh\$ '; fpath=('$E2E_TMP/zfunc' \$fpath); autoload -Uz compinit; compinit -u -D"
fi
if command -v fish >/dev/null 2>&1; then
  planted_in_shell pfish "$ENVI fish --no-config" "source '$FISH_SCRIPT'"
fi
cd "$E2E_ROOT"

# ------------------------------------------------------------------------------------------------
echo "completion: the man page"
MAN="$E2E_ROOT/docs/verdicts.1"
command -v groff >/dev/null 2>&1 || fail "groff is not installed (Debian: groff-base)"
command -v man >/dev/null 2>&1 || fail "man is not installed (Debian: man-db)"
"$VERDICTS" __man | cmp -s - "$MAN" ||
  fail "docs/verdicts.1 is not what verdicts __man prints; regenerate it: swift build && \"\$(swift build --show-bin-path)/verdicts\" __man > docs/verdicts.1"
groff -ww -man -Tutf8 "$MAN" >"$E2E_TMP/groff.out" 2>"$E2E_TMP/groff.err" || fail "groff failed: $(cat "$E2E_TMP/groff.err")"
[ ! -s "$E2E_TMP/groff.err" ] || fail "groff warns: $(head -5 "$E2E_TMP/groff.err")"
MANPAGER=cat MANWIDTH=100 man -l "$MAN" >"$E2E_TMP/man.out" 2>"$E2E_TMP/man.err" || fail "man -l failed: $(cat "$E2E_TMP/man.err")"
sed 's/.\x08//g' "$E2E_TMP/man.out" >"$E2E_TMP/man.txt"
for want in "VERDICTS(1)" "NAME" "verdicts - watch a Marfa device" "SYNOPSIS" "COMMANDS" "verdicts release (ID ... | --reason REASON)" \
  "GLOBAL OPTIONS" "--store PATH" "ENVIRONMENT" "MARFA_API_KEY" "FILES" "keys.conf" "EXIT STATUS" "unauthorized" \
  "EXAMPLES" "verdicts show …43da8578" "SEE ALSO"; do
  grep -qF -- "$want" "$E2E_TMP/man.txt" || fail "man -l does not show: $want"
done
echo "completion: done"
