"""Made-up feature records with a signal a net can learn, for the tests and for trying the
trainer without wuzi. Not real positions: each empty cell's keys are drawn at random; the
best move is the cell whose keys add up to the most (own patterns weigh more than the
opponent's), and the score and result follow how many cells give each side a three or
better, with noise. Records come in "games": each has one stone more than the one
before, as ``wuzi features`` writes them."""

from __future__ import annotations

import numpy as np

from .features import DIRECTIONS, OCCUPIED, PATTERNS, WINDOW_CODES

# How much a pattern (0 dead .. 11 five) is worth in the made-up rule.
WORTH = np.array([0, 0, 1, 2, 3, 5, 8, 16, 20, 60, 80, 200], dtype=np.float64)


def make_records(n: int, size: int = 9, seed: int = 0):
    """Returns (keys [n, S*S, 4] uint8, best [n], score [n], result [n])."""
    rng = np.random.default_rng(seed)
    cells = size * size
    keys = np.empty((n, cells, DIRECTIONS), dtype=np.uint8)
    best = np.empty(n, dtype=np.uint16)
    score = np.empty(n, dtype=np.int16)
    result = np.empty(n, dtype=np.int8)
    # Low patterns are common, high ones rare.
    p = np.array([30, 4, 12, 10, 8, 6, 4, 3, 2, 1.2, 0.4, 0.3])
    p = p / p.sum()
    i = 0
    while i < n:
        length = int(rng.integers(4, 16))
        order = rng.permutation(cells)
        start = int(rng.integers(2, 7))
        for ply in range(length):
            if i >= n:
                break
            stones = order[: start + ply]
            own = rng.choice(PATTERNS, size=(cells, DIRECTIONS), p=p)
            opp = rng.choice(PATTERNS, size=(cells, DIRECTIONS), p=p)
            k = (own * PATTERNS + opp).astype(np.uint8)
            k[stones] = OCCUPIED
            worth = WORTH[own].sum(axis=1) + 0.7 * WORTH[opp].sum(axis=1)
            worth[stones] = -np.inf
            keys[i] = k
            best[i] = int(np.argmax(worth + rng.normal(0, 2.0, cells)))
            # The edge counts the cells where a side has a three or better: a sum over
            # cells, as the value head sees the board.
            mine = (own >= 6).any(axis=1)
            theirs = (opp >= 6).any(axis=1)
            mine[stones] = False
            theirs[stones] = False
            edge = (int(mine.sum()) - int(theirs.sum())) / 3.0 + rng.normal(0, 0.3)
            score[i] = int(np.clip(edge * 300, -20000, 20000))
            result[i] = 1 if edge > 0.4 else (-1 if edge < -0.4 else 0)
            i += 1
    return keys, best, score, result



def make_windows(keys: np.ndarray, seed: int = 0) -> np.ndarray:
    """Made-up window codes [n, S*S, 4] (uint16) for records of ``keys``: random codes, 0 for
    a stone, as ``wuzi features`` writes a stone's. The window term gets no signal from
    them; they exercise the version-3 files and a version-6 net's pipeline."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, WINDOW_CODES, size=keys.shape, dtype=np.uint16)
    codes[keys == OCCUPIED] = 0
    return codes
