#!/usr/bin/env python3
"""wuzi on a Ray cluster (docs/cluster.md).

  cluster.py datagen --binary target/release/wuzi --out DIR [the flags of wuzi datagen]
  cluster.py sprt --binary target/release/wuzi --openings FILE --report FILE \\
      [--elo0 0 --elo1 10 --alpha 0.05 --beta 0.05] -- [the flags of wuzi match]

Without --address a Ray cluster of --cpus CPUs is started on this machine for the run;
`--address auto` joins the cluster `ray start` began, `--address ray://HOST:10001` a
remote one. Exit 0 when the run is complete (datagen) or the test decided (sprt), 1 when
not, 2 on bad arguments, 3 when a result was refused (another build).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ray  # noqa: E402

from wuzicluster import build as builds, connect  # noqa: E402
from wuzicluster.datagen import run_datagen  # noqa: E402
from wuzicluster.shards import Run  # noqa: E402
from wuzicluster.sprt import Test, report_text, run_sprt  # noqa: E402


def common(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--binary", default="target/release/wuzi",
                    help="the wuzi binary to run (shipped to the workers unless --binary-on-nodes)")
    ap.add_argument("--binary-on-nodes", metavar="PATH",
                    help="run the binary at PATH on every node (built there) instead of shipping "
                         "--binary; results of a build other than --binary's are refused")
    ap.add_argument("--expect-build", metavar="ID",
                    help="the build identity results must have (default: --binary's and the "
                         "shipped files', as `wuzi:SHA256...`)")
    ap.add_argument("--address", help="the Ray cluster to join (default: start one here)")
    ap.add_argument("--cpus", type=int, default=os.cpu_count(),
                    help="CPUs of the cluster started here (without --address)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    d = sub.add_parser("datagen", help="self-play shards, one Ray task a shard")
    common(d)
    run_defaults = Run()
    d.add_argument("--out", required=True, help="the shards' directory (created if missing)")
    d.add_argument("--games", type=int, default=run_defaults.games)
    d.add_argument("--nodes", type=int, default=run_defaults.nodes)
    d.add_argument("--rule", default=run_defaults.rule)
    d.add_argument("--size", type=int, default=run_defaults.size)
    d.add_argument("--shard-games", type=int, default=run_defaults.shard_games)
    d.add_argument("--seed", type=int, default=run_defaults.seed)
    d.add_argument("--eval", default=run_defaults.eval,
                   help="default, classical or a net file (shipped with the binary)")
    d.add_argument("--openings", choices=("centre", "wide"), default=run_defaults.openings,
                   help="where the random opening stones go (docs/datagen.md)")
    s = sub.add_parser("sprt", help="an SPRT between two configurations, one Ray task a game pair")
    common(s)
    s.add_argument("--openings", required=True, help="a suite file of balanced openings")
    s.add_argument("--size", type=int, default=15, help="the openings' board size")
    s.add_argument("--elo0", type=float, default=0.0)
    s.add_argument("--elo1", type=float, default=10.0)
    s.add_argument("--alpha", type=float, default=0.05)
    s.add_argument("--beta", type=float, default=0.05)
    s.add_argument("--max-pairs", type=int,
                   help="most pairs (default: one per opening; more go round the file again)")
    s.add_argument("--min-pairs", type=int, default=20, help="fewest pairs before a decision")
    s.add_argument("--task-cpus", type=int, default=1,
                   help="CPUs a pair takes (the more --a-threads and --b-threads of the two)")
    s.add_argument("--ship", action="append", default=[], metavar="FILE",
                   help="a file the match flags name (a net file), shipped by its base name")
    s.add_argument("--report", required=True, help="the report (Markdown; JSON beside it)")
    s.add_argument("match_args", nargs=argparse.REMAINDER,
                   help="after --: the flags of wuzi match (--ms, --nodes, --a-eval, --b-eval, ...)")
    a = ap.parse_args(argv)

    if a.command == "datagen":
        run = Run(games=a.games, nodes=a.nodes, rule=a.rule, size=a.size,
                  shard_games=a.shard_games, seed=a.seed, eval=a.eval, openings=a.openings)
        files = [run.eval_file] if run.eval_file else []
    else:
        if a.match_args[:1] == ["--"]:
            a.match_args = a.match_args[1:]
        files = [a.openings, *a.ship]
    try:
        staging = builds.stage(a.binary, files, a.binary_on_nodes, a.expect_build)
    except (OSError, ValueError) as e:
        print(f"cluster.py: {e}", file=sys.stderr)
        return 2
    try:
        start = time.perf_counter()
        connect(a.address, a.cpus if a.address is None else None, staging.runtime_env)
        print(f"build {staging.build.expected}; cluster CPUs "
              f"{ray.cluster_resources().get('CPU', 0):g}, joined in "
              f"{time.perf_counter() - start:.1f} s", flush=True)
        if a.command == "datagen":
            summary = run_datagen(run, a.out, staging.build,
                                  log=lambda m: print(m, flush=True))
            print(summary.line())
            if summary.refused:
                return 3
            return 0 if summary.ok else 1
        test = Test(openings=a.openings, match_args=a.match_args, size=a.size, elo0=a.elo0,
                    elo1=a.elo1, alpha=a.alpha, beta=a.beta, max_pairs=a.max_pairs,
                    min_pairs=a.min_pairs, task_cpus=a.task_cpus)
        report = run_sprt(test, staging.build, log=lambda m: print(m, flush=True))
        text = report_text(report)
        with open(a.report, "w") as f:
            f.write(text)
        with open(os.path.splitext(a.report)[0] + ".json", "w") as f:
            json.dump(report, f, indent=1)
        print(text, end="")
        if report["refused"]:
            return 3
        return 0 if report["decision"] else 1
    finally:
        ray.shutdown()
        staging.cleanup()


if __name__ == "__main__":
    sys.exit(main())
