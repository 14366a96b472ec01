"""`wuzi datagen` on a Ray cluster: one task a shard, gathered into one directory.

Shard `k` of a run depends only on the run's arguments, its seed and `k`
(docs/datagen.md), so a task runs `wuzi datagen --shards k` on its worker into a scratch
directory and returns the shard's bytes; the driver checks the build and the bytes and
writes the shard into the output directory under a temporary name, renamed when whole.
The result is the directory a local `wuzi datagen` run with the same arguments makes,
byte for byte. The driver skips the shards the directory holds whole already, so a run
stopped (or a driver killed) resumes by running the same command again.

Faults: a worker process that dies mid-task (killed, out of memory) loses only its task,
which Ray runs again (`max_retries`); an engine process killed under a live worker raises
`ChildKilled`, which Ray retries too. Nothing reaches the output directory from a task
that did not finish.
"""

from __future__ import annotations

import os
import signal
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import ray

from . import build as builds
from .shards import Run, ShardError, complete, positions, write_whole

#: How often Ray runs a task again after its worker died or its engine was killed.
MAX_RETRIES = 3


@dataclass
class Summary:
    """What a run did."""

    shards: int = 0
    written: int = 0
    skipped: int = 0
    positions: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    refused: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    tasks: list[dict] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.refused and not self.failed

    def line(self) -> str:
        rate = self.positions / self.seconds if self.seconds > 0 else 0.0
        per_cpu = self.positions / self.cpu_seconds if self.cpu_seconds > 0 else 0.0
        return (f"{self.written} shards written, {self.skipped} complete already, "
                f"{len(self.refused)} refused, {len(self.failed)} failed; "
                f"{self.positions} positions in {self.seconds:.1f} s: {rate:.0f} positions/s; "
                f"the engines' CPU time {self.cpu_seconds:.1f} s, {per_cpu:.0f} positions "
                f"a CPU second")


def _kill_self_once(marker: str) -> None:
    """A fault for the tests, called once the task's engine runs: the first task to find no
    `marker` file creates it and kills its own worker process on the spot, so the task
    dies while its engine plays and before it can return anything."""
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    os.write(fd, f"{os.getpid()}\n".encode())
    os.close(fd)
    os.kill(os.getpid(), signal.SIGKILL)


@ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=[builds.ChildKilled])
def make_shard(build: builds.Build, run: Run, k: int, kill_once: str | None = None) -> dict:
    """Runs `wuzi datagen --shards k` of `run` with `build` on this worker and returns the
    shard's bytes with the build's identity; a worker whose build is not the expected one
    returns its identity and no shard, without playing."""
    binary, ident = build.resolve()
    result = {"k": k, "build": ident, **builds.task_stamp()}
    if ident != build.expected:
        return result
    fault = (lambda: _kill_self_once(kill_once)) if kill_once else None
    start, cpu = time.perf_counter(), builds.children_cpu()
    with tempfile.TemporaryDirectory(prefix="wuzi-shard-") as tmp:
        builds.run_engine([binary, "datagen", "--out", tmp, "--workers", "1",
                           "--shards", str(k), *run.args(worker=True)], on_start=fault)
        data = Path(tmp, run.name(k)).read_bytes()
    result.update(data=data, seconds=time.perf_counter() - start,
                  cpu_seconds=builds.children_cpu() - cpu)
    return result


def run_datagen(run: Run, out: str | os.PathLike, build: builds.Build, *,
                kill_once: str | None = None, log=print) -> Summary:
    """Makes the shards of `run` missing from `out` as Ray tasks (Ray must be initialised,
    with `build` reachable by the workers) and writes each whole one into `out`."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    summary = Summary(shards=run.shards)
    start = time.perf_counter()
    todo = []
    for k in range(run.shards):
        if complete(out / run.name(k), run):
            summary.skipped += 1
        else:
            todo.append(k)
    log(f"{run.shards} shards, {summary.skipped} complete already, {len(todo)} to make")
    refs = {make_shard.remote(build, run, k, kill_once): k for k in todo}
    pending = list(refs)
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            k = refs[done[0]]
            try:
                r = ray.get(done[0])
            except (ray.exceptions.RayError, builds.ChildFailed) as e:
                summary.failed.append(f"shard {k}: {e}")
                log(f"shard {k} failed: {e}")
                if isinstance(e, builds.ChildFailed):
                    break  # the engine refused the run's arguments: every shard would fail so
                continue
            if r["build"] != build.expected or "data" not in r:
                summary.refused.append(f"shard {k} from {r['host']}: build {r['build']}")
                log(f"shard {k} refused: {r['host']} runs build {r['build']}, "
                    f"the run's is {build.expected}")
                continue
            try:
                n = positions(r["data"], run.shard_games, run.size)
            except ShardError as e:
                summary.failed.append(f"shard {k}: {e}")
                log(f"shard {k} refused: {e}")
                continue
            write_whole(out / run.name(k), r["data"])
            summary.written += 1
            summary.positions += n
            summary.cpu_seconds += r["cpu_seconds"]
            summary.tasks.append({"k": k, "host": r["host"], "pid": r["pid"],
                                  "seconds": r["seconds"], "cpu_seconds": r["cpu_seconds"],
                                  "positions": n})
            log(f"shard {k}: {n} positions in {r['seconds']:.1f} s ({r['cpu_seconds']:.1f} s "
                f"of CPU) on {r['host']}")
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
    summary.seconds = time.perf_counter() - start
    return summary
