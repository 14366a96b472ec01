"""The statistics of engine matches: Elo with its 95% interval from games (trinomial) or
from whole pairs of games (pentanomial: an opening played once with each colour, the pair
counted by A's points, 0 to 2 in halves), and the generalised SPRT in its normal
approximation over pair scores, as tournament testers compute it. The same formulas as
`examples/selfplay.rs`. Plain Python, no Ray: the match tally (`match_sgf.py`) and the
tally combiner (`pairs.py`) use it on a machine without a cluster.
"""

from __future__ import annotations

import math

#: The two-sided 95% quantile of the normal distribution.
Z95 = 1.959964


def expected(elo: float) -> float:
    """The expected score of an Elo difference."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of(score: float) -> float:
    """The Elo difference of an expected score."""
    s = min(max(score, 1e-6), 1.0 - 1e-6)
    return -400.0 * math.log10(1.0 / s - 1.0)


def pair_stats(penta: list[int]) -> tuple[float, float, int]:
    """The mean pair score (a fraction of the pair's two points), its variance over the
    pairs, and the number of pairs, from the counts of pairs by A's points (0, 0.5 .. 2)."""
    n = sum(penta)
    if n == 0:
        return 0.5, 0.0, 0
    mean = sum(c * i / 4 for i, c in enumerate(penta)) / n
    var = sum(c * (i / 4 - mean) ** 2 for i, c in enumerate(penta)) / n
    return mean, var, n


def penta_of(pair_points: list[float]) -> list[int]:
    """The counts of pairs by A's points (0, 0.5 .. 2) of a list of pair scores."""
    counts = [0] * 5
    for p in pair_points:
        counts[round(p * 2)] += 1
    return counts


def llr(penta: list[int], elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of "A is `elo1` better" against "`elo0`"."""
    mean, var, n = pair_stats(penta)
    if var <= 0.0:
        return 0.0
    s0, s1 = expected(elo0), expected(elo1)
    return (s1 - s0) * (2.0 * mean - s0 - s1) * n / (2.0 * var)


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """The test's bounds on the LLR: H0 below the first, H1 above the second."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def decision(penta: list[int], elo0: float, elo1: float, alpha: float = 0.05,
             beta: float = 0.05) -> str | None:
    """"H1" or "H0" when the test's LLR is past a bound, else None."""
    lo, hi = bounds(alpha, beta)
    r = llr(penta, elo0, elo1)
    return "H1" if r >= hi else "H0" if r <= lo else None


def parse_test(text: str) -> tuple[float, float]:
    """The bounds of a sequential test given as `ELO0,ELO1`; ValueError names a bad one."""
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        return float(parts[0]), float(parts[1])
    except ValueError:
        raise ValueError(f"--sprt {text}: expected ELO0,ELO1") from None


def sprt_report(penta: list[int], elo0: float, elo1: float) -> dict:
    """The sequential test over a tally at alpha = beta = 0.05: its bounds, ratio and
    decision, as `sprt_text` prints them."""
    return {
        "elo0": elo0,
        "elo1": elo1,
        "llr": llr(penta, elo0, elo1),
        "bounds": bounds(0.05, 0.05),
        "decision": decision(penta, elo0, elo1),
    }


def sprt_text(t: dict) -> str:
    """One line of a `sprt_report`: `SPRT [0, 10]: LLR 1.72 (-2.94, 2.94), undecided`."""
    verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "undecided"}[t["decision"]]
    return (f"SPRT [{t['elo0']:g}, {t['elo1']:g}]: LLR {t['llr']:.2f} "
            f"({t['bounds'][0]:.2f}, {t['bounds'][1]:.2f}), {verdict}")


def elo_interval(penta: list[int]) -> tuple[float, float, float]:
    """The Elo of the pairs' score and its 95% interval."""
    mean, var, n = pair_stats(penta)
    if n == 0:
        return 0.0, 0.0, 0.0
    half = Z95 * math.sqrt(var / n)
    return elo_of(mean), elo_of(mean - half), elo_of(mean + half)


def trinomial_interval(w: int, l: int, d: int) -> tuple[float, float, float]:
    """Elo with its 95% interval from wins, losses and draws (games independent)."""
    n = w + l + d
    if n == 0:
        return 0.0, 0.0, 0.0
    s = (w + 0.5 * d) / n
    var = (w * (1 - s) ** 2 + l * s**2 + d * (0.5 - s) ** 2) / n
    half = Z95 * math.sqrt(var / n)
    return elo_of(s), elo_of(s - half), elo_of(s + half)
