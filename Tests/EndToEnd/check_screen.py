#!/usr/bin/env python3
"""Checks a `tmux capture-pane -p` of the verdicts TUI is whole for its size.

usage: check_screen.py LAYOUT WIDTH HEIGHT < screen.txt
LAYOUT: grid (100x30 and up), stacked (60x16 and up), tabs (40x10 and up), small.
Prints what is wrong and exits 1; exits 0 when the screen is whole.
"""
import re
import sys
import unicodedata

PANES = ["Waiting", "Answered", "Blocked", "Dead"]


def width(s):
    w = 0
    for ch in s:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        w += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return w


def cells(line, w):
    """The line as a list of w cells (a wide character takes its cell and an empty one)."""
    out = []
    for ch in line:
        cw = width(ch)
        if cw == 0:
            continue
        out.append(ch)
        if cw == 2:
            out.append("")
    return out + [" "] * (w - len(out))


def main():
    layout, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    lines = sys.stdin.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    problems = []

    def bad(msg):
        problems.append(msg)

    if len(lines) != h:
        bad(f"{len(lines)} lines, expected {h}")
    lines = (lines + [""] * h)[:h]
    for i, l in enumerate(lines):
        if width(l) > w:
            bad(f"line {i + 1} is {width(l)} cells wide (> {w}): {l!r}")
        for ch in l:
            if ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 or ch == "\ufffd":
                bad(f"line {i + 1} holds a raw control or replacement character {ch!r}")
    grid = [cells(l, w) for l in lines]

    def boxes():
        """Every ┌ starts a box; returns (top, left, bottom, right, title) or reports why not."""
        found = []
        for r, row in enumerate(grid):
            for c, ch in enumerate(row):
                if ch != "┌":
                    continue
                try:
                    c2 = row.index("┐", c + 1)
                except ValueError:
                    bad(f"box at line {r + 1} col {c + 1}: no ┐ on its top line")
                    continue
                top = "".join(row[c:c2 + 1])
                m = re.match(r"^┌─ (\S.*?) ─+(?: (.+) ─)?┐$", top)
                if not m:
                    bad(f"box at line {r + 1}: top border not whole: {top!r}")
                r2 = r + 1
                while r2 < h and grid[r2][c] == "│":
                    if grid[r2][c2] != "│":
                        bad(f"box at line {r + 1}: right border broken at line {r2 + 1}: {''.join(grid[r2])!r}")
                    r2 += 1
                if r2 >= h or grid[r2][c] != "└" or grid[r2][c2] != "┘":
                    bad(f"box at line {r + 1}: no bottom corners at line {r2 + 1}")
                    continue
                bottom = "".join(grid[r2][c + 1:c2])
                if bottom.strip("─"):
                    bad(f"box at line {r + 1}: bottom border not whole: {bottom!r}")
                found.append((r, c, r2, c2, m.group(1) if m else ""))
        return found

    def corners_all_boxed(bs):
        n = {ch: sum(row.count(ch) for row in grid) for ch in "┌┐└┘"}
        if len(set(n.values())) != 1 or n["┌"] != len(bs):
            bad(f"stray box corners: {n}, {len(bs)} whole boxes")

    def status_block(first):
        # The last line is the keys' (it may start with a key); the others start with a blank.
        for i in range(first, h - 1):
            if not lines[i].startswith(" ") and lines[i].strip():
                bad(f"status line {i + 1} does not start with a blank: {lines[i]!r}")
        if not re.match(r"^ (writer|read-only)", lines[first]):
            bad(f"status line {first + 1} does not say writer or read-only: {lines[first]!r}")

    if layout == "grid":
        bs = boxes()
        corners_all_boxed(bs)
        titles = [b[4] for b in bs]
        for p in PANES:
            # Answered's title may count its refused writes: "Answered 601 · 1 refused".
            if not any(re.match(rf"^{p} [\d,]+( · [\d,]+ refused)?$", t) for t in titles):
                bad(f"no whole box titled {p} N (titles: {titles})")
        if not any(t.startswith("Detail") for t in titles):
            bad(f"no Detail box (titles: {titles})")
        last_box_row = max((b[2] for b in bs), default=-1)
        for i in range(0, last_box_row + 1):
            row = grid[i]
            if row[0] not in "┌│└" or row[w - 1] not in "┐│┘":
                bad(f"line {i + 1} is not inside the boxes edge to edge: {lines[i]!r}")
        # Two status rows and the keys; a message too long for the keys' line adds up to six
        # rows of its own between them (status_block checks each starts with a blank).
        if not 2 <= h - 1 - last_box_row <= 3 + 6:
            bad(f"{h - 1 - last_box_row} status lines below the boxes")
        status_block(last_box_row + 1)
    elif layout == "stacked":
        rules = {}
        for i, l in enumerate(lines):
            m = re.match(r"^─ (\w+) ([\d,]+)( · [\d,]+ refused)? ─", l)
            if m:
                rules[m.group(1)] = i
                if width(l) != w or not re.match(r"^─ \w+ [\d,]+( · [\d,]+ refused)? ─+( .+ ─)?$", l):
                    bad(f"title rule at line {i + 1} not whole: {l!r}")
        for p in PANES:
            if p not in rules:
                bad(f"no title rule for {p}")
        bs = boxes()
        corners_all_boxed(bs)
        if not any(b[4].startswith("Detail") for b in bs):
            bad("no Detail box")
        last = max((b[2] for b in bs), default=max(rules.values(), default=0))
        for b in bs:
            if b[1] != 0 or b[3] != w - 1:
                bad(f"the detail box does not span the width: cols {b[1] + 1}–{b[3] + 1}")
        status_block(last + 1)
    elif layout == "tabs":
        if not re.match(r"^1 Wait \d+ │ 2 Ans \d+ │ 3 Blk \d+ │ 4 Dead \d+", lines[0]):
            bad(f"no tab line: {lines[0]!r}")
        if any(ch in "┌┐└┘" for row in grid for ch in row):
            bad("box corners left on the one-pane screen")
        status_block(h - 2)
    elif layout == "small":
        want = f"too small: {w}×{h} (need 40×10)"
        if lines[0] != want:
            bad(f"first line {lines[0]!r}, expected {want!r}")
        for i in range(1, h):
            if lines[i].strip():
                bad(f"stray text on line {i + 1}: {lines[i]!r}")
    else:
        bad(f"unknown layout {layout}")

    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
