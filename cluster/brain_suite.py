#!/usr/bin/env python3
"""Any Gomocup brain on the rows of a suite file: does it report the row's forced win?

  brain_suite.py SUITE.tsv --brain PATH [--ms 1000] [--cwd DIR] [--json]

`wuzi solve --engine --suite` measures wuzi on a suite; this puts another engine beside it
on the same rows, the same machine and the same second, as the long-win figures of
docs/strength.md are set beside Rapfi's. Each row is a fresh brain process (so no table
is kept from the row before), given the row's rule and stones (the side to move's as its
own), `timeout_turn` MS and no game clock. A row counts as a win when the brain printed a
mate for itself before its move: a line with `eval +M<n>` (any case; wuzi writes `eval`,
Rapfi `Eval`). The row's answers, where it lists any, are checked against the move.

The suite's format is tests/data/README.md's: tab-separated `id rule moves to_move task
answers ...`, `#` lines are comments, moves are `x,y` points, black first.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import threading
from dataclasses import asdict, dataclass

from match_sgf import FREESTYLE, RENJU, STANDARD

# Gomocup's `INFO rule` of each suite rule this reads (c-gomoku-cli's codes, as the match
# reader knows them).
RULES = {"freestyle": FREESTYLE, "standard": STANDARD, "renju": RENJU}

# The board size of the suites' rows (their format names none).
SIZE = 15

# A brain that has not moved this long after its turn's time is stopped, in seconds.
GRACE_S = 5.0

MATE = re.compile(r"eval \+M(\d+)", re.IGNORECASE)
MOVE = re.compile(r"^\s*(\d+),(\d+)\s*$")


@dataclass
class Row:
    """One suite row: its id, Gomocup rule, moves and the answers it accepts (none: `?`)."""

    id: str
    rule: int
    moves: list[str]
    answers: list[str]


@dataclass
class Result:
    """What the brain did on a row: the mate length it reported (plies), its move, and
    whether that move is among the row's answers (`None` when the row lists none)."""

    id: str
    mate: int | None
    move: str | None
    in_answers: bool | None


def read_suite(text: str) -> list[Row]:
    """The rows of a suite file's text; a row with a rule this does not read is an error."""
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split("\t")
        if len(f) < 6:
            raise ValueError(f"line {n}: expected at least 6 tab-separated fields")
        if f[1] not in RULES:
            raise ValueError(f"line {n}: rule {f[1]!r} is none of {', '.join(RULES)}")
        answers = [] if f[5] in ("?", "-", "") else f[5].split()
        rows.append(Row(f[0], RULES[f[1]], f[2].split(), answers))
    return rows


def commands(row: Row, ms: int) -> list[str]:
    """The protocol lines that set up a row and ask for a move."""
    me = len(row.moves) % 2
    lines = [
        f"START {SIZE}",
        f"INFO rule {row.rule}",
        f"INFO timeout_turn {ms}",
        "INFO timeout_match 0",
        "BOARD",
    ]
    lines += [f"{m},{1 if i % 2 == me else 2}" for i, m in enumerate(row.moves)]
    return lines + ["DONE"]


def run_row(row: Row, brain: str, ms: int, cwd: str | None) -> Result:
    """Runs the brain on one row; a brain that crashes or does not move has no move."""
    p = subprocess.Popen(
        [brain],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=cwd,
    )
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write("\n".join(commands(row, ms)) + "\n")
    p.stdin.flush()
    mate, move = None, None
    # A brain that neither moves nor exits is stopped; its pipe then ends the reading.
    watchdog = threading.Timer(ms / 1000 + GRACE_S, p.kill)
    watchdog.start()
    try:
        for line in p.stdout:
            if m := MATE.search(line):
                mate = int(m.group(1))
            if m := MOVE.match(line):
                move = f"{m.group(1)},{m.group(2)}"
                break
    finally:
        watchdog.cancel()
    try:
        p.stdin.write("END\n")
        p.stdin.flush()
    except BrokenPipeError:
        pass
    try:
        p.wait(timeout=GRACE_S)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    in_answers = (move in row.answers) if row.answers else None
    return Result(row.id, mate, move, in_answers)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("suite", help="a suite file (.tsv)")
    ap.add_argument("--brain", required=True, help="the brain's executable")
    ap.add_argument("--ms", type=int, default=1000, help="timeout_turn, milliseconds")
    ap.add_argument("--cwd", help="the brain's working directory (where it reads its config)")
    ap.add_argument("--json", action="store_true", help="one JSON object a row")
    args = ap.parse_args(argv)
    try:
        with open(args.suite, encoding="utf-8") as f:
            rows = read_suite(f.read())
    except (OSError, ValueError) as e:
        print(f"brain_suite: {args.suite}: {e}", file=sys.stderr)
        return 2
    wins = 0
    for row in rows:
        r = run_row(row, args.brain, args.ms, args.cwd)
        wins += r.mate is not None
        if args.json:
            print(json.dumps(asdict(r)), flush=True)
        else:
            mate = f"+M{r.mate}" if r.mate is not None else "-"
            print(f"{r.id}\t{mate}\t{r.move or 'no move'}", flush=True)
    print(f"{args.suite}: {wins} of {len(rows)} rows with a win reported at {args.ms} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
