"""The suite runner for any brain (`cluster/brain_suite.py`), with wuzi's own brain as the
engine: short forced wins of the tactics suites (data from outside this project, see
tests/data/README.md) are reported as mates, the moves are the suites' answers, a renju
row goes out under Gomocup's renju rule, a malformed suite is refused, and a brain that
never moves is stopped."""

from __future__ import annotations

import pytest

import brain_suite
from conftest import REPO

TACTICS = REPO / "tests" / "data" / "tactics"


def first_rows(name: str, n: int) -> list[brain_suite.Row]:
    return brain_suite.read_suite((TACTICS / name).read_text(encoding="utf-8"))[:n]


def test_short_wins_are_reported_with_the_answers(pbrain_binary: str) -> None:
    rows = first_rows("freestyle_vcf.tsv", 2) + first_rows("renju_vcf.tsv", 1)
    assert [r.rule for r in rows] == [0, 0, 4]
    for row in rows:
        r = brain_suite.run_row(row, pbrain_binary, 500, None)
        assert r.mate is not None and r.mate % 2 == 1, r
        assert r.in_answers, r


def test_the_setup_gives_the_side_to_move_its_own_stones() -> None:
    row = brain_suite.Row("x", 4, ["7,7", "8,8", "9,9"], [])
    lines = brain_suite.commands(row, 250)
    assert lines[:5] == [
        "START 15",
        "INFO rule 4",
        "INFO timeout_turn 250",
        "INFO timeout_match 0",
        "BOARD",
    ]
    # White is to move: black's stones are the opponent's (2).
    assert lines[5:] == ["7,7,2", "8,8,1", "9,9,2", "DONE"]


def test_a_malformed_suite_is_refused(tmp_path) -> None:
    with pytest.raises(ValueError, match="rule 'gomoku'"):
        brain_suite.read_suite("a\tgomoku\t7,7\tW\twin\t?\t-\n")
    with pytest.raises(ValueError, match="line 2"):
        brain_suite.read_suite("# comment\nonly\ttwo\n")
    bad = tmp_path / "bad.tsv"
    bad.write_text("a\tgomoku\t7,7\tW\twin\t?\t-\n", encoding="utf-8")
    assert brain_suite.main([str(bad), "--brain", "/bin/true"]) == 2


def test_a_brain_that_never_moves_is_stopped(monkeypatch) -> None:
    # `cat` echoes the setup back (no line of it is a move) and waits for more.
    monkeypatch.setattr(brain_suite, "GRACE_S", 0.5)
    row = brain_suite.Row("x", 0, ["7,7"], [])
    r = brain_suite.run_row(row, "/bin/cat", 100, None)
    assert (r.mate, r.move, r.in_answers) == (None, None, None)
