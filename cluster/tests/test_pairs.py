"""The tally combiner (`cluster/pairs.py`): runs summed, their Elo and sequential test."""

from __future__ import annotations

import pairs


def test_runs_are_summed(capsys) -> None:
    assert pairs.main(["9,11,63,14,15", "[4, 0, 12, 3, 0]", "--sprt", "0,10"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("pairs [13, 11, 75, 17, 15]: 131 pairs, 136 of 262 points")
    assert "SPRT [0, 10]: LLR 0.34" in out and "undecided" in out


def test_bad_tallies_are_refused(capsys) -> None:
    assert pairs.main(["1,2"]) == 2
    assert "expected five counts" in capsys.readouterr().err
    assert pairs.main(["1,2,3,4,x"]) == 2
    assert pairs.main(["1,2,3,4,5", "--sprt", "0"]) == 2
