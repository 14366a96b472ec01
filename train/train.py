#!/usr/bin/env python3
"""Trains wuzi's learned evaluation (value and policy) from feature files (.wzf) and
writes the net file (.wznet) and a JSON report beside it. See train/README.md."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wuzinet import features, trainer  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    d = trainer.Config()
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", nargs="+", required=True, metavar="DIR_OR_FILE",
                    help="feature files (.wzf), or directories of them")
    ap.add_argument("--out", required=True, help="the net file to write (.wznet); the report goes beside it (.json)")
    ap.add_argument("--epochs", type=int, default=d.epochs)
    ap.add_argument("--batch", type=int, default=d.batch)
    ap.add_argument("--lr", type=float, default=d.lr, help="AdamW's learning rate (cosine decay to 1/20)")
    ap.add_argument("--weight-decay", type=float, default=d.weight_decay)
    ap.add_argument("--seed", type=int, default=d.seed, help="initialisation, shuffling and the held-out split")
    ap.add_argument("--held-out", type=float, default=d.held_out,
                    help="share of the games held out (each game by a key of its first position and --seed, "
                         "so a game held out stays held out when data is added)")
    ap.add_argument("--threads", type=int, default=d.threads, help="PyTorch's CPU threads")
    ap.add_argument("--lambda", dest="lam", type=float, default=d.lam,
                    help="weight of the game result in the value target (the rest: the search score)")
    ap.add_argument("--score-scale", type=float, default=d.score_scale)
    ap.add_argument("--policy-weight", type=float, default=d.policy_weight)
    ap.add_argument("--quant-epochs", type=int, default=d.quant_epochs,
                    help="last epochs trained with the weights rounded as the inference rounds them")
    ap.add_argument("--no-validate", action="store_true", help="skip checking every record's contents")
    ap.add_argument("--hidden", type=int, default=d.hidden,
                    help="units of the value's hidden layer (wuzi reads 1 to 256)")
    ap.add_argument("--net-version", type=int, choices=(1, 6, 8), default=d.net_version,
                    help="6: with a pair row per side and the policy's window term (version-3 "
                         "feature files; the built-in 15x15 nets); 8: version 6 with the pair "
                         "rows for each colour to move (renju; from a version-6 --init, its "
                         "pair rows copied for both); 1: the direction keys alone")
    ap.add_argument("--init", metavar="NET",
                    help="start from this net file (its version and hidden width) instead of "
                         "random weights")
    ap.add_argument("--value-only", action="store_true",
                    help="train the value layers alone; the key vectors, the policy and its "
                         "window term stay as the --init net has them")
    ap.add_argument("--policy-only", action="store_true",
                    help="train the policy alone (its weights and window term); "
                         "the key vectors and the value layers stay as the --init net has them")
    ap.add_argument("--device", choices=("auto", "cuda", "cpu"), default=d.device,
                    help="where the net trains: auto (a CUDA GPU where PyTorch sees one, else "
                         "the CPU), cuda or cpu")
    a = ap.parse_args(argv)
    cfg = trainer.Config(
        epochs=a.epochs, batch=a.batch, lr=a.lr, weight_decay=a.weight_decay, seed=a.seed,
        held_out=a.held_out, threads=a.threads, lam=a.lam, score_scale=a.score_scale,
        policy_weight=a.policy_weight, quant_epochs=a.quant_epochs, hidden=a.hidden,
        init=a.init, net_version=a.net_version, value_only=a.value_only,
        policy_only=a.policy_only, device=a.device,
    )
    t0 = time.perf_counter()
    try:
        data = trainer.load(a.data, validate=not a.no_validate)
    except (features.FeatureFileError, OSError) as e:
        print(f"train.py: {e}", file=sys.stderr)
        return 2
    load_seconds = time.perf_counter() - t0
    print(f"read in {load_seconds:.1f} s", flush=True)
    try:
        net, report = trainer.train(data, cfg)
    except (trainer.InitError, trainer.DataError) as e:
        print(f"train.py: {e}", file=sys.stderr)
        return 2
    report["load_seconds"] = load_seconds
    path = trainer.export(net, a.out, report)
    h = report["held_out"]
    print(
        f"wrote {a.out} and {path}: held-out value {h['value_loss']:.4f}, policy "
        f"{h['policy_loss']:.4f}, top-1 {100 * h['policy_acc']:.1f}%, trained in "
        f"{report['train_seconds']:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
