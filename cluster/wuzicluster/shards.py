"""Shards of `wuzi datagen` as the driver sees them: their names, a check that a file is
a whole shard, and its count of searched positions (docs/datagen.md, "The shard format")."""

from __future__ import annotations

import os
import struct
from collections import Counter
from dataclasses import dataclass

MAGIC = b"WUZIDAT1"
RULES = ("freestyle", "standard", "renju", "caro", "caro5")
GAME_HEADER = 8
PLY_BYTES = 6


@dataclass(frozen=True)
class Run:
    """The arguments of a `wuzi datagen` run that decide its shards."""

    games: int = 1000
    nodes: int = 20000
    rule: str = "freestyle"
    size: int = 15
    shard_games: int = 100
    seed: int = 1
    eval: str = "default"
    openings: str = "centre"

    @property
    def shards(self) -> int:
        """How many shards the run has (its games rounded up to whole shards)."""
        return -(-self.games // self.shard_games)

    def name(self, k: int) -> str:
        """Shard `k`'s file name, as `Job::shard_path` makes it."""
        style = "-wide" if self.openings == "wide" else ""
        return f"{self.rule}{self.size}{style}-n{self.nodes}-s{self.seed}-{k:05}.wzd"

    @property
    def eval_file(self) -> str | None:
        """The net file the run's `--eval` names (shipped to the workers), or None."""
        return None if self.eval in ("default", "classical") else self.eval

    def args(self, worker: bool = False) -> list[str]:
        """The `wuzi datagen` flags of the run (without `--out`, `--workers`, `--shards`);
        on a worker a net file is the shipped copy, by its base name."""
        eval_arg = self.eval
        if worker and self.eval_file:
            eval_arg = os.path.basename(self.eval_file)
        return ["--games", str(self.games), "--nodes", str(self.nodes), "--rule", self.rule,
                "--size", str(self.size), "--shard-games", str(self.shard_games),
                "--seed", str(self.seed), "--eval", eval_arg, "--openings", self.openings]


class ShardError(ValueError):
    """Bytes that are not a whole shard."""


def read_games(data: bytes, size: int | None = None) -> list[tuple[int, int, int]]:
    """The games of a shard's bytes as (outcome, opening plies, plies), after checking
    them: the magic, every game's header and plies whole, a known rule and outcome, and
    (when given) the board size. Raises `ShardError` with the offset and the reason."""
    if data[:8] != MAGIC:
        raise ShardError("not a shard (wrong magic)")
    off, found = 8, []
    while off < len(data):
        if off + GAME_HEADER > len(data):
            raise ShardError(f"offset {off}: a game header cut short")
        b_size, rule, outcome, opening, plies, _ = struct.unpack_from("<BBBBHH", data, off)
        if rule >= len(RULES) or outcome > 2 or opening > plies:
            raise ShardError(f"offset {off}: a bad game header")
        if size is not None and b_size != size:
            raise ShardError(f"offset {off}: board size {b_size}, not {size}")
        end = off + GAME_HEADER + plies * PLY_BYTES
        if end > len(data):
            raise ShardError(f"offset {off}: a game cut short")
        found.append((outcome, opening, plies))
        off = end
    return found


def searched(games: list[tuple[int, int, int]]) -> int:
    """The searched positions of games as `read_games` gives them: the plies after each
    game's opening."""
    return sum(plies - opening for _, opening, plies in games)


def positions(data: bytes, games_wanted: int | None = None, size: int | None = None) -> int:
    """The searched positions of a shard's bytes, checked as `read_games` checks them and
    (when given) for the number of games. Raises `ShardError` with the reason."""
    found = read_games(data, size)
    if games_wanted is not None and len(found) != games_wanted:
        raise ShardError(f"{len(found)} games, not {games_wanted}")
    return searched(found)


@dataclass
class Tally:
    """What a set of shards holds: shards, games, searched positions, and the games won by
    black, won by white and drawn (the header's outcome: 0, 1, 2)."""

    shards: int = 0
    games: int = 0
    positions: int = 0
    black: int = 0
    white: int = 0
    draws: int = 0

    def add(self, data: bytes) -> None:
        """Adds one shard's bytes, checked as `read_games` checks them (`ShardError`)."""
        found = read_games(data)
        won = Counter(outcome for outcome, _, _ in found)
        self.shards += 1
        self.games += len(found)
        self.positions += searched(found)
        self.black += won[0]
        self.white += won[1]
        self.draws += won[2]


def complete(path: str | os.PathLike, run: Run) -> bool:
    """Is `path` a whole shard of `run` (as `wuzi datagen` judges: readable, all its games)?"""
    try:
        with open(path, "rb") as f:
            positions(f.read(), run.shard_games, run.size)
        return True
    except (OSError, ShardError):
        return False


def write_whole(path: str | os.PathLike, data: bytes) -> None:
    """Writes `data` to `path` so that `path` holds nothing or the whole: into `NAME.part`
    (the name `wuzi datagen` uses), flushed to disk, then renamed over `path`."""
    path = os.fspath(path)
    part = os.path.splitext(path)[0] + ".part"
    with open(part, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(part, path)
