#!/usr/bin/env python3
"""Combines the pair tallies of several runs of one test into one result.

  pairs.py A,B,C,D,E [A,B,C,D,E ...] [--sprt ELO0,ELO1]

Each argument is one run's pentanomial tally: its pairs of games (an opening once with
each colour) counted by the first side's points, 0, 0.5, 1, 1.5 and 2, as
`examples/selfplay.rs`, `cluster.py sprt` and `match_sgf.py` print them. A test stopped
and resumed on other openings, or run in parts on two cores, is one test over the sum.
Prints the summed tally, the Elo with its 95% interval and, with --sprt, the sequential
test's log-likelihood ratio (alpha = beta = 0.05) and its decision.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from wuzicluster import stats  # noqa: E402


def parse_tally(text: str) -> list[int]:
    """A tally `A,B,C,D,E` (brackets and spaces allowed) as five counts."""
    fields = text.strip().strip("[]").replace(" ", "").split(",")
    counts = [int(f) for f in fields if f != ""]
    if len(counts) != 5 or min(counts) < 0:
        raise ValueError(f"'{text}': expected five counts A,B,C,D,E")
    return counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tallies", nargs="+", metavar="A,B,C,D,E")
    ap.add_argument("--sprt", metavar="ELO0,ELO1", help="the sequential test, e.g. 0,10")
    a = ap.parse_args(argv)
    try:
        runs = [parse_tally(t) for t in a.tallies]
        test = stats.parse_test(a.sprt) if a.sprt is not None else None
    except ValueError as e:
        print(f"pairs.py: {e}", file=sys.stderr)
        return 2
    total = [sum(col) for col in zip(*runs)]
    n = sum(total)
    points = sum(c * i / 2 for i, c in enumerate(total))
    elo, lo, hi = stats.elo_interval(total)
    score = 100 * points / (2 * n) if n else 0.0
    print(f"pairs {total}: {n} pairs, {points:g} of {2 * n} points ({score:.1f}%), "
          f"Elo {elo:+.0f} [{lo:+.0f}, {hi:+.0f}]")
    if test is not None:
        print(stats.sprt_text(stats.sprt_report(total, *test)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
