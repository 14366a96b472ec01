"""An SPRT between two engine configurations on a Ray cluster.

Each task plays one game pair, both colours of one opening of a suite file, with
`wuzi match` (wuzi's own harness: both engines in one process, a node budget or the time
manager's limits a move) and returns its JSON line with the build's identity. The driver
keeps as many pairs in flight as the cluster has CPUs, counts the pairs as they finish
(the pentanomial tally: pairs by A's points, 0 to 2 in halves), runs the sequential test
after each, and cancels the pairs in flight when it decides. The statistics are `stats`'s,
those of `examples/selfplay.rs`.
"""

from __future__ import annotations

import json
import os
import shlex
import time
from dataclasses import dataclass, field

import ray

from . import build as builds
from .stats import bounds, elo_interval, llr

#: Fewest pairs before the test may stop: the ratio takes the variance from the pairs
#: seen, and a handful of alike pairs make it tiny and the ratio huge (as selfplay.rs).
MIN_PAIRS = 20
#: How often Ray runs a pair again after its worker died or its engine was killed.
MAX_RETRIES = 3


def suite_ids(path: str) -> list[str]:
    """The ids of a suite file's rows, as `wuzi::suite` counts them (no comments, no blank
    lines)."""
    with open(path) as f:
        return [ln.split("\t")[0] for ln in f if ln.strip() and not ln.startswith("#")]


@dataclass
class Test:
    """What is tested: the openings, the `wuzi match` flags of both sides and the SPRT's
    bounds and error rates."""

    openings: str
    match_args: list[str]
    size: int = 15
    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    max_pairs: int | None = None
    min_pairs: int = MIN_PAIRS
    #: CPUs a pair takes on its worker: the more threads of the two sides.
    task_cpus: int = 1

    def command(self, opening: str = "N") -> str:
        """The `wuzi match` command of a pair (opening `N`)."""
        return shlex.join(["wuzi", "match", "--openings", self.openings, "--opening", opening,
                           "--size", str(self.size), *self.match_args])

    def side(self, prefix: str) -> str:
        """A side's own flags (`--a-...` or `--b-...`) and the shared ones."""
        flags, args, i = [], self.match_args, 0
        while i < len(args):
            a = args[i]
            takes_value = i + 1 < len(args) and not args[i + 1].startswith("--")
            group = args[i:i + 2] if takes_value else args[i:i + 1]
            if not (a.startswith("--a-") or a.startswith("--b-")) or a.startswith(prefix):
                flags += group
            i += len(group)
        return shlex.join(flags)


@ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=[builds.ChildKilled])
def play_pair(build: builds.Build, openings: str, size: int, match_args: list[str],
              index: int) -> dict:
    """Plays the pair of opening `index` with `wuzi match` on this worker; a worker whose
    build is not the expected one returns its identity and plays nothing."""
    binary, ident = build.resolve()
    result = {"index": index, "build": ident, **builds.task_stamp()}
    if ident != build.expected:
        return result
    start = time.perf_counter()
    out = builds.run_engine([binary, "match", "--openings", openings, "--opening", str(index),
                             "--size", str(size), *match_args])
    result.update(pair=json.loads(out.strip().splitlines()[-1]),
                  seconds=time.perf_counter() - start)
    return result


@dataclass
class Tally:
    """The games and pairs counted so far, from A's side."""

    wins: int = 0
    losses: int = 0
    draws: int = 0
    penta: list[int] = field(default_factory=lambda: [0] * 5)

    def add(self, pair: dict) -> None:
        for g in pair["games"]:
            p = g["points"]
            if p == 1.0:
                self.wins += 1
            elif p == 0.0:
                self.losses += 1
            else:
                self.draws += 1
        self.penta[round(pair["a_points"] * 2)] += 1

    @property
    def pairs(self) -> int:
        return sum(self.penta)


def run_sprt(test: Test, build: builds.Build, *, concurrency: int | None = None,
             log=print) -> dict:
    """Plays pairs as Ray tasks (Ray initialised, the build and the openings file, by its
    base name, in the tasks' working directory) until the SPRT decides or the pairs run
    out, and gives the report as a dict."""
    ids = suite_ids(test.openings)
    if not ids:
        raise ValueError(f"{test.openings}: no openings")
    max_pairs = test.max_pairs or len(ids)
    if concurrency is None:
        concurrency = max(1, int(ray.cluster_resources().get("CPU", 1)) // test.task_cpus)
    lower, upper = bounds(test.alpha, test.beta)
    openings_name = os.path.basename(test.openings)
    tally, refused, failed, pairs = Tally(), [], [], []
    decision, ratio = None, 0.0
    in_flight: dict = {}
    next_pair = 0
    start = time.perf_counter()

    def submit() -> None:
        nonlocal next_pair
        while len(in_flight) < concurrency and next_pair < max_pairs:
            index = next_pair % len(ids)
            ref = play_pair.options(num_cpus=test.task_cpus).remote(
                build, openings_name, test.size, test.match_args, index)
            in_flight[ref] = index
            next_pair += 1

    submit()
    try:
        while in_flight and decision is None:
            done, _ = ray.wait(list(in_flight), num_returns=1)
            index = in_flight.pop(done[0])
            try:
                r = ray.get(done[0])
            except (ray.exceptions.RayError, builds.ChildFailed) as e:
                failed.append(f"opening {index}: {e}")
                log(f"pair of opening {index} failed: {e}")
                if isinstance(e, builds.ChildFailed):
                    break  # the engine refused its flags: every pair would fail so
                submit()
                continue
            if r["build"] != build.expected or "pair" not in r:
                refused.append(f"opening {index} from {r['host']}: build {r['build']}")
                log(f"pair of opening {index} refused: {r['host']} runs build {r['build']}, "
                    f"the test's is {build.expected}")
                submit()
                continue
            tally.add(r["pair"])
            pairs.append({"index": index, "opening": r["pair"]["opening"],
                          "a_points": r["pair"]["a_points"], "host": r["host"],
                          "seconds": round(r["seconds"], 2)})
            ratio = llr(tally.penta, test.elo0, test.elo1)
            log(f"pair {tally.pairs} ({r['pair']['opening']}): A {r['pair']['a_points']}; "
                f"W-L-D {tally.wins}-{tally.losses}-{tally.draws}, pairs {tally.penta}, "
                f"LLR {ratio:.2f} ({lower:.2f}, {upper:.2f})")
            if tally.pairs >= test.min_pairs and (ratio >= upper or ratio <= lower):
                decision = "H1" if ratio >= upper else "H0"
                break
            submit()
    finally:
        for ref in in_flight:
            ray.cancel(ref, force=True)
    elo, lo, hi = elo_interval(tally.penta)
    return {
        "decision": decision,
        "llr": ratio,
        "bounds": [lower, upper],
        "elo0": test.elo0, "elo1": test.elo1, "alpha": test.alpha, "beta": test.beta,
        "wins": tally.wins, "losses": tally.losses, "draws": tally.draws,
        "pairs": tally.pairs, "penta": tally.penta,
        "elo": elo, "elo_low": lo, "elo_high": hi,
        "openings": test.openings, "openings_in_file": len(ids),
        "openings_used": sorted({p["opening"] for p in pairs}),
        "rows_used": sorted({p["index"] for p in pairs}),
        "command": test.command(), "a": test.side("--a-"), "b": test.side("--b-"),
        "build": build.expected,
        "cancelled": len(in_flight),
        "refused": refused, "failed": failed,
        "seconds": time.perf_counter() - start,
        "hosts": sorted({p["host"] for p in pairs}),
        "pair_results": pairs,
    }


def ranges(rows: list[int]) -> str:
    """Sorted row numbers as ranges: `0-3, 7, 9-10`."""
    out, i = [], 0
    while i < len(rows):
        j = i
        while j + 1 < len(rows) and rows[j + 1] == rows[j] + 1:
            j += 1
        out.append(str(rows[i]) if i == j else f"{rows[i]}-{rows[j]}")
        i = j + 1
    return ", ".join(out)


def report_text(r: dict) -> str:
    """The report in a few lines of Markdown, to cite in docs/strength.md."""
    if r["decision"] is None:
        verdict = "undecided"
    else:
        verdict = f"{r['decision']} accepted"
    lines = [
        f"# SPRT [{r['elo0']:g}, {r['elo1']:g}] (alpha {r['alpha']:g}, beta {r['beta']:g}): "
        f"{verdict}",
        "",
        f"- A (the first configuration): `{r['a']}`",
        f"- B: `{r['b']}`",
        f"- each pair: `{r['command']}`",
        f"- W-L-D (A's) {r['wins']}-{r['losses']}-{r['draws']} in {r['pairs']} pairs; "
        f"pairs by A's points (0, 0.5, 1, 1.5, 2): {r['penta']}",
        f"- Elo {r['elo']:+.0f} [{r['elo_low']:+.0f}, {r['elo_high']:+.0f}] (95%)",
        f"- LLR {r['llr']:.2f} (bounds {r['bounds'][0]:.2f}, {r['bounds'][1]:.2f})",
        f"- openings: {r['openings']}, {len(r['openings_used'])} of its "
        f"{r['openings_in_file']}: rows {ranges(r['rows_used'])} (from 0)",
        f"- build: {r['build']}",
        f"- {r['seconds']:.0f} s on {', '.join(r['hosts'])}; {r['cancelled']} pairs in "
        f"flight cancelled at the end; {len(r['refused'])} refused, {len(r['failed'])} failed",
    ]
    for what in ("refused", "failed"):
        lines += [f"  - {what}: {x}" for x in r[what]]
    return "\n".join(lines) + "\n"
