#!/usr/bin/env python3
"""Evaluates a net file on feature records with the plain-numpy reference forward pass
(wuzinet.netfile.reference_forward), to check another implementation of the net (wuzi's
inference) against: for each record its value logit, P(win) and best policy cells; and the
mean losses over the records. ``--quantised`` rounds the key vectors and policy weights as
the inference does."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wuzinet import features, model, netfile  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--net", required=True)
    ap.add_argument("--data", required=True, help="a feature file (.wzf)")
    ap.add_argument("--records", type=int, default=5, help="how many records, from --first")
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--quantised", action="store_true")
    ap.add_argument("--json", action="store_true", help="one JSON object a record")
    a = ap.parse_args(argv)
    try:
        params = netfile.read_net(a.net)
        f = features.open_features(a.data)
    except (netfile.NetFileError, features.FeatureFileError) as e:
        print(f"check_net.py: {e}", file=sys.stderr)
        return 2
    if a.quantised:
        params = netfile.quantised(params)
    rec = f.records[a.first : a.first + a.records]
    v_loss = p_loss = 0.0
    hits = 0
    for i, r in enumerate(rec):
        windows = r["windows"] if f.windows else None
        if "policy.window" in params and windows is None:
            print("check_net.py: a version-6 net needs a version-3 feature file (window codes)",
                  file=sys.stderr)
            return 2
        z, p_win, logits, probs = netfile.reference_forward(params, r["keys"], windows=windows)
        t = model.LAMBDA * (int(r["result"]) + 1) / 2 + (1 - model.LAMBDA) / (1 + np.exp(-int(r["score"]) / model.SCORE_SCALE))
        v_loss += -(t * np.log(p_win) + (1 - t) * np.log(1 - p_win))
        best = int(r["best"])
        p_loss += -np.log(max(probs[best], 1e-300))
        top = [int(c) for c in np.argsort(-probs)[:3]]
        hits += top[0] == best
        row = {"record": a.first + i, "value_logit": z, "p_win": p_win, "top_cells": top,
               "top_probs": [float(probs[c]) for c in top], "best": best,
               "score": int(r["score"]), "result": int(r["result"])}
        if a.json:
            print(json.dumps(row))
        else:
            print(f"record {row['record']}: value logit {z:+.5f} (P(win) {p_win:.4f}; score {row['score']}, "
                  f"result {row['result']:+d}); policy top {top} {[round(p, 4) for p in row['top_probs']]}, best {best}")
    n = max(len(rec), 1)
    if not a.json:
        print(f"{len(rec)} records: value loss {v_loss / n:.4f}, policy loss {p_loss / n:.4f}, top-1 {100 * hits / n:.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
