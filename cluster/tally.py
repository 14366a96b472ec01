#!/usr/bin/env python3
"""Counts what `wuzi datagen` shards hold, the figures of a row of docs/datagen.md.

  tally.py DIR_OR_SHARD [DIR_OR_SHARD ...] [--json]

For each argument (a directory of shards, or one `.wzd` file) prints its whole shards,
games, searched positions (the records `wuzi features` makes of them) and the games won
by black, won by white and drawn; with several arguments, their total too. A shard still
being written (`NAME.part`) is not counted; a damaged `.wzd` is named and skipped.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from wuzicluster.shards import ShardError, Tally  # noqa: E402


def shard_files(arg: str) -> list[str]:
    """The `.wzd` files that `arg` names: itself, or those in the directory, sorted."""
    if os.path.isdir(arg):
        return sorted(os.path.join(arg, f) for f in os.listdir(arg) if f.endswith(".wzd"))
    return [arg]


def tally(arg: str, errors: list[str]) -> Tally:
    """The tally of `arg`'s shards; each one that cannot be read is added to `errors`."""
    t = Tally()
    for path in shard_files(arg):
        try:
            with open(path, "rb") as f:
                t.add(f.read())
        except (OSError, ShardError) as e:
            errors.append(f"{path}: {e}")
    return t


def line(name: str, t: Tally) -> str:
    return (f"{name}: {t.shards:,} shards, {t.games:,} games, {t.positions:,} positions, "
            f"{t.black:,}-{t.white:,}-{t.draws:,} (black-white-draws)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", metavar="DIR_OR_SHARD")
    ap.add_argument("--json", action="store_true", help="one JSON object per argument")
    a = ap.parse_args(argv)
    errors: list[str] = []
    tallies = [(p, tally(p, errors)) for p in a.paths]
    total = Tally()
    for _, t in tallies:
        for k in vars(total):
            setattr(total, k, getattr(total, k) + getattr(t, k))
    if a.json:
        for p, t in tallies:
            print(json.dumps({"path": p, **vars(t)}))
    else:
        for p, t in tallies:
            print(line(p, t))
        if len(tallies) > 1:
            print(line("total", total))
    for e in errors:
        print(f"tally.py: skipped {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
