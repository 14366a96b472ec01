"""The network (the Rust inference computes the same; docs/training.md).

Per empty cell c and direction d the key ``own*12 + opp`` picks a row of one embedding
table E shared by the four directions; ``h_c = sum_d E[key(c, d)]``. A version-6 net adds
two rows per cell that see across the directions: with ``own`` the pair of the two
strongest patterns the side to move would make at c (of its four,
``pair(a, b) = a (a + 1) / 2 + b`` for ``a >= b``, 78 pairs) and ``opp`` the other side's,
rows ``144 + own`` and ``144 + 78 + opp``; so E has 300 rows (144 in version 1). A
version-8 net has those pair rows twice, the second set (from ``144 + 156``) read when
white is to move: under renju the same pair is a win for white and a forbidden point for
black. The side to move follows from the stones (black moves first): white with an odd
number, so E has 456 rows.
``a_c = clamp(h_c, 0, 1)``. Stones contribute nothing.

- Value: ``v_in = sum_c a_c / 32``, Linear(32 -> 16), clamp(0, 1), Linear(16 -> 1): a logit
  z, P(side to move wins) = sigmoid(z).
- Policy: ``logit_c = w_p . a_c + b_p`` for each empty cell, a softmax over them. In
  version 6, plus ``sum_d W[code(c, d)]``: a learned scalar per line window (the eight cells
  within four steps of c along d, each empty, the side to move's, or the other side's or off
  the board: a base-3 code of 6,561, written by ``wuzi features`` in version-3 files), one
  table W shared by the four directions.
"""

from __future__ import annotations

import warnings

import torch
import torch.nn.functional as F
from torch import nn

from .features import KEYS, OCCUPIED, PATTERNS, WINDOW_CODES
# wuzi keeps a version-6 net's window entries as i16 at this many units per 1.0.
from .netfile import WINDOW_QUANT

FEATURES = 32  # F: lanes of a cell's feature vector
HIDDEN = 16  # H: the value head's hidden layer
VALUE_DIVISOR = 32.0  # v_in = (sum of the cells' activations) / this: a fixed scale, not a mean

# Value target: t = LAMBDA * r + (1 - LAMBDA) * sigmoid(score / SCORE_SCALE), r = (result + 1) / 2.
# The game's result alone: on the 2.6 M positions of s1 to s10, the built-in net trained on
# for two epochs with LAMBDA 1.0 beat it by +30 Elo [+9, +51] at 20,000 nodes a move (800
# games), 0.8 by +18 [-3, +39], 0.2 by -9 [-39, +22] (400); the held-out BCE against the
# result fell in the same order (f7180e2, docs/training.md). Until then 0.5: half the
# result, half the search's score.
LAMBDA = 1.0
# An open three (several hundred) is then about a 70-80% position; a small edge (~100) 56%.
SCORE_SCALE = 400.0
# The policy's cross-entropy counts as much as the value's BCE: both heads share E.
POLICY_WEIGHT = 1.0

PAD = KEYS  # the index a stone's key 255 is mapped to: a row of zeros
# Pairs of patterns (a >= b) of one side.
PAIRS = PATTERNS * (PATTERNS + 1) // 2  # 78
# Rows of a version-6 net's table: the keys, a row per pair of the side to move, a row per
# pair of the other side.
SPLIT_ROWS = KEYS + 2 * PAIRS  # 300
# Rows of a version-8 net's table: version 6's, then its pair rows again for white to move.
COLOUR_ROWS = KEYS + 4 * PAIRS  # 456
# The rows of the table of each version the trainer makes.
VERSION_ROWS = {1: KEYS, 6: SPLIT_ROWS, 8: COLOUR_ROWS}
# The versions with pair rows and the policy's window term.
PAIR_VERSIONS = (6, 8)


def pair_index(p: torch.Tensor) -> torch.Tensor:
    """For patterns [..., 4] (0 to 11), the pair of the two largest, ``a (a + 1) / 2 + b``
    (a >= b), by maxima and minima (the inference reads the same from tables)."""
    hi1, lo1 = torch.maximum(p[..., 0], p[..., 1]), torch.minimum(p[..., 0], p[..., 1])
    hi2, lo2 = torch.maximum(p[..., 2], p[..., 3]), torch.minimum(p[..., 2], p[..., 3])
    a = torch.maximum(hi1, hi2)
    b = torch.maximum(torch.minimum(hi1, hi2), torch.maximum(lo1, lo2))
    return a * (a + 1) // 2 + b


def split_rows(idx: torch.Tensor, white: torch.Tensor | None = None) -> torch.Tensor:
    """Prepared keys [..., 4] -> the version-6 rows [..., 2] of each cell (the side to
    move's pair, the other side's), as indices of the gather table (pair rows from
    PAD + 1); PAD for a stone. ``white`` (version 8; broadcast over the cells): the side
    to move is white, whose rows stand 2 * PAIRS further."""
    stone = idx[..., :1] == PAD
    k = idx.clamp(max=KEYS - 1)
    rows = torch.stack([pair_index(k // PATTERNS), PAIRS + pair_index(k % PATTERNS)], dim=-1)
    if white is not None:
        rows = rows + 2 * PAIRS * white.long()
    return torch.where(stone, PAD, PAD + 1 + rows)


def white_to_move(idx: torch.Tensor) -> torch.Tensor:
    """Prepared keys [B, S*S, 4] -> [B, 1, 1]: is white to move (an odd number of stones;
    black moves first and nobody passes in wuzi's games)."""
    stones = (idx[:, :, 0] == PAD).sum(dim=1)
    return (stones % 2 == 1).reshape(-1, 1, 1)



def csr(crow, col, values, shape) -> torch.Tensor:
    """A sparse CSR matrix built from indices that are valid by construction (no check).
    PyTorch marks CSR tensors beta; the two products used here are plain and tested
    against F.embedding_bag (tests/test_model.py), so its warning is silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return torch.sparse_csr_tensor(crow, col, values, shape, check_invariants=False)


class SumGather(torch.autograd.Function):
    """``out[m] = sum_d table[idx[m, d]]`` for idx [M, D]: the same as
    ``F.embedding_bag(idx, table, mode="sum")``, as two sparse matrix products. PyTorch's
    embedding backward sorts and accumulates row by row; here the backward is one CSR
    product (table rows x cells) after a stable sort of the indices, about three times
    faster on a 2-core CPU for a batch of 1024 positions of 15x15."""

    @staticmethod
    def forward(ctx, idx: torch.Tensor, table: torch.Tensor) -> torch.Tensor:
        m, d = idx.shape
        flat = idx.reshape(-1)
        ones = torch.ones(m * d, dtype=table.dtype, device=flat.device)
        rows = torch.arange(0, m * d + 1, d, device=flat.device)
        cells = csr(rows, flat, ones, (m, table.shape[0]))
        ctx.save_for_backward(flat)
        ctx.shape = (m, d, table.shape[0])
        return cells @ table

    @staticmethod
    def backward(ctx, grad: torch.Tensor):
        (flat,) = ctx.saved_tensors
        m, d, k = ctx.shape
        order = torch.argsort(flat, stable=True)
        crow = torch.zeros(k + 1, dtype=torch.long, device=flat.device)
        crow[1:] = torch.cumsum(torch.bincount(flat, minlength=k), 0)
        ones = torch.ones(m * d, dtype=grad.dtype, device=flat.device)
        rows = csr(crow, order // d, ones, (k, m))
        return None, rows @ grad.contiguous()


class LeakyClamp(torch.autograd.Function):
    """clamp(x, 0, 1) forward (exactly what the net computes); backward, a slope of
    ``LEAK`` instead of 0 outside [0, 1], so a unit pushed out of range by the shared
    embedding's moves still gets a gradient that can bring it back (a dead unit otherwise
    stays dead: with plain clamps the value head died within an epoch on real data)."""

    @staticmethod
    def forward(ctx, x: torch.Tensor) -> torch.Tensor:
        ctx.save_for_backward(x)
        return x.clamp(0.0, 1.0)

    @staticmethod
    def backward(ctx, grad: torch.Tensor):
        (x,) = ctx.saved_tensors
        inside = (x >= 0.0) & (x <= 1.0)
        return grad * torch.where(inside, 1.0, LEAK)


LEAK = 0.05
def fake_quant(w: torch.Tensor, quant: int) -> torch.Tensor:
    """``w`` rounded to multiples of 1/quant in the forward pass, unchanged in the backward
    (a straight-through estimator): training sees the net the inference will run."""
    return w + (torch.round(w * quant) / quant - w).detach()


class WuziNet(nn.Module):
    """``version``: 6 (a pair row per side and the policy's window term), 8 (version 6 with
    the pair rows for each colour to move) or 1 (the direction keys alone)."""

    def __init__(self, features: int = FEATURES, hidden: int = HIDDEN, version: int = 6) -> None:
        super().__init__()
        if version not in VERSION_ROWS:
            raise ValueError(f"net version {version}: the trainer makes versions 1, 6 and 8")
        self.version = version
        self.embedding = nn.Parameter(torch.empty(VERSION_ROWS[version], features))
        # Training only: the value input normalised per lane (batch statistics while
        # training, running ones in eval), folded into value1 on export (``folded``), so
        # the exported net is exactly the net file's shape. Without it the policy's moves of the
        # shared embedding shifted the board sums and drove every hidden unit out of the
        # clamp's range: the value loss stayed at the constant guess's.
        self.value_norm = nn.BatchNorm1d(features, affine=False, momentum=0.05)
        self.value1 = nn.Linear(features, hidden)
        self.value2 = nn.Linear(hidden, 1)
        self.policy = nn.Linear(features, 1)
        # Version 6: the policy's window term, starting at zero (it refines the cell's logit).
        self.window = nn.Parameter(torch.zeros(WINDOW_CODES)) if version in PAIR_VERSIONS else None
        # While set, the key vectors and policy weights are rounded as the inference
        # rounds them (the trainer's last epochs, the evaluation of those nets).
        self.quant: int | None = None
        self.reset_parameters()

    def reset_parameters(self) -> None:
        # Cells start mostly inside the clamp's slope (a four-key sum near 0.2 to 0.6), so
        # no lane starts dead.
        with torch.no_grad():
            self.embedding.uniform_(-0.05, 0.2)
            # The pair rows start small: they refine what the four keys already say.
            self.embedding[KEYS:].uniform_(-0.05, 0.05)
        self.value1.reset_parameters()
        with torch.no_grad():
            self.value1.bias.fill_(0.5)  # hidden units start inside the clamp
        self.value2.reset_parameters()
        self.policy.reset_parameters()

    @torch.no_grad()
    def folded(self) -> "WuziNet":
        """A copy whose value_norm is the identity, folded into value1: the same function
        in eval mode, of the exported shape."""
        out = WuziNet(self.embedding.shape[1], self.value1.out_features, self.version)
        out.load_state_dict(self.state_dict())
        scale = 1.0 / torch.sqrt(self.value_norm.running_var + self.value_norm.eps)
        w = self.value1.weight * scale
        out.value1.weight.copy_(w)
        out.value1.bias.copy_(self.value1.bias - w @ self.value_norm.running_mean)
        out.value_norm.reset_running_stats()  # mean 0, var 1
        out.value_norm.eps = 0.0
        out.quant = self.quant
        out.eval()
        return out

    @staticmethod
    def prepare_keys(keys: torch.Tensor) -> torch.Tensor:
        """uint8 keys [B, S*S, 4] -> int64 indices with 255 mapped to PAD."""
        k = keys.long()
        return torch.where(k == OCCUPIED, torch.full_like(k, PAD), k)

    def cells(self, idx: torch.Tensor) -> torch.Tensor:
        """Activations [B, S*S, F] from prepared indices [B, S*S, 4]: the input of the value
        (summed over the cells) and of the policy (per cell)."""
        b, n, _ = idx.shape
        e = fake_quant(self.embedding, self.quant) if self.quant else self.embedding
        # The PAD index (a stone) picks this zero row: stones contribute nothing.
        table = torch.cat([e[:KEYS], e.new_zeros(1, e.shape[1]), e[KEYS:]])
        if self.version in PAIR_VERSIONS:
            white = white_to_move(idx) if self.version == 8 else None
            idx = torch.cat([idx, split_rows(idx, white)], dim=-1)
        h = SumGather.apply(idx.reshape(b * n, -1), table).reshape(b, n, -1)
        # Version 6 trains with the leaky backward (the same forward); version 1 keeps the
        # plain clamp, so that its committed nets are retrained to the same bytes.
        return h.clamp(0.0, 1.0) if self.version == 1 else LeakyClamp.apply(h)

    def forward(self, idx: torch.Tensor, windows: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """Returns (value logits [B], policy logits [B, S*S] with stones at -inf).
        ``windows``: the window codes [B, S*S, 4] (int64), which a version-6 net needs."""
        a = self.cells(idx)
        v = self.value_norm(a.sum(dim=1) / VALUE_DIVISOR)
        v = LeakyClamp.apply(self.value1(v))
        z = self.value2(v).squeeze(-1)
        w = fake_quant(self.policy.weight, self.quant) if self.quant else self.policy.weight
        logits = F.linear(a, w, self.policy.bias).squeeze(-1)
        if self.window is not None:
            if windows is None:
                raise ValueError("a version-6 net needs the window codes (version-3 feature files)")
            t = fake_quant(self.window, WINDOW_QUANT) if self.quant else self.window
            logits = logits + t[windows].sum(dim=-1)
        empty = idx[:, :, 0] != PAD
        logits = logits.masked_fill(~empty, float("-inf"))
        return z, logits


def value_target(score: torch.Tensor, result: torch.Tensor, lam: float = LAMBDA,
                 scale: float = SCORE_SCALE) -> torch.Tensor:
    r = (result.float() + 1.0) / 2.0
    return lam * r + (1.0 - lam) * torch.sigmoid(score.float() / scale)


def top_k_hits(logits: torch.Tensor, best: torch.Tensor, ks: tuple[int, ...]) -> list[int]:
    """For each k of ``ks``, how many rows hold the best move among their k highest logits
    (a stone's -inf logit never ranks above an empty cell's), from one ranking."""
    top = logits.topk(min(max(ks), logits.shape[1]), dim=1).indices == best.long().unsqueeze(1)
    return [int(top[:, :k].any(dim=1).sum()) for k in ks]


def losses(z: torch.Tensor, logits: torch.Tensor, target: torch.Tensor, best: torch.Tensor):
    """(value BCE, policy cross-entropy, top-1 hits), the losses as batch means."""
    value = F.binary_cross_entropy_with_logits(z, target)
    policy = F.cross_entropy(logits, best)
    hits = (logits.argmax(dim=1) == best).sum()
    return value, policy, hits
