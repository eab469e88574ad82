#!/bin/bash
# The remote screen during a drain on the device, over a real sshd, through link-relay.py
# (docs/remote.md, "Figures"). Needs: an sshd that logs you in with a key (SSHD_PORT, KEY), a
# scripted instance (MARFA_API_URL, MARFA_API_KEY), a store of N waiting writes copied from
# PRISTINE to STORE, and tmux. RATE: bytes a second from the device (0: not throttled).
#   remote-screen.sh WIDTH HEIGHT
set -u
w=${1:-80}; h=${2:-24}
B=${VERDICTS_BIN:-.build/release/verdicts}
here=$(cd "$(dirname "$0")" && pwd)
cfg=$(mktemp); count=$(mktemp -u)
cat > "$cfg" <<CFG
Host measured
  ProxyCommand $here/link-relay.py 127.0.0.1 $SSHD_PORT ${RATE:-0} $count
  User $(id -un)
  IdentityFile $KEY
  IdentitiesOnly yes
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  LogLevel ERROR
CFG
rm -f "$STORE" "$STORE-wal" "$STORE-shm"; cp "$PRISTINE" "$STORE"
n=$(sqlite3 "$STORE" "select count(*) from queue")
tmux kill-session -t measured 2>/dev/null
tmux new-session -d -s measured -x "$w" -y "$h" \
  "env VERDICTS_SSH='ssh -F $cfg' VERDICTS_REMOTE_PATH=$B $B --store measured:$STORE watch; sleep 60"
for i in $(seq 1 200); do tmux capture-pane -p -t measured | grep -q "─ Dead" && break; sleep 0.1; done
sleep 2; read -r _ down0 < "$count"; echo "first view: $down0 B"
sleep 5; read -r _ down1 < "$count"; echo "idle 5 s: $((down1 - down0)) B"
t0=$(date +%s.%N); "$B" --store "$STORE" drain > /dev/null 2>&1; t1=$(date +%s.%N)
shown=$(echo "$n" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta')
for i in $(seq 1 1200); do tmux capture-pane -p -t measured | grep -q "Answered $shown" && break; sleep 0.05; done
t2=$(date +%s.%N); read -r _ down2 < "$count"
echo "drain $(echo "$t1 - $t0" | bc) s; the screen showed its end $(echo "$t2 - $t1" | bc) s after;" \
  "$((down2 - down1)) B from the device, $(((down2 - down1) / n)) B a verdict"
tmux kill-session -t measured; rm -f "$cfg" "$count"
