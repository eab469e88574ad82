#!/usr/bin/env bash
# Writes packaging/startup-order.txt: the functions the release binary runs when it starts the
# commands support staff type on a device (--version, status, queue --json, watch --plain
# --from now, the watch TUI's first frame), in the order they first run, as callgrind sees them.
# `make release` links with it (lld's --symbol-ordering-file, every function in its own section):
# the code a start needs sits together, so the kernel maps fewer pages of the binary (each page
# fault maps the 64 KiB around it). A stale list costs only memory, never correctness: functions
# it no longer names are placed as the linker would place them.
#
# Usage: packaging/startup-order.sh BINARY (an unstripped release build: it needs the symbols)
set -euo pipefail
binary=$1
out=$(dirname "$0")/startup-order.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME=$work/home MARFA_API_KEY=tour-key-1 TERM=xterm-256color LANG=C.UTF-8
mkdir -p "$HOME"
store=$work/s.store
port=$((20000 + RANDOM % 20000))
"$binary" instance --port "$port" >"$work/instance.log" 2>&1 &
instance=$!
trap 'kill $instance 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do grep -q listening "$work/instance.log" && break; sleep 0.1; done
"$binary" --store "$store" --url "http://127.0.0.1:$port" fill >/dev/null
for i in $(seq 20); do "$binary" --store "$store" items create --type note --properties "{\"n\":$i}" >/dev/null; done
"$binary" --store "$store" --url "http://127.0.0.1:$port" drain >/dev/null || true
for i in $(seq 5); do "$binary" --store "$store" items create --type note --properties "{\"n\":$i}" >/dev/null; done
run() { valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/cg.$1" "${@:2}" >/dev/null 2>&1 || true; }
run 1 "$binary" --version
run 2 "$binary" --store "$store" status
run 3 "$binary" --store "$store" queue --json
run 4 timeout -s INT 4 "$binary" --store "$store" watch --plain --from now
# The TUI needs a terminal: script(1) gives it a pty of 120x40.
run 5 timeout -s INT 8 script -qfec "stty cols 120 rows 40; valgrind --tool=callgrind --demangle=no --callgrind-out-file=$work/cg.6 $binary --store $store watch" /dev/null
python3 - "$out" "$work"/cg.1 "$work"/cg.2 "$work"/cg.3 "$work"/cg.4 "$work"/cg.6 <<'PY'
import re, sys, os
order, seen = [], set()
for path in sys.argv[2:]:
    if not os.path.exists(path):
        continue
    objects, functions, current = {}, {}, None
    for line in open(path, errors="replace"):
        m = re.match(r"(c?)ob=\((\d+)\)(?: (.*))?", line)
        if m:
            if m.group(3):
                objects[m.group(2)] = m.group(3)
            if not m.group(1):
                current = objects.get(m.group(2))
            continue
        m = re.match(r"(c?)fn=\((\d+)\)(?: (.*))?", line)
        if m:
            if m.group(3):
                functions[m.group(2)] = m.group(3)
            name = functions.get(m.group(2))
            if not m.group(1) and current and os.path.basename(current) == "verdicts" and name \
                    and not name.startswith("0x") and name not in seen:
                seen.add(name)
                order.append(name)
open(sys.argv[1], "w").write("\n".join(order) + "\n")
print(f"{sys.argv[1]}: {len(order)} functions")
PY
