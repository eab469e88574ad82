#!/usr/bin/env python3
"""ssh ProxyCommand (docs/measure/remote-screen.sh): relay stdin/stdout to HOST PORT, counting bytes each way into COUNTFILE,
the device-to-person direction throttled to RATE bytes a second (0: not throttled)."""
import os, socket, sys, threading, time
host, port, rate, countfile = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
s = socket.create_connection((host, port))
counts = {"up": 0, "down": 0}
lock = threading.Lock()
def save():
  with lock:
    with open(countfile + ".tmp", "w") as f: f.write(f"{counts['up']} {counts['down']}\n")
    os.replace(countfile + ".tmp", countfile)
def up():
    while True:
        b = os.read(0, 65536)
        if not b: break
        s.sendall(b); counts["up"] += len(b); save()
    s.shutdown(socket.SHUT_WR)
threading.Thread(target=up, daemon=True).start()
budget_start = time.monotonic(); sent = 0
while True:
    b = s.recv(512 if rate else 65536)
    if not b: break
    if rate:
        now = time.monotonic()
        budget_start = max(budget_start, now) + len(b) / rate
        if budget_start > now: time.sleep(budget_start - now)
    os.write(1, b); counts["down"] += len(b); save()
