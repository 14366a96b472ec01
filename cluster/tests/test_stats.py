"""The match statistics (`wuzicluster.stats`): Elo and its interval, the SPRT's ratio."""

from __future__ import annotations

import pytest

from wuzicluster import stats


def test_elo_and_score_are_inverse():
    assert stats.expected(0) == 0.5 and stats.elo_of(0.5) == 0
    assert stats.elo_of(stats.expected(123.0)) == pytest.approx(123.0)


def test_the_sequential_test():
    lo, hi = stats.bounds(0.05, 0.05)
    assert (lo, hi) == pytest.approx((-2.944, 2.944), abs=1e-3)
    # An even tally: Elo 0 within a symmetric interval, the LLR against elo1 > 0 negative.
    even = [5, 10, 20, 10, 5]
    elo, low, high = stats.elo_interval(even)
    assert elo == pytest.approx(0) and low == pytest.approx(-high)
    assert stats.llr(even, 0, 10) < 0 < stats.llr(even, -10, 0)
    # The formula: (s1 - s0) (2 mean - s0 - s1) n / (2 var), mean and var of pair scores.
    penta = [1, 2, 10, 20, 7]
    n = sum(penta)
    mean = sum(c * i / 4 for i, c in enumerate(penta)) / n
    var = sum(c * (i / 4 - mean) ** 2 for i, c in enumerate(penta)) / n
    s0, s1 = stats.expected(0), stats.expected(10)
    assert stats.llr(penta, 0, 10) == pytest.approx((s1 - s0) * (2 * mean - s0 - s1) * n / (2 * var))
    # Strongly one-sided (about +300 Elo): H1 of [0, 10] accepted, H0 of [400, 500].
    assert stats.llr([0, 1, 5, 20, 30], 0, 10) > hi
    assert stats.decision([0, 1, 5, 20, 30], 0, 10) == "H1"
    assert stats.llr([0, 1, 5, 20, 30], 400, 500) < lo
    assert stats.decision([0, 1, 5, 20, 30], 400, 500) == "H0"
    assert stats.decision(even, 0, 10) is None
    assert stats.llr([0, 0, 3, 0, 0], 0, 10) == 0, "no variance, no evidence"


def test_pair_scores_become_counts():
    assert stats.penta_of([0.0, 2.0, 1.0, 1.5, 1.0, 0.5]) == [1, 1, 2, 1, 1]
    assert stats.elo_interval([]) == (0.0, 0.0, 0.0)


def test_the_trinomial_interval():
    elo, low, high = stats.trinomial_interval(30, 10, 10)
    assert elo == pytest.approx(stats.elo_of(35 / 50))
    assert low < elo < high
    assert stats.trinomial_interval(0, 0, 0) == (0.0, 0.0, 0.0)
