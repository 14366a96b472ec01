"""Net files (``.wznet``), read by wuzi's inference.

Little-endian: the 8-byte magic ``WUZINET1`` or ``WUZINET6``; u32 K (144 in version 1;
300 in version 6: the direction keys, then the rows of ``model.split_rows``), u32 F (32),
u32 H (16); then float32 arrays in this order: E[K][F], value1.weight[H][F] (out x in,
row-major), value1.bias[H], value2.weight[H], value2.bias[1], policy.weight[F],
policy.bias[1], and in version 6 policy.window[6561] (the policy's window term, by window
code); then the u32 trailer 0xC0FFEE. Nothing else.

Version 8 (``WUZINET8``): version 6 with K = 456, the pair rows twice (those read with
black to move, then those with white to move, ``model.split_rows``).

Versions 2 to 5 and 7 are not read (no built-in net uses them; nets/README.md, retired
nets): wuzi refuses them, and so does this reader.
"""

from __future__ import annotations

import hashlib
import struct
from pathlib import Path

import numpy as np

from .features import WINDOW_CODES

MAGIC = b"WUZINET1"
# Version 6: the table adds a row per pair of each side (model.SPLIT_ROWS rows), and the
# policy has the window table.
MAGIC6 = b"WUZINET6"
# Version 8: version 6 with the pair rows for each colour to move.
MAGIC8 = b"WUZINET8"
# The rows of the table of each version.
ROWS = {MAGIC: 144, MAGIC6: 144 + 2 * 78, MAGIC8: 144 + 4 * 78}
# The versions with pair rows and the policy's window table.
WINDOWED = (MAGIC6, MAGIC8)
# wuzi keeps the window entries as i16 at this many units per 1.0 (the trainer rounds to it) and
# refuses a file with an entry beyond WINDOW_LIMIT.
WINDOW_QUANT = 1024
WINDOW_LIMIT = 32767 / WINDOW_QUANT - 1.0
# The magics of the versions no longer read, named when a file of them is refused.
DROPPED = (b"WUZINET2", b"WUZINET3", b"WUZINET4", b"WUZINET5", b"WUZINET7")
TRAILER = 0xC0FFEE
HEAD = struct.Struct("<8sIII")
# wuzi's inference keeps the key vectors and the policy weights as i16 at QUANT units per
# 1.0, and refuses a file where the summed rows (four keys and the pairs: five in version
# 1, six in version 6) could leave i16: |weight| above this.
QUANT = 64
QUANTISED = ("embedding", "policy.weight")
LIMIT = 32767 / (5 * QUANT) - 1.0
LIMIT6 = 32767 / (6 * QUANT) - 1.0


class NetFileError(ValueError):
    """A net file that is not what the format says."""


def shapes(k: int, f: int, h: int, windows: bool = False) -> list[tuple[str, tuple[int, ...]]]:
    """The arrays of a net file, in file order (``windows``: version 6)."""
    return [
        ("embedding", (k, f)),
        ("value1.weight", (h, f)),
        ("value1.bias", (h,)),
        ("value2.weight", (h,)),
        ("value2.bias", (1,)),
        ("policy.weight", (f,)),
        ("policy.bias", (1,)),
    ] + ([("policy.window", (WINDOW_CODES,))] if windows else [])


def file_bytes(k: int, f: int, h: int, windows: bool = False) -> int:
    floats = sum(int(np.prod(s)) for _, s in shapes(k, f, h, windows))
    return HEAD.size + 4 * floats + 4


def to_bytes(params: dict[str, np.ndarray]) -> bytes:
    """The file's bytes from named arrays (the names of ``shapes``)."""
    k, f = params["embedding"].shape
    h = params["value1.weight"].shape[0]
    windows = "policy.window" in params
    magic = next((m for m, rows in ROWS.items() if rows == k), None)
    if magic is None:
        raise NetFileError(f"embedding: {k} rows; a net file has {' or '.join(map(str, ROWS.values()))}")
    if windows != (magic in WINDOWED):
        raise NetFileError(f"embedding: {k} rows {'with' if windows else 'without'} policy.window: "
                           f"a version-6 net has {ROWS[MAGIC6]} rows and the window table, a "
                           f"version-8 net {ROWS[MAGIC8]} and the table, a version-1 net "
                           f"{ROWS[MAGIC]} rows and none")
    out = [HEAD.pack(magic, k, f, h)]
    for name, shape in shapes(k, f, h, windows):
        a = np.asarray(params[name], dtype="<f4")
        if a.size != int(np.prod(shape)):
            raise NetFileError(f"{name}: {a.shape}, expected {shape}")
        if not np.all(np.isfinite(a)):
            raise NetFileError(f"{name}: not finite")
        limit = WINDOW_LIMIT if name == "policy.window" else LIMIT6 if magic in WINDOWED else LIMIT
        if (name in QUANTISED or name.startswith("policy.")) and np.abs(a).max() > limit:
            raise NetFileError(f"{name}: a weight of {np.abs(a).max():.1f}, beyond the inference's {limit:.1f}")
        out.append(a.reshape(shape).tobytes(order="C"))
    out.append(struct.pack("<I", TRAILER))
    return b"".join(out)


def from_bytes(data: bytes, where: str = "net") -> dict[str, np.ndarray]:
    """Named float32 arrays from a file's bytes; refuses anything malformed."""
    if len(data) < HEAD.size + 4:
        raise NetFileError(f"{where}: {len(data)} bytes, too short for a net file")
    magic = data[:8]
    if magic in DROPPED:
        raise NetFileError(
            f"{where}: magic {magic!r}, expected {MAGIC!r}, {MAGIC6!r} or {MAGIC8!r} (version "
            f"{magic[-1:].decode()} is no longer read: no built-in net uses it)"
        )
    if magic not in ROWS:
        raise NetFileError(f"{where}: magic {magic!r}, expected {MAGIC!r}, {MAGIC6!r} or {MAGIC8!r}")
    _, k, f, h = HEAD.unpack_from(data, 0)
    if k != ROWS[magic]:
        raise NetFileError(f"{where}: K={k}, expected {ROWS[magic]} for {magic!r}")
    if not (0 < f <= 4096 and 0 < h <= 4096):
        raise NetFileError(f"{where}: implausible dimensions K={k} F={f} H={h}")
    windows = magic in WINDOWED
    expected = file_bytes(k, f, h, windows)
    if len(data) != expected:
        raise NetFileError(f"{where}: {len(data)} bytes, expected {expected} for K={k} F={f} H={h}")
    (trailer,) = struct.unpack_from("<I", data, len(data) - 4)
    if trailer != TRAILER:
        raise NetFileError(f"{where}: trailer {trailer:#x}, expected {TRAILER:#x}")
    params = {}
    offset = HEAD.size
    for name, shape in shapes(k, f, h, windows):
        n = int(np.prod(shape))
        params[name] = np.frombuffer(data, dtype="<f4", count=n, offset=offset).reshape(shape).copy()
        offset += 4 * n
    return params


def with_colour_pairs(params: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """A version-6 net's arrays as a version-8 net's: its pair rows copied for white to
    move, so the new net computes what the old one did until training tells the colours
    apart."""
    e = params["embedding"]
    if len(e) != ROWS[MAGIC6]:
        raise NetFileError(f"embedding: {len(e)} rows; only a version-6 net ({ROWS[MAGIC6]}) "
                           "gains pair rows per colour")
    out = {k: v.copy() for k, v in params.items()}
    out["embedding"] = np.concatenate([e, e[144:]]).astype(np.float32)
    return out


def quantised(params: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The arrays as the inference uses them: the key vectors and policy weights rounded to
    multiples of 1/QUANT (the rest stays float)."""
    out = {k: v.copy() for k, v in params.items()}
    for name in QUANTISED:
        out[name] = (np.round(out[name] * QUANT) / QUANT).astype(np.float32)
    if "policy.window" in out:
        w = out["policy.window"]
        out["policy.window"] = (np.round(w * WINDOW_QUANT) / WINDOW_QUANT).astype(np.float32)
    return out


def write_net(path: Path | str, params: dict[str, np.ndarray]) -> str:
    """Writes the file; returns its SHA-256 (hex)."""
    data = to_bytes(params)
    Path(path).write_bytes(data)
    return hashlib.sha256(data).hexdigest()


def read_net(path: Path | str) -> dict[str, np.ndarray]:
    return from_bytes(Path(path).read_bytes(), str(path))


def params_of(model) -> dict[str, np.ndarray]:
    """A WuziNet's parameters under the file's names. Its value_norm must be the identity
    (a net from ``WuziNet.folded()``, or a fresh one)."""
    norm = model.value_norm
    if norm.running_mean.abs().max() != 0 or (norm.running_var - 1).abs().max() != 0 or norm.eps != 0:
        raise ValueError("the net's value normalisation is not folded: export net.folded()")
    g = lambda t: t.detach().cpu().numpy().astype(np.float32)  # noqa: E731
    out = {
        "embedding": g(model.embedding),
        "value1.weight": g(model.value1.weight),
        "value1.bias": g(model.value1.bias),
        "value2.weight": g(model.value2.weight).reshape(-1),
        "value2.bias": g(model.value2.bias),
        "policy.weight": g(model.policy.weight).reshape(-1),
        "policy.bias": g(model.policy.bias),
    }
    if model.window is not None:
        out["policy.window"] = g(model.window)
    return out


def load_into(model, params: dict[str, np.ndarray]) -> None:
    """Sets a WuziNet's parameters from a file's arrays (its value_norm the identity, in
    eval mode)."""
    import torch

    model.value_norm.reset_running_stats()
    model.value_norm.eps = 0.0
    model.eval()
    with torch.no_grad():
        model.embedding.copy_(torch.from_numpy(params["embedding"]))
        model.value1.weight.copy_(torch.from_numpy(params["value1.weight"]))
        model.value1.bias.copy_(torch.from_numpy(params["value1.bias"]))
        model.value2.weight.copy_(torch.from_numpy(params["value2.weight"]).reshape(1, -1))
        model.value2.bias.copy_(torch.from_numpy(params["value2.bias"]))
        model.policy.weight.copy_(torch.from_numpy(params["policy.weight"]).reshape(1, -1))
        model.policy.bias.copy_(torch.from_numpy(params["policy.bias"]))
        if model.window is not None:
            model.window.copy_(torch.from_numpy(params["policy.window"]))


def reference_forward(params: dict[str, np.ndarray], keys: np.ndarray, divisor: float = 32.0,
                      windows: np.ndarray | None = None):
    """The net in plain numpy (float64), one position at a time, written from the format's
    description alone: a check of the trainer's model and a reference for other
    implementations. ``keys`` is [S*S, 4] uint8; ``windows`` the [S*S, 4] window codes,
    which version 6 needs. Returns (value logit, P(win), policy logits [S*S] with stones at
    -inf, policy probabilities)."""
    e = params["embedding"].astype(np.float64)
    keys = np.asarray(keys).reshape(-1, 4)
    empty = keys[:, 0] != 255
    # Version 8: with white to move (an odd number of stones) the pair rows of white's set.
    colour = 2 * 78 if len(e) == ROWS[MAGIC8] and (~empty).sum() % 2 == 1 else 0
    a = np.zeros((len(keys), e.shape[1]))
    for c in np.nonzero(empty)[0]:
        rows = [int(k) for k in keys[c]]
        if len(e) in (ROWS[MAGIC6], ROWS[MAGIC8]):
            # Each side's two strongest patterns of the four, as a pair, pick a row of its own.
            pair = []
            for side in (0, 1):
                pats = sorted(((k // 12, k % 12)[side] for k in rows[:4]), reverse=True)
                pair.append(pats[0] * (pats[0] + 1) // 2 + pats[1])
            rows += [144 + colour + pair[0], 144 + colour + 78 + pair[1]]
        a[c] = np.clip(e[rows].sum(axis=0), 0.0, 1.0)
    v_in = a[empty].sum(axis=0) / divisor
    hidden = np.clip(params["value1.weight"].astype(np.float64) @ v_in + params["value1.bias"], 0.0, 1.0)
    z = float(params["value2.weight"].astype(np.float64) @ hidden + params["value2.bias"][0])
    logits = np.full(len(keys), -np.inf)
    logits[empty] = a[empty] @ params["policy.weight"].astype(np.float64) + params["policy.bias"][0]
    if "policy.window" in params:
        if windows is None:
            raise ValueError("a version-6 or -8 net needs the window codes")
        codes = np.asarray(windows).reshape(-1, 4).astype(np.int64)
        logits[empty] += params["policy.window"].astype(np.float64)[codes[empty]].sum(axis=1)
    p = np.zeros(len(keys))
    m = logits[empty].max()
    ex = np.exp(logits[empty] - m)
    p[empty] = ex / ex.sum()
    return z, 1.0 / (1.0 + np.exp(-z)), logits, p
