"""A short test on the local cluster: pairs played through
`wuzi match` as Ray tasks, counted and reported."""

from __future__ import annotations

import dataclasses
import math

import pytest

from conftest import OPENINGS
from wuzicluster import sprt


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
