"""Feature files (``.wzf``), as written by ``wuzi features``.

Little-endian. The 8-byte magic ``WUZIFEA3`` (or ``WUZIFEA1``); a header (u8 board size S,
u8 key count K = 144, u8 directions = 4, u8 reserved, u32 record count N); then N records:
the four direction keys of every cell (row-major, ``y*S + x``; for an empty cell
``own*12 + opp``, 255 for a stone); in version 3, the four direction window codes of every
cell (u16, 0 to 6560, the input of a version-6 net's policy window term; 0 for a stone);
u16 best move, i16 score, i8 result, u8 reserved. See docs/training.md.

Version 1 is version 3 without the window codes: read, for version-1 nets.
Version 2 (``WUZIFEA2``) added other window rows for the dropped window nets; this reader
refuses it.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

MAGIC = b"WUZIFEA3"
MAGIC1 = b"WUZIFEA1"
# The window codes of a version-3 record: eight cells of three states.
WINDOW_CODES = 3**8
HEADER_BYTES = 16
PATTERNS = 12
KEYS = PATTERNS * PATTERNS  # 144
DIRECTIONS = 4
OCCUPIED = 255
TAIL_BYTES = 6
MIN_SIZE, MAX_SIZE = 5, 22
EXTENSION = ".wzf"


class FeatureFileError(ValueError):
    """A feature file that is not what the format says."""


def record_dtype(size: int, windows: bool = True) -> np.dtype:
    """The numpy layout of one record on a ``size`` board (``windows``: version 3)."""
    codes = [("windows", "<u2", (size * size, DIRECTIONS))] if windows else []
    return np.dtype(
        [
            ("keys", np.uint8, (size * size, DIRECTIONS)),
            *codes,
            ("best", "<u2"),
            ("score", "<i2"),
            ("result", "i1"),
            ("reserved", "u1"),
        ]
    )


def record_bytes(size: int, windows: bool = True) -> int:
    return DIRECTIONS * size * size * (3 if windows else 1) + TAIL_BYTES


@dataclass
class FeatureFile:
    """One opened feature file: its board size and its records (a read-only memmap)."""

    path: Path
    size: int
    records: np.ndarray  # structured, dtype record_dtype(size, windows)
    windows: bool  # version 3: the records hold window codes

    def __len__(self) -> int:
        return len(self.records)


def read_header(path: Path) -> tuple[int, int, bool]:
    """Checks the magic, the header and the file's length; returns (size, records, whether
    the records hold window codes)."""
    path = Path(path)
    try:
        length = os.path.getsize(path)
        with open(path, "rb") as f:
            head = f.read(HEADER_BYTES)
    except OSError as e:
        raise FeatureFileError(f"{path}: cannot read: {e}") from e
    if len(head) < HEADER_BYTES:
        raise FeatureFileError(
            f"{path}: {len(head)} bytes, shorter than the {HEADER_BYTES}-byte header"
        )
    if head[:8] not in (MAGIC, MAGIC1):
        # Version 2 is named: such a file is old, not corrupt, and its shards can be
        # written again as version 1.
        what = (
            "version 2 of the format (window rows), no longer read: write the features "
            "again with `wuzi features`"
            if head[:8] == b"WUZIFEA2"
            else "not a wuzi feature file, or another version of the format"
        )
        raise FeatureFileError(
            f"{path}: magic {head[:8]!r}, expected {MAGIC!r} or {MAGIC1!r} ({what})"
        )
    windows = head[:8] == MAGIC
    size, keys, dirs, _reserved = head[8], head[9], head[10], head[11]
    count = int.from_bytes(head[12:16], "little")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise FeatureFileError(f"{path}: board size {size}, expected {MIN_SIZE} to {MAX_SIZE}")
    if keys != KEYS:
        raise FeatureFileError(f"{path}: key count {keys}, expected {KEYS}")
    if dirs != DIRECTIONS:
        raise FeatureFileError(f"{path}: {dirs} directions, expected {DIRECTIONS}")
    expected = HEADER_BYTES + count * record_bytes(size, windows)
    if length != expected:
        raise FeatureFileError(
            f"{path}: {length} bytes, but the header's {count} records of "
            f"{record_bytes(size, windows)} bytes (board {size}x{size}) make {expected}"
            + (" (cut short?)" if length < expected else " (trailing bytes)")
        )
    return size, count, windows


def validate_records(records: np.ndarray, size: int, where: str = "") -> None:
    """Checks every record's contents: keys in range, a stone's four keys all 255 and an
    empty cell's none, the best move an empty cell, the result -1, 0 or 1. Raises
    FeatureFileError naming the first bad record."""
    if len(records) == 0:
        return
    prefix = f"{where}: " if where else ""
    keys = records["keys"]
    occupied = keys == OCCUPIED
    bad_key = ~occupied & (keys >= KEYS)
    mixed = occupied.any(axis=2) & ~occupied.all(axis=2)
    checks = [
        (f"a key outside 0..{KEYS - 1} and not {OCCUPIED}", bad_key.any(axis=(1, 2))),
        ("a cell with some but not all four keys 255", mixed.any(axis=1)),
    ]
    if "windows" in records.dtype.names:
        bad_code = records["windows"] >= WINDOW_CODES
        checks.append((f"a window code outside 0..{WINDOW_CODES - 1}", bad_code.any(axis=(1, 2))))
    for name, bad in checks:
        if bad.any():
            i = int(np.argmax(bad))
            raise FeatureFileError(f"{prefix}record {i}: {name}")
    best = records["best"].astype(np.int64)
    off = best >= size * size
    if off.any():
        i = int(np.argmax(off))
        raise FeatureFileError(f"{prefix}record {i}: best move {best[i]} off the {size}x{size} board")
    on_stone = occupied[np.arange(len(records)), best, 0]
    if on_stone.any():
        i = int(np.argmax(on_stone))
        raise FeatureFileError(f"{prefix}record {i}: best move {best[i]} is an occupied cell")
    result = records["result"]
    bad_result = (result < -1) | (result > 1)
    if bad_result.any():
        i = int(np.argmax(bad_result))
        raise FeatureFileError(f"{prefix}record {i}: result {result[i]}, expected -1, 0 or 1")


def open_features(path: Path | str, validate: bool = True) -> FeatureFile:
    """Opens a feature file as a read-only memmap, after checking its header (and, unless
    ``validate`` is false, every record)."""
    path = Path(path)
    size, count, windows = read_header(path)
    dtype = record_dtype(size, windows)
    if count == 0:
        records = np.zeros(0, dtype=dtype)
    else:
        records = np.memmap(path, dtype=dtype, mode="r", offset=HEADER_BYTES, shape=(count,))
    if validate:
        validate_records(records, size, str(path))
    return FeatureFile(path, size, records, windows)


def feature_paths(inputs: Iterable[Path | str]) -> list[Path]:
    """The files named by ``inputs``; a directory stands for its ``.wzf`` files, in name
    order."""
    paths: list[Path] = []
    for item in inputs:
        p = Path(item)
        if p.is_dir():
            found = sorted(q for q in p.iterdir() if q.suffix == EXTENSION and q.is_file())
            if not found:
                raise FeatureFileError(f"{p}: no {EXTENSION} file in this directory")
            paths.extend(found)
        elif p.exists():
            paths.append(p)
        else:
            raise FeatureFileError(f"{p}: no such file or directory")
    if not paths:
        raise FeatureFileError("no feature file given")
    return paths


def load_records(inputs: Sequence[Path | str], validate: bool = True) -> tuple[int, np.ndarray, list[int]]:
    """Reads every named file into one array in memory. Returns (size, records, the
    record count of each file). All files must be of one board size and one version."""
    files = [open_features(p, validate) for p in feature_paths(inputs)]
    sizes = {f.size for f in files}
    if len(sizes) != 1:
        detail = ", ".join(f"{f.path.name}: {f.size}" for f in files)
        raise FeatureFileError(f"files of several board sizes ({detail}); train one size at a time")
    if len({f.windows for f in files}) != 1:
        detail = ", ".join(f"{f.path.name}: {3 if f.windows else 1}" for f in files)
        raise FeatureFileError(
            f"files of versions 1 and 3 ({detail}); write them again with `wuzi features`"
        )
    size = sizes.pop()
    records = np.concatenate([np.asarray(f.records) for f in files]) if files else None
    return size, records, [len(f) for f in files]


def stones(records: np.ndarray) -> np.ndarray:
    """Stones on the board of each record."""
    return (records["keys"][:, :, 0] == OCCUPIED).sum(axis=1)


def game_ids(records: np.ndarray, file_counts: Sequence[int] | None = None) -> np.ndarray:
    """A game number for each record, inferred: ``wuzi features`` writes each game's
    positions in order, one more stone each, so a record that does not have exactly one
    stone more than the one before starts a new game (and so does each file's first)."""
    n = len(records)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    s = stones(records).astype(np.int64)
    new = np.ones(n, dtype=bool)
    new[1:] = s[1:] != s[:-1] + 1
    if file_counts:
        starts = np.cumsum([0] + list(file_counts[:-1]))
        new[starts[starts < n]] = True
    return np.cumsum(new) - 1


def game_count(games: np.ndarray) -> int:
    """The number of games in ``games`` (``game_ids``: numbered from 0 in order)."""
    return int(games.max()) + 1 if len(games) else 0


def game_keys(records: np.ndarray, games: np.ndarray) -> np.ndarray:
    """A 64-bit key per game (``games``: ``game_ids``), from the pattern keys of its first
    record: the position the game's searches start from, so the same game gets the same
    key in any file and beside any other data (games from one opening share it)."""
    n_games = game_count(games)
    starts = np.searchsorted(games, np.arange(n_games))
    out = np.zeros(n_games, dtype=np.uint64)
    for g, i in enumerate(starts):
        digest = hashlib.blake2b(np.ascontiguousarray(records["keys"][i]).tobytes(), digest_size=8)
        out[g] = int.from_bytes(digest.digest(), "little")
    return out


def write_features(path: Path | str, size: int, keys: np.ndarray, best: np.ndarray,
                   score: np.ndarray, result: np.ndarray, windows: np.ndarray | None = None) -> None:
    """Writes a feature file (the trainer only reads them; this is for tests and tools).
    ``keys`` is [N, S*S, 4] uint8; ``windows`` [N, S*S, 4] window codes (version 3) or
    None (version 1)."""
    n = len(best)
    rec = np.zeros(n, dtype=record_dtype(size, windows is not None))
    rec["keys"] = np.asarray(keys, dtype=np.uint8).reshape(n, size * size, DIRECTIONS)
    if windows is not None:
        rec["windows"] = np.asarray(windows, dtype=np.uint16).reshape(n, size * size, DIRECTIONS)
    rec["best"] = best
    rec["score"] = score
    rec["result"] = result
    header = (MAGIC if windows is not None else MAGIC1) + bytes([size, KEYS, DIRECTIONS, 0]) + int(n).to_bytes(4, "little")
    with open(path, "wb") as f:
        f.write(header)
        f.write(rec.tobytes())
