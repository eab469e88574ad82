# Shared helpers for the end-to-end scripts; source it after `set -euo pipefail`:
#
#   . "$(dirname "$0")/lib.sh"
#   e2e_init demo            # a private tmux server, a temp folder $E2E_TMP, cleanup on exit
#   shell_pane               # a 120x40 pane running a plain shell (prompt "e2e$ ")
#   type_line "$VERDICTS demo"
#   wait_for "Blocked 7"     # waits on the screen, never a bare sleep
#
# Every session runs on its own tmux socket (tmux -S, in the temp folder), so the scripts never see or touch another
# tmux server; the cleanup kills that server, every process started with `background`, and the
# temp folder. TERM=tmux-256color, LANG=C.UTF-8, 120x40.

E2E_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [ -z "${VERDICTS_BIN:-}" ]; then
  VERDICTS_BIN="$(cd "$E2E_ROOT" && swift build --show-bin-path)/verdicts"
fi
VERDICTS="$VERDICTS_BIN"
export LANG=C.UTF-8 LC_ALL=C.UTF-8
# Nothing from the person's own setup: config, keys, theme, XDG state.
unset MARFA_DB MARFA_API_URL MARFA_API_KEY VERDICTS_THEME NO_COLOR

E2E_NAME=""
E2E_SOCK=""
E2E_TMP=""
SESSION=""
E2E_PIDS=()
E2E_WAIT=${E2E_WAIT:-15}   # seconds a wait_* gives the screen (the machine may be busy)
PROMPT='e2e$ '
PROMPT_RE='^e2e\$$'   # an empty prompt line (capture-pane drops trailing blanks)

e2e_init() { # $1: the script's short name
  E2E_NAME="$1"
  SESSION="main"
  E2E_TMP="$(mktemp -d "${TMPDIR:-/tmp}/verdicts-e2e-$1.XXXXXX")"
  E2E_SOCK="$E2E_TMP/tmux.sock"   # its own server; the socket goes with the temp folder
  E2E_TMP_PARENT="${TMPDIR:-/tmp}"
  export XDG_CONFIG_HOME="$E2E_TMP/config" XDG_STATE_HOME="$E2E_TMP/state" HOME_FOR_TESTS="$E2E_TMP"
  export TMPDIR="$E2E_TMP/tmp"   # the demo's own temp folder lands inside ours
  mkdir -p "$XDG_CONFIG_HOME" "$XDG_STATE_HOME" "$TMPDIR"
  trap e2e_cleanup EXIT
  trap 'exit 130' INT TERM HUP
  E2E_START=$SECONDS
}

e2e_cleanup() {
  local rc=$?
  tmux -S "$E2E_SOCK" kill-server 2>/dev/null || true
  local p
  for p in "${E2E_PIDS[@]}"; do
    kill "$p" 2>/dev/null || true
  done
  for p in "${E2E_PIDS[@]}"; do
    for _ in $(seq 1 30); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null || true
  done
  # A process the tmux server took down may still be closing its files.
  for _ in $(seq 1 20); do rm -rf "$E2E_TMP" 2>/dev/null && break; sleep 0.1; done
  return $rc
}

tm() { tmux -S "$E2E_SOCK" -f /dev/null "$@"; }

# A 120x40 pane (or $1 x $2) running bash without rc files; $3: a session name (default: main).
shell_pane() {
  local w="${1:-120}" h="${2:-40}" s="${3:-$SESSION}"
  tm new-session -d -s "$s" -x "$w" -y "$h" \
    "env -i PATH='$PATH' HOME='$E2E_TMP' TERM=tmux-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 \
     XDG_CONFIG_HOME='$XDG_CONFIG_HOME' XDG_STATE_HOME='$XDG_STATE_HOME' TMPDIR='$TMPDIR' PS1='$PROMPT' \
     bash --norc --noprofile -i"
  tm set-option -t "$s" -g status off >/dev/null
  tm set-option -t "$s" -g remain-on-exit on >/dev/null
  wait_re "$PROMPT_RE" "$s"
}

# A pane running one command directly (no shell); the pane stays after it ends.
command_pane() { # $1: the command line, $2: session name (default main)
  local s="${2:-$SESSION}"
  tm new-session -d -s "$s" -x 120 -y 40 \
    "cd '$E2E_ROOT' && export TERM=tmux-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 TMPDIR='$TMPDIR' && $1; echo EXIT=\$?; sleep 600"
  tm set-option -t "$s" -g status off >/dev/null
}

keys() { tm send-keys -t "$SESSION" "$@"; }
keys_to() { local s="$1"; shift; tm send-keys -t "$s" "$@"; }
# Types a line literally into the pane's shell, then Enter.
type_line() { # $1: the line, $2: session
  local s="${2:-$SESSION}"
  tm send-keys -t "$s" -l -- "$1"
  tm send-keys -t "$s" Enter
}

screen() { tm capture-pane -t "${1:-$SESSION}" -p; }
# The whole history too (for the shell's output above the visible screen).
history() { tm capture-pane -t "${1:-$SESSION}" -p -S -2000; }

fail() {
  echo "FAIL [$E2E_NAME]: $*" >&2
  if [ -n "$E2E_SOCK" ] && tm has-session 2>/dev/null; then
    echo "----- screen -----" >&2
    screen >&2 || true
    echo "------------------" >&2
  fi
  exit 1
}

# wait_for TEXT [SESSION] [SECONDS]: the screen shows TEXT (fixed string).
wait_for() {
  local text="$1" s="${2:-$SESSION}" t="${3:-$E2E_WAIT}" i
  for ((i = 0; i < t * 20; i++)); do
    screen "$s" | grep -qF -- "$text" && return 0
    sleep 0.05
  done
  fail "never saw: $text"
}

# wait_re REGEX [SESSION] [SECONDS]: the screen matches the extended regex.
wait_re() {
  local re="$1" s="${2:-$SESSION}" t="${3:-$E2E_WAIT}" i
  for ((i = 0; i < t * 20; i++)); do
    screen "$s" | grep -qE -- "$re" && return 0
    sleep 0.05
  done
  fail "never matched: $re"
}

# wait_gone TEXT [SESSION] [SECONDS]: the screen no longer shows TEXT.
wait_gone() {
  local text="$1" s="${2:-$SESSION}" t="${3:-$E2E_WAIT}" i
  for ((i = 0; i < t * 20; i++)); do
    screen "$s" | grep -qF -- "$text" || return 0
    sleep 0.05
  done
  fail "still shows: $text"
}

# wait_no_re REGEX [SESSION] [SECONDS]: no line of the screen matches the extended regex.
wait_no_re() {
  local re="$1" s="${2:-$SESSION}" t="${3:-$E2E_WAIT}" i
  for ((i = 0; i < t * 20; i++)); do
    screen "$s" | grep -qE -- "$re" || return 0
    sleep 0.05
  done
  fail "still matches: $re"
}

# wait_until CMD...: polls a command until it succeeds (WHY, if set, says what failed).
wait_until() {
  local i
  for ((i = 0; i < E2E_WAIT * 20; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.05
  done
  fail "${WHY:-never true: $*}"
}

# Waits for a process to end; fails saying $2 if it is still there after E2E_WAIT seconds.
wait_ended() { # $1: pid, $2: what
  local i
  for ((i = 0; i < E2E_WAIT * 20; i++)); do
    kill -0 "$1" 2>/dev/null || return 0
    sleep 0.05
  done
  echo "still running: $(ps -o pid,stat,etime,args -p "$1" | tail -1)" >&2
  fail "$2"
}

# The screen shows TEXT now.
expect_screen() { screen "${2:-$SESSION}" | grep -qF -- "$1" || fail "the screen does not show: $1"; }
expect_not_screen() { ! screen "${2:-$SESSION}" | grep -qF -- "$1" || fail "the screen still shows: $1"; }

# Runs a command in the background, killed by the cleanup. Sets BG_PID.
background() {
  "$@" &
  BG_PID=$!
  E2E_PIDS+=("$BG_PID")
}

# A TCP port free on loopback right now.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# Starts `verdicts instance` in the background on a free port; sets INSTANCE_URL and INSTANCE_PID.
# Extra arguments go to the command (e.g. --scenario FILE).
start_instance() {
  local port out
  port=$(free_port)
  out="$E2E_TMP/instance-$port.out"
  background "$VERDICTS" instance --port "$port" "$@" >"$out" 2>&1
  INSTANCE_PID=$BG_PID
  INSTANCE_URL="http://127.0.0.1:$port"
  local i
  for ((i = 0; i < E2E_WAIT * 20; i++)); do
    grep -q "listening at" "$out" 2>/dev/null && return 0
    kill -0 "$INSTANCE_PID" 2>/dev/null || { cat "$out" >&2; fail "verdicts instance ended"; }
    sleep 0.05
  done
  cat "$out" >&2
  fail "verdicts instance never listened on $port"
}

# Checks the pane's shell is back and its terminal is sane: the prompt shows, nothing of the
# TUI is left (no alternate screen), and `stty -a` has icanon and echo on.
expect_clean_shell() { # $1: text of the TUI that must be gone; $2: session
  local gone="$1" s="${2:-$SESSION}"
  wait_re "$PROMPT_RE" "$s"
  [ "$(tm display-message -p -t "$s" '#{alternate_on}')" = 0 ] || fail "the pane is still on the alternate screen"
  # The cursor shown again, keypad and mouse modes off, no scroll region left.
  local modes
  modes=$(tm display-message -p -t "$s" 'cursor=#{cursor_flag} keypad=#{keypad_flag} keypad_cursor=#{keypad_cursor_flag} mouse=#{mouse_any_flag} insert=#{insert_flag} scroll=#{scroll_region_upper}-#{scroll_region_lower}')
  [ "$modes" = "cursor=1 keypad=0 keypad_cursor=0 mouse=0 insert=0 scroll=0-$(($(tm display-message -p -t "$s" '#{pane_height}') - 1))" ] ||
    fail "the terminal's modes were not restored: $modes"
  expect_not_screen "$gone" "$s"
  rm -f "$E2E_TMP/stty.txt"
  type_line "stty -a >'$E2E_TMP/stty.txt'; echo STTY-\$((40+2))" "$s"
  wait_for "STTY-42" "$s"
  local flags
  flags=$(tr ' ;' '\n\n' <"$E2E_TMP/stty.txt" | grep -xE -- '-?(icanon|echo|isig|icrnl|opost|onlcr)' | sort | tr '\n' ' ')
  local f
  for f in icanon echo isig icrnl opost onlcr; do
    echo " $flags" | grep -qE -- " $f( |$)" || fail "the terminal was left raw (stty: $flags)"
  done
}

# The last lines of the screen that are not blank.
nonblank_tail() { screen "${1:-$SESSION}" | grep -v '^ *$' | tail -"${2:-3}"; }

e2e_done() { echo "$E2E_NAME: passed in $((SECONDS - E2E_START)) s"; }
