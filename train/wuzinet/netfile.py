"""Net files (``.wznet``), read by wuzi's inference.

Little-endian: the 8-byte magic ``WUZINET1``, ``WUZINET4``, ``WUZINET5``, ``WUZINET6`` or
``WUZINET7``;
u32 K (144 in version 1; 6228 in version 4: the direction keys, then the pair rows of
``model.combo_rows``; 300 in versions 5 to 7: the keys, then the rows of
``model.split_rows``), u32 F (32), u32 H (16); then
float32 arrays in this order: E[K][F], value1.weight[H][F] (out x in, row-major),
value1.bias[H], value2.weight[H], value2.bias[1], policy.weight[F], policy.bias[1], and in
versions 6 and 7 policy.window[6561] (the policy's window term, by window code), in version 7
then policy.conv.weight[F][3][3] (a lane's kernel, row by row: rows along y, cells along x)
and policy.conv.bias[F]; then the u32 trailer 0xC0FFEE. Nothing else.

Versions 2 and 3 (``WUZINET2``, ``WUZINET3``) added a table of line-window vectors; wuzi
dropped those nets (they lost at equal time) and refuses them, and so does this reader.
"""

from __future__ import annotations

import hashlib
import struct
from pathlib import Path

import numpy as np

from .features import WINDOW_CODES

MAGIC = b"WUZINET1"
# Version 4: the table adds a row per pair of the two sides' pairs (model.COMBO_ROWS rows).
MAGIC4 = b"WUZINET4"
# Version 5: the table adds a row per pair of each side (model.SPLIT_ROWS rows).
MAGIC5 = b"WUZINET5"
# Version 6: version 5 and the policy's window table.
MAGIC6 = b"WUZINET6"
# Version 7: version 6 and the policy's convolution.
MAGIC7 = b"WUZINET7"
# The rows of the table of each version.
ROWS = {MAGIC: 144, MAGIC4: 144 + 78 * 78, MAGIC5: 144 + 2 * 78, MAGIC6: 144 + 2 * 78,
        MAGIC7: 144 + 2 * 78}
# The side of a version-7 net's policy kernel.
CONV = 3
# wuzi keeps the window entries as i16 at this many units per 1.0 (the trainer rounds to it) and
# refuses a file with an entry beyond WINDOW_LIMIT.
WINDOW_QUANT = 1024
WINDOW_LIMIT = 32767 / WINDOW_QUANT - 1.0
# The magics of the dropped window nets, named when a file of them is refused.
DROPPED = (b"WUZINET2", b"WUZINET3")
TRAILER = 0xC0FFEE
HEAD = struct.Struct("<8sIII")
# wuzi's inference keeps the key vectors and the policy weights as i16 at QUANT units per
# 1.0, and refuses a file where the summed rows (four keys and the pairs: five before
# version 5, six in it) could leave i16: |weight| above this.
QUANT = 64
QUANTISED = ("embedding", "policy.weight")
LIMIT = 32767 / (5 * QUANT) - 1.0
LIMIT5 = 32767 / (6 * QUANT) - 1.0
# wuzi keeps the convolution's kernel as i16 at QUANT units per 1.0 and its bias as i32 at
# QUANT * QUANT; it refuses a kernel weight beyond CONV_LIMIT or a bias beyond CONV_BIAS_LIMIT.
CONV_LIMIT = 32767 / QUANT - 1.0
CONV_BIAS_LIMIT = 1000.0


class NetFileError(ValueError):
    """A net file that is not what the format says."""


def shapes(k: int, f: int, h: int, windows: bool = False,
           conv: bool = False) -> list[tuple[str, tuple[int, ...]]]:
    """The arrays of a net file, in file order (``windows``: versions 6 and 7; ``conv``:
    version 7)."""
    return [
        ("embedding", (k, f)),
        ("value1.weight", (h, f)),
        ("value1.bias", (h,)),
        ("value2.weight", (h,)),
        ("value2.bias", (1,)),
        ("policy.weight", (f,)),
        ("policy.bias", (1,)),
    ] + ([("policy.window", (WINDOW_CODES,))] if windows else []) + (
        [("policy.conv.weight", (f, CONV, CONV)), ("policy.conv.bias", (f,))] if conv else [])


def file_bytes(k: int, f: int, h: int, windows: bool = False, conv: bool = False) -> int:
    floats = sum(int(np.prod(s)) for _, s in shapes(k, f, h, windows, conv))
    return HEAD.size + 4 * floats + 4


def to_bytes(params: dict[str, np.ndarray]) -> bytes:
    """The file's bytes from named arrays (the names of ``shapes``)."""
    k, f = params["embedding"].shape
    h = params["value1.weight"].shape[0]
    windows = "policy.window" in params
    conv = "policy.conv.weight" in params
    magic = next((m for m, rows in ROWS.items() if rows == k), None)
    if magic is None:
        raise NetFileError(f"embedding: {k} rows; a net file has {' or '.join(map(str, ROWS.values()))}")
    if windows:
        if magic != MAGIC5:
            raise NetFileError(f"policy.window with {k} rows: a version-6 net has {ROWS[MAGIC6]}")
        magic = MAGIC6
    if conv:
        if magic != MAGIC6:
            raise NetFileError("policy.conv without policy.window: a version-7 net has both")
        magic = MAGIC7
    out = [HEAD.pack(magic, k, f, h)]
    for name, shape in shapes(k, f, h, windows, conv):
        a = np.asarray(params[name], dtype="<f4")
        if a.size != int(np.prod(shape)):
            raise NetFileError(f"{name}: {a.shape}, expected {shape}")
        if not np.all(np.isfinite(a)):
            raise NetFileError(f"{name}: not finite")
        limit = {"policy.window": WINDOW_LIMIT, "policy.conv.weight": CONV_LIMIT,
                 "policy.conv.bias": CONV_BIAS_LIMIT}.get(
            name, LIMIT5 if magic in (MAGIC5, MAGIC6, MAGIC7) else LIMIT)
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
            f"{where}: magic {magic!r}, expected {MAGIC!r} (version {magic[-1:].decode()}, "
            "a window net, is no longer read: wuzi dropped those nets)"
        )
    if magic not in ROWS:
        raise NetFileError(f"{where}: magic {magic!r}, expected {MAGIC!r}, {MAGIC4!r}, {MAGIC5!r}, {MAGIC6!r} or {MAGIC7!r}")
    _, k, f, h = HEAD.unpack_from(data, 0)
    if k != ROWS[magic]:
        raise NetFileError(f"{where}: K={k}, expected {ROWS[magic]} for {magic!r}")
    if not (0 < f <= 4096 and 0 < h <= 4096):
        raise NetFileError(f"{where}: implausible dimensions K={k} F={f} H={h}")
    windows, conv = magic in (MAGIC6, MAGIC7), magic == MAGIC7
    expected = file_bytes(k, f, h, windows, conv)
    if len(data) != expected:
        raise NetFileError(f"{where}: {len(data)} bytes, expected {expected} for K={k} F={f} H={h}")
    (trailer,) = struct.unpack_from("<I", data, len(data) - 4)
    if trailer != TRAILER:
        raise NetFileError(f"{where}: trailer {trailer:#x}, expected {TRAILER:#x}")
    params = {}
    offset = HEAD.size
    for name, shape in shapes(k, f, h, windows, conv):
        n = int(np.prod(shape))
        params[name] = np.frombuffer(data, dtype="<f4", count=n, offset=offset).reshape(shape).copy()
        offset += 4 * n
    return params


def quantised(params: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The arrays as the inference uses them: the key vectors and policy weights rounded to
    multiples of 1/QUANT (the rest stays float)."""
    out = {k: v.copy() for k, v in params.items()}
    for name in QUANTISED:
        out[name] = (np.round(out[name] * QUANT) / QUANT).astype(np.float32)
    if "policy.window" in out:
        w = out["policy.window"]
        out["policy.window"] = (np.round(w * WINDOW_QUANT) / WINDOW_QUANT).astype(np.float32)
    if "policy.conv.weight" in out:
        for name, q in (("policy.conv.weight", QUANT), ("policy.conv.bias", QUANT * QUANT)):
            out[name] = (np.round(out[name] * q) / q).astype(np.float32)
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
    if model.conv_weight is not None:
        out["policy.conv.weight"] = g(model.conv_weight)
        out["policy.conv.bias"] = g(model.conv_bias)
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
            # A version-5 file starting a version-6 net leaves its window term at zero.
            if "policy.window" in params:
                model.window.copy_(torch.from_numpy(params["policy.window"]))
            else:
                model.window.zero_()
        if model.conv_weight is not None:
            # A version-5 or -6 file starting a version-7 net leaves its convolution the
            # identity (the net's initial one).
            if "policy.conv.weight" in params:
                model.conv_weight.copy_(torch.from_numpy(params["policy.conv.weight"]))
                model.conv_bias.copy_(torch.from_numpy(params["policy.conv.bias"]))
            else:
                model.reset_convolution()


def reference_forward(params: dict[str, np.ndarray], keys: np.ndarray, divisor: float = 32.0,
                      windows: np.ndarray | None = None):
    """The net in plain numpy (float64), one position at a time, written from the format's
    description alone: a check of the trainer's model and a reference for other
    implementations. ``keys`` is [S*S, 4] uint8; ``windows`` the [S*S, 4] window codes,
    which versions 6 and 7 need. A version-7 net's policy reads the cells' vectors convolved
    (each lane with its 3x3 kernel, zero beyond the board and at stones) and clipped, in
    floats (wuzi rounds them down to 1/64). Returns (value logit, P(win), policy logits [S*S] with
    stones at -inf, policy probabilities)."""
    e = params["embedding"].astype(np.float64)
    keys = np.asarray(keys).reshape(-1, 4)
    empty = keys[:, 0] != 255
    a = np.zeros((len(keys), e.shape[1]))
    for c in np.nonzero(empty)[0]:
        rows = [int(k) for k in keys[c]]
        # Versions 4 and 5: each side's two strongest patterns of the four, as a pair.
        pair = []
        for side in (0, 1):
            pats = sorted(((k // 12, k % 12)[side] for k in rows[:4]), reverse=True)
            pair.append(pats[0] * (pats[0] + 1) // 2 + pats[1])
        if len(e) == ROWS[MAGIC4]:
            # The two pairs pick one row.
            rows.append(144 + pair[0] * 78 + pair[1])
        elif len(e) == ROWS[MAGIC5]:
            # Each side's pair picks a row of its own.
            rows += [144 + pair[0], 144 + 78 + pair[1]]
        a[c] = np.clip(e[rows].sum(axis=0), 0.0, 1.0)
    v_in = a[empty].sum(axis=0) / divisor
    hidden = np.clip(params["value1.weight"].astype(np.float64) @ v_in + params["value1.bias"], 0.0, 1.0)
    z = float(params["value2.weight"].astype(np.float64) @ hidden + params["value2.bias"][0])
    logits = np.full(len(keys), -np.inf)
    if "policy.conv.weight" in params:
        s = int(round(len(keys) ** 0.5))
        kernel = params["policy.conv.weight"].astype(np.float64)
        grid = np.zeros((s + 2, s + 2, a.shape[1]))
        grid[1:-1, 1:-1] = a.reshape(s, s, -1)  # cell y * s + x at [y][x]
        y = np.zeros_like(a)
        for c in np.nonzero(empty)[0]:
            cy, cx = divmod(int(c), s)
            patch = grid[cy : cy + 3, cx : cx + 3]  # [3][3][F]
            y[c] = np.clip(np.einsum("yxf,fyx->f", patch, kernel) + params["policy.conv.bias"], 0.0, 1.0)
        a = y
    logits[empty] = a[empty] @ params["policy.weight"].astype(np.float64) + params["policy.bias"][0]
    if "policy.window" in params:
        if windows is None:
            raise ValueError("a version-6 net needs the window codes")
        codes = np.asarray(windows).reshape(-1, 4).astype(np.int64)
        logits[empty] += params["policy.window"].astype(np.float64)[codes[empty]].sum(axis=1)
    p = np.zeros(len(keys))
    m = logits[empty].max()
    ex = np.exp(logits[empty] - m)
    p[empty] = ex / ex.sum()
    return z, 1.0 / (1.0 + np.exp(-z)), logits, p
