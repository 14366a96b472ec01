"""The held-out split, the training loop, the evaluation and the report."""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
import torch

from . import features, model, netfile


@dataclass
class Config:
    epochs: int = 4
    batch: int = 256
    lr: float = 5e-3
    # The last this many epochs train with the key vectors and policy weights rounded as
    # the inference rounds them (straight-through gradients); the export is rounded so.
    quant_epochs: int = 2
    # The value head's learning rate is this many times ``lr`` (1: the same; kept as a knob).
    value_lr_mult: float = 1.0
    # Train the value layers alone: the key vectors, the policy and its window term stay as
    # the ``init`` net has them (which needs ``init``).
    value_only: bool = False
    # Train the policy alone (its weights and window term): the key vectors and
    # the value layers stay as the ``init`` net has them (which needs ``init``).
    policy_only: bool = False
    weight_decay: float = 1e-4
    seed: int = 1
    held_out: float = 0.05
    threads: int = 1
    lam: float = model.LAMBDA
    score_scale: float = model.SCORE_SCALE
    policy_weight: float = model.POLICY_WEIGHT
    # Units of the value's hidden layer (the net file records it; wuzi reads 1 to 256).
    hidden: int = model.HIDDEN
    # 6: a pair row per side (model.split_rows) and the policy's window term (needs
    # version-3 feature files; the built-in 15x15 nets); 8: version 6 with the pair rows
    # for each colour to move (renju); 1: the direction keys alone (the built-in 20x20 net).
    net_version: int = 6
    # A net file to start from instead of random weights (its shape decides the net's:
    # ``shape_of``; a version-6 file starts a version-8 net when that is asked for), e.g.
    # the 15x15 net for a first net of another board size or rule.
    init: str | None = None
    # Where the net trains: "auto" (a CUDA GPU where PyTorch sees one, else the CPU),
    # "cuda" or "cpu". The records stay in the CPU's memory; each batch is copied over.
    device: str = "auto"


@dataclass
class Data:
    size: int
    keys: torch.Tensor  # uint8 [N, S*S, 4]
    windows: torch.Tensor | None  # int16 [N, S*S, 4] window codes (version-3 files), or None
    best: torch.Tensor  # int64 [N]
    score: torch.Tensor  # int16 [N]
    result: torch.Tensor  # int8 [N]
    games: np.ndarray  # inferred game of each record
    game_keys: np.ndarray | None = None  # a content key per game (features.game_keys)
    files: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.best)


def load(inputs: Sequence[str | Path], validate: bool = True) -> Data:
    size, rec, counts = features.load_records(inputs, validate)
    paths = features.feature_paths(inputs)
    return Data(
        size=size,
        keys=torch.from_numpy(np.ascontiguousarray(rec["keys"])),
        windows=(torch.from_numpy(rec["windows"].astype(np.int16))
                 if "windows" in rec.dtype.names else None),
        best=torch.from_numpy(rec["best"].astype(np.int64)),
        score=torch.from_numpy(rec["score"].astype(np.int16)),
        result=torch.from_numpy(rec["result"].astype(np.int8)),
        games=(games := features.game_ids(rec, counts)),
        game_keys=features.game_keys(rec, games),
        files=[str(p) for p in paths],
    )


def split(games: np.ndarray, held_out: float, seed: int,
          game_keys: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Record indices (train, held-out): whole games held out, about ``held_out`` of them
    (at least one when there are two or more, never all), picked by ``seed``. Positions of
    one game are alike, so holding out single records would leak.

    With ``game_keys`` (one content key per game, ``features.game_keys``) a game is held out
    when its key, mixed with the seed, falls below the share: the choice of a game does not
    depend on the other games, so a game held out stays held out when data is added (the
    next generation's net is measured on games its starting net never trained on, and two
    generations' figures compare). Without, ``held_out`` of the games by a permutation."""
    n_games = features.game_count(games)
    if game_keys is not None:
        if len(game_keys) != n_games:
            raise ValueError(f"{len(game_keys)} game keys for {n_games} games")
        u = mix(np.asarray(game_keys, dtype=np.uint64), seed)
        share = min(max(held_out, 0.0), 1.0)
        chosen = u < np.uint64(min(int(share * 2.0**64), 2**64 - 1))
        if held_out > 0 and n_games >= 2 and not chosen.any():
            chosen[int(np.argmin(u))] = True
        if n_games and chosen.all():
            chosen[int(np.argmax(u))] = False
    else:
        k = int(round(held_out * n_games))
        if held_out > 0 and n_games >= 2:
            k = max(k, 1)
        k = min(k, max(n_games - 1, 0))
        rng = np.random.default_rng(seed)
        chosen = np.zeros(n_games, dtype=bool)
        chosen[rng.permutation(n_games)[:k]] = True
    held = chosen[games]
    return np.nonzero(~held)[0], np.nonzero(held)[0]


def mix(keys: np.ndarray, seed: int) -> np.ndarray:
    """64-bit keys mixed with ``seed`` (splitmix64's finaliser): uniform over the 64 bits."""
    with np.errstate(over="ignore"):
        z = keys ^ np.uint64((seed * 0x9E3779B97F4A7C15) % 2**64)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def new_net(cfg: Config) -> model.WuziNet:
    return model.WuziNet(hidden=cfg.hidden, version=cfg.net_version)


class InitError(ValueError):
    """A ``--init`` net file that cannot start this training: unreadable, or not a net file
    of the version read here (a dropped window net is refused by its magic)."""


class DataError(ValueError):
    """Data this net cannot train on (a version-6 net on feature files without window
    codes)."""


def shape_of(params: dict[str, np.ndarray], cfg: Config) -> Config:
    """``cfg`` with the net shape of a file's ``params``: its version and hidden width
    (version 8 kept where it was asked for and the file is version 6: ``start_from``
    copies its pair rows for each colour)."""
    out = Config(**cfg.__dict__)
    out.hidden = params["value1.weight"].shape[0]
    rows = len(params["embedding"])
    version = next(v for v, r in model.VERSION_ROWS.items() if r == rows)
    if not (cfg.net_version == 8 and version == 6):
        out.net_version = version
    return out


@torch.no_grad()
def start_from(net: model.WuziNet, params: dict[str, np.ndarray], data: Data, idx: np.ndarray,
               rng: np.random.Generator) -> None:
    """Sets ``net`` (in training mode) to the function of a net file's ``params``. The file
    holds the value normalisation folded into value1; it is unfolded around the value
    input's statistics on ``data``, so that training, which normalises by each batch's
    statistics, starts from (nearly) the file's net and not from a shifted one."""
    if net.version == 8 and len(params["embedding"]) == model.SPLIT_ROWS:
        params = netfile.with_colour_pairs(params)
    netfile.load_into(net, params)
    norm = net.value_norm
    norm.eps = model.WuziNet().value_norm.eps
    calibrate(net, data, idx, rng)
    scale = torch.sqrt(norm.running_var + norm.eps).float()
    mean = norm.running_mean.float()
    w = net.value1.weight.clone()
    net.value1.weight.copy_(w * scale)
    net.value1.bias.add_(w @ mean)
    net.train()


def inputs(data: Data, idx: torch.Tensor) -> torch.Tensor:
    """The net's input of the records ``idx``: their prepared keys."""
    return model.WuziNet.prepare_keys(data.keys[idx])


def window_codes(data: Data, idx: torch.Tensor, cfg: Config) -> torch.Tensor | None:
    """The window codes of the records ``idx`` for a version-6 net (else None)."""
    return data.windows[idx].long() if cfg.net_version in model.PAIR_VERSIONS else None


def device_of(cfg: Config) -> torch.device:
    """The device ``cfg.device`` names ("auto": CUDA where available, else the CPU)."""
    if cfg.device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if cfg.device == "cuda" and not torch.cuda.is_available():
        raise InitError("--device cuda: PyTorch sees no CUDA device (torch.cuda.is_available() "
                        "is False; a CPU-only wheel of torch, or no GPU)")
    if cfg.device not in ("cuda", "cpu"):
        raise InitError(f"--device {cfg.device}: expected auto, cuda or cpu")
    return torch.device(cfg.device)


def net_device(net: model.WuziNet) -> torch.device:
    """The device a net's weights are on."""
    return net.embedding.device


def batch_tensors(data: Data, idx: np.ndarray | torch.Tensor, cfg: Config,
                  device: torch.device | None = None):
    """The net's inputs, value targets and best moves of the records ``idx``, on ``device``."""
    idx = torch.as_tensor(idx, dtype=torch.long)
    keys = inputs(data, idx)
    target = model.value_target(data.score[idx], data.result[idx], cfg.lam, cfg.score_scale)
    windows = window_codes(data, idx, cfg)
    if device is not None and device.type != "cpu":
        keys, target = keys.to(device), target.to(device)
        windows = windows.to(device) if windows is not None else None
        return keys, windows, target, data.best[idx].to(device)
    return keys, windows, target, data.best[idx]


@torch.no_grad()
def evaluate(net: model.WuziNet, data: Data, idx: np.ndarray, cfg: Config, batch: int = 4096) -> dict:
    """Mean value BCE, policy cross-entropy and top-1 accuracy over the records ``idx``,
    and how often the best move is among the policy's first 3 and 5 (the search tries
    the policy's favourites first: a move found by the third try still cuts early)."""
    net.eval()
    device = net_device(net)
    n = len(idx)
    v_sum = p_sum = r_sum = 0.0
    hits = top3 = top5 = 0
    for i in range(0, n, batch):
        part = idx[i : i + batch]
        keys, windows, target, best = batch_tensors(data, part, cfg, device)
        z, logits = net(keys, windows)
        v, p, h = model.losses(z, logits, target, best)
        r = ((data.result[torch.as_tensor(part, dtype=torch.long)].float() + 1) / 2).to(device)
        r_sum += float(torch.nn.functional.binary_cross_entropy_with_logits(z, r)) * len(part)
        m = len(best)
        v_sum += float(v) * m
        p_sum += float(p) * m
        hits += int(h)
        h3, h5 = model.top_k_hits(logits, best, (3, 5))
        top3 += h3
        top5 += h5
    net.train()
    if n == 0:
        nan = float("nan")
        return {"value_loss": nan, "policy_loss": nan, "policy_acc": nan, "policy_top3": nan,
                "policy_top5": nan, "result_loss": nan, "records": 0}
    # result_loss: the value's BCE against the game result alone, a figure that does not
    # depend on LAMBDA and SCORE_SCALE (to compare nets trained with other values).
    return {"value_loss": v_sum / n, "policy_loss": p_sum / n, "policy_acc": hits / n,
            "policy_top3": top3 / n, "policy_top5": top5 / n, "result_loss": r_sum / n, "records": n}


@torch.no_grad()
def calibrate(net: model.WuziNet, data: Data, idx: np.ndarray, rng: np.random.Generator,
              sample: int = 32768, batch: int = 4096) -> None:
    """Sets the value normalisation's running mean and variance to those of the value input
    over up to ``sample`` training positions, so the net evaluated (and exported) uses the
    statistics of its current embedding rather than a lagging running average."""
    if len(idx) == 0:
        return
    part = idx[rng.permutation(len(idx))[:sample]]
    sums = []
    for i in range(0, len(part), batch):
        keys = inputs(data, torch.as_tensor(part[i : i + batch], dtype=torch.long))
        keys = keys.to(net_device(net))
        sums.append(net.cells(keys).sum(dim=1) / model.VALUE_DIVISOR)
    v = torch.cat(sums).double()
    net.value_norm.running_mean.copy_(v.mean(dim=0))
    net.value_norm.running_var.copy_(v.var(dim=0) if len(v) > 1 else torch.ones_like(v[0]))


def baselines(data: Data, train_idx: np.ndarray, held_idx: np.ndarray, cfg: Config) -> dict:
    """Figures that give the held-out losses a scale: the value BCE of always answering the
    training targets' mean, the least BCE possible (the targets' own entropy: they are
    soft), and the policy loss and accuracy of a uniform guess over the empty cells."""
    if len(held_idx) == 0:
        return {}
    t_train = model.value_target(data.score[train_idx], data.result[train_idx], cfg.lam, cfg.score_scale)
    t = model.value_target(data.score[held_idx], data.result[held_idx], cfg.lam, cfg.score_scale).double()
    m = float(t_train.double().mean())
    m = min(max(m, 1e-6), 1 - 1e-6)
    const = float(-(t * math.log(m) + (1 - t) * math.log(1 - m)).mean())
    tc = t.clamp(1e-12, 1 - 1e-12)
    entropy = float(-(tc * tc.log() + (1 - tc) * (1 - tc).log()).mean())
    empty = (data.keys[held_idx][:, :, 0] != features.OCCUPIED).sum(dim=1).double()
    return {
        "value_loss_constant": const,
        "value_loss_floor": entropy,
        "policy_loss_uniform": float(empty.log().mean()),
        "policy_acc_uniform": float((1.0 / empty).mean()),
    }


def log_line(line: str) -> None:
    print(line, flush=True)


def train(data: Data, cfg: Config, log: Callable[[str], None] = log_line) -> tuple[model.WuziNet, dict]:
    """Trains a net on ``data``; returns it and the report (a dict for JSON)."""
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(max(1, cfg.threads))
    rng = np.random.default_rng(cfg.seed)
    train_idx, held_idx = split(data.games, cfg.held_out, cfg.seed, data.game_keys)
    if len(train_idx) == 0:
        raise ValueError("no training record (too few records or games)")
    params = None
    if cfg.value_only and not cfg.init:
        raise InitError("--value-only trains the value layers of an --init net: name one")
    if cfg.policy_only and not cfg.init:
        raise InitError("--policy-only trains the policy of an --init net: name one")
    if cfg.policy_only and cfg.value_only:
        raise InitError("--policy-only and --value-only together would train nothing")
    if cfg.init:
        # The file is read once; its shape decides the net's.
        try:
            params = netfile.read_net(cfg.init)
        except (netfile.NetFileError, OSError) as e:
            raise InitError(str(e)) from e
        cfg = shape_of(params, cfg)
    if cfg.net_version in model.PAIR_VERSIONS and data.windows is None:
        raise DataError(f"a version-{cfg.net_version} net trains on version-3 feature files (with window codes); "
                        "these are version 1: write them again with `wuzi features`")
    device = device_of(cfg)
    net = new_net(cfg)
    if params is not None:
        start_from(net, params, data, train_idx, rng)
    net.to(device)
    value_params = list(net.value1.parameters()) + list(net.value2.parameters())  # value_norm has none
    policy_params = list(net.policy.parameters())
    if net.window is not None:
        policy_params.append(net.window)
    # A rate of zero holds a group (AdamW's decay is scaled by the rate too).
    frozen = cfg.value_only or cfg.policy_only
    groups = [{"params": [net.embedding], "lr": 0.0 if frozen else cfg.lr},
              {"params": policy_params, "lr": 0.0 if cfg.value_only else cfg.lr},
              {"params": value_params, "lr": 0.0 if cfg.policy_only else cfg.lr * cfg.value_lr_mult}]
    opt = torch.optim.AdamW(groups, weight_decay=cfg.weight_decay)
    steps_per_epoch = math.ceil(len(train_idx) / cfg.batch)
    total = max(1, steps_per_epoch * cfg.epochs)
    # Cosine decay of the learning rate to a twentieth over the run.
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: 0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * min(s, total) / total))
    )
    base = baselines(data, train_idx, held_idx, cfg)
    n_games = features.game_count(data.games)
    held_games = len(np.unique(data.games[held_idx]))
    log(
        f"{len(data)} positions ({data.size}x{data.size}) in {n_games} games from "
        f"{len(data.files)} file(s): {len(train_idx)} to train, {len(held_idx)} held out "
        f"({held_games} games); training on {device}"
    )
    if base:
        log(
            f"held-out baselines: value {base['value_loss_constant']:.4f} (constant), "
            f"{base['value_loss_floor']:.4f} (floor); policy {base['policy_loss_uniform']:.4f} "
            f"({100 * base['policy_acc_uniform']:.1f}%) uniform"
        )
    epochs = []
    start = time.perf_counter()
    init_held = evaluate(net, data, held_idx, cfg)
    for epoch in range(1, cfg.epochs + 1):
        t0 = time.perf_counter()
        if epoch > cfg.epochs - cfg.quant_epochs:
            net.quant = netfile.QUANT
        perm = train_idx[rng.permutation(len(train_idx))]
        v_sum = p_sum = 0.0
        hits = 0
        for i in range(0, len(perm), cfg.batch):
            keys, windows, target, best = batch_tensors(data, perm[i : i + cfg.batch], cfg, device)
            z, logits = net(keys, windows)
            v, p, h = model.losses(z, logits, target, best)
            loss = v + cfg.policy_weight * p
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            m = len(best)
            v_sum += float(v.detach()) * m
            p_sum += float(p.detach()) * m
            hits += int(h)
        n = len(perm)
        tr = {"value_loss": v_sum / n, "policy_loss": p_sum / n, "policy_acc": hits / n}
        calibrate(net, data, train_idx, rng)
        held = evaluate(net, data, held_idx, cfg)
        seconds = time.perf_counter() - t0
        epochs.append({"epoch": epoch, "train": tr, "held_out": held, "seconds": seconds})
        log(
            f"epoch {epoch}/{cfg.epochs}  train value {tr['value_loss']:.4f} policy "
            f"{tr['policy_loss']:.4f} acc {100 * tr['policy_acc']:.1f}%  |  held-out value "
            f"{held['value_loss']:.4f} policy {held['policy_loss']:.4f} acc "
            f"{100 * held['policy_acc']:.1f}% top-5 {100 * held['policy_top5']:.1f}%  |  {seconds:.1f} s"
        )
    # The net is given back (and exported) from the CPU.
    net.to("cpu")
    # The held-out figures of the net as exported: the key vectors and policy weights
    # rounded as the inference rounds them (what the last epochs trained, if any did).
    exported = new_net(cfg)
    netfile.load_into(exported, netfile.quantised(netfile.params_of(net.folded())))
    # Rounding the rounded weights changes nothing.
    exported.quant = netfile.QUANT
    held_q = evaluate(exported, data, held_idx, cfg)
    log(
        f"held-out with the key vectors and policy weights rounded to 1/{netfile.QUANT}: value "
        f"{held_q['value_loss']:.4f} policy {held_q['policy_loss']:.4f} acc {100 * held_q['policy_acc']:.1f}%"
    )
    report = {
        "data": {
            "files": data.files,
            "board_size": data.size,
            "positions": len(data),
            "games": n_games,
            "train_positions": int(len(train_idx)),
            "held_out_positions": int(len(held_idx)),
            "held_out_games": held_games,
            # "game key": each game by a key of its first position (comparable across data
            # sets); "permutation": by a permutation of this data's games.
            "held_out_split": "game key" if data.game_keys is not None else "permutation",
        },
        "config": cfg.__dict__.copy(),
        "net": {"version": cfg.net_version, "K": int(net.embedding.shape[0]),
                "F": model.FEATURES, "H": cfg.hidden,
                "value_divisor": model.VALUE_DIVISOR},
        "held_out_baselines": base,
        "held_out_initial": init_held,
        "epochs": epochs,
        "held_out": epochs[-1]["held_out"] if epochs else init_held,
        "held_out_quantised": held_q,
        "train_seconds": time.perf_counter() - start,
        "torch": torch.__version__,
        "device": str(device),
    }
    return net, report


def export(net: model.WuziNet, out: Path | str, report: dict) -> Path:
    """Writes the net file and, beside it, the report (``OUT`` with ``.json``)."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    report = dict(report)
    report["net_file"] = str(out)
    report["net_sha256"] = netfile.write_net(out, netfile.quantised(netfile.params_of(net.folded())))
    report["net_bytes"] = out.stat().st_size
    path = out.with_suffix(".json")
    path.write_text(json.dumps(report, indent=2) + "\n")
    return path
