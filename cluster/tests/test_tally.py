"""`tally.py` counts what shards hold, checked against `wuzi datagen`'s own summary of
the shards it wrote and against hand-made game headers."""

from __future__ import annotations

import re
import struct
import subprocess

import tally
from wuzicluster.shards import MAGIC, Tally


def game(outcome: int, opening: int, plies: int) -> bytes:
    """A game of `plies` plies (the first `opening` of them the opening's) on 15x15
    freestyle with `outcome` (0 black, 1 white, 2 draw); its plies are zero bytes."""
    return struct.pack("<BBBBHH", 15, 0, outcome, opening, plies, 0) + bytes(6 * plies)


def test_the_tally_agrees_with_the_run_that_wrote_the_shards(wuzi_binary, tmp_path):
    out = tmp_path / "shards"
    run = subprocess.run([wuzi_binary, "datagen", "--out", str(out), "--games", "4",
                          "--nodes", "500", "--shard-games", "2", "--seed", "3"],
                         capture_output=True, text=True, check=True)
    said = re.search(r"(\d+) games \((\d+) black wins, (\d+) white wins, (\d+) draws\), "
                     r"(\d+) positions", run.stdout + run.stderr)
    assert said, run.stdout + run.stderr
    games, black, white, draws, positions = map(int, said.groups())
    errors: list[str] = []
    t = tally.tally(str(out), errors)
    assert errors == []
    assert (t.shards, t.games, t.black, t.white, t.draws, t.positions) == (
        2, games, black, white, draws, positions)


def test_outcomes_and_positions_are_counted_from_the_headers(tmp_path):
    t = Tally()
    t.add(MAGIC + game(0, 3, 10) + game(1, 2, 5) + game(2, 0, 225))
    t.add(MAGIC + game(1, 4, 4))
    assert (t.shards, t.games, t.black, t.white, t.draws) == (2, 4, 1, 2, 1)
    assert t.positions == 7 + 3 + 225 + 0


def test_a_damaged_shard_is_named_and_skipped_and_a_part_file_ignored(tmp_path, capsys):
    (tmp_path / "a-00000.wzd").write_bytes(MAGIC + game(0, 1, 6))
    (tmp_path / "a-00001.wzd").write_bytes(MAGIC + game(0, 1, 6)[:-3])
    (tmp_path / "a-00002.part").write_bytes(MAGIC)
    assert tally.main([str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert "1 shards, 1 games, 5 positions, 1-0-0" in out
    assert "a-00001.wzd" in err and "cut short" in err
