"""The SPRT's statistics, and a short test on the local cluster: pairs played through
`wuzi match` as Ray tasks, counted and reported."""

from __future__ import annotations

import dataclasses
import math

import pytest

from conftest import OPENINGS
from wuzicluster import sprt


def test_the_statistics():
    assert sprt.expected(0) == 0.5 and sprt.elo_of(0.5) == 0
    assert sprt.elo_of(sprt.expected(123.0)) == pytest.approx(123.0)
    lo, hi = sprt.bounds(0.05, 0.05)
    assert (lo, hi) == pytest.approx((-2.944, 2.944), abs=1e-3)
    # An even tally: Elo 0 within a symmetric interval, the LLR against elo1 > 0 negative.
    even = [5, 10, 20, 10, 5]
    elo, low, high = sprt.elo_interval(even)
    assert elo == pytest.approx(0) and low == pytest.approx(-high)
    assert sprt.llr(even, 0, 10) < 0 < sprt.llr(even, -10, 0)
    # The formula: (s1 - s0) (2 mean - s0 - s1) n / (2 var), mean and var of pair scores.
    penta = [1, 2, 10, 20, 7]
    n = sum(penta)
    mean = sum(c * i / 4 for i, c in enumerate(penta)) / n
    var = sum(c * (i / 4 - mean) ** 2 for i, c in enumerate(penta)) / n
    s0, s1 = sprt.expected(0), sprt.expected(10)
    assert sprt.llr(penta, 0, 10) == pytest.approx((s1 - s0) * (2 * mean - s0 - s1) * n / (2 * var))
    # Strongly one-sided (about +300 Elo): H1 of [0, 10] accepted, H0 of [400, 500].
    assert sprt.llr([0, 1, 5, 20, 30], 0, 10) > hi
    assert sprt.llr([0, 1, 5, 20, 30], 400, 500) < lo
    assert sprt.llr([0, 0, 3, 0, 0], 0, 10) == 0, "no variance, no evidence"


def test_rows_are_given_as_ranges():
    assert sprt.ranges([0, 1, 2, 3, 7, 9, 10]) == "0-3, 7, 9-10"
    assert sprt.ranges([]) == ""


def test_a_side_s_flags():
    t = sprt.Test(openings="o.tsv", match_args=["--nodes", "500", "--a-eval", "classical",
                                                "--b-threads", "2"])
    assert t.side("--a-") == "--nodes 500 --a-eval classical"
    assert t.side("--b-") == "--nodes 500 --b-threads 2"
    assert t.command("3").startswith("wuzi match --openings o.tsv --opening 3 --size 15 --nodes 500")


def test_pairs_on_the_cluster_are_counted_and_reported(cluster):
    test = sprt.Test(openings=str(OPENINGS), match_args=["--nodes", "300", "--a-eval", "classical"],
                     max_pairs=4, min_pairs=20)
    r = sprt.run_sprt(test, cluster, log=lambda m: None)
    assert r["decision"] is None and r["pairs"] == 4 and sum(r["penta"]) == 4
    assert r["wins"] + r["losses"] + r["draws"] == 8
    assert sum(p["a_points"] for p in r["pair_results"]) == r["wins"] + r["draws"] / 2
    assert len(r["openings_used"]) == 4 and r["openings_used"][0] == "freestyle15_s1_0001"
    text = sprt.report_text(r)
    assert r["rows_used"] == [0, 1, 2, 3] and r["openings_used"][3] == "freestyle15_s1_0004"
    for part in ("undecided", "--a-eval classical", "in 4 pairs", "LLR", "build: wuzi:",
                 "4 of its 200: rows 0-3 (from 0)"):
        assert part in text, part
    assert not r["refused"] and not r["failed"]
    # Another build's pairs are refused, not counted.
    other = dataclasses.replace(cluster, expected="wuzi:" + "0" * 64)
    r = sprt.run_sprt(dataclasses.replace(test, max_pairs=2), other, log=lambda m: None)
    assert r["pairs"] == 0 and len(r["refused"]) == 2
    assert math.isfinite(r["llr"])


def test_flags_the_engine_refuses_stop_the_test(cluster):
    test = sprt.Test(openings=str(OPENINGS), match_args=["--nodes", "300", "--a-eval", "no.wznet"],
                     max_pairs=50)
    r = sprt.run_sprt(test, cluster, log=lambda m: None)
    assert r["pairs"] == 0 and r["decision"] is None
    assert 1 <= len(r["failed"]) <= 2 and "no.wznet" in r["failed"][0]
