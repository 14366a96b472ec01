"""`datagen` on a local Ray cluster makes the shards a local `wuzi datagen` makes, byte for
byte: whole, resumable, with a worker killed in the middle, and never from another build."""

from __future__ import annotations

import dataclasses
import os
import subprocess

from wuzicluster.datagen import run_datagen
from wuzicluster.shards import Run, positions

#: A tiny run: six one-game shards of 15x15 freestyle at 400 nodes a move.
RUN = Run(games=6, nodes=400, shard_games=1, seed=3)


def local_run(binary: str, out) -> dict[str, bytes]:
    """The shards of `RUN` made by `wuzi datagen` itself."""
    subprocess.run([binary, "datagen", "--out", str(out), "--workers", "2", *RUN.args()],
                   check=True, capture_output=True)
    return read_dir(out)


def read_dir(out) -> dict[str, bytes]:
    return {name: (out / name).read_bytes() for name in sorted(os.listdir(out))}


def test_the_cluster_makes_the_local_shards_and_resumes(cluster, wuzi_binary, tmp_path):
    local = local_run(wuzi_binary, tmp_path / "local")
    assert sorted(local) == [RUN.name(k) for k in range(RUN.shards)]
    out = tmp_path / "cluster"
    summary = run_datagen(RUN, out, cluster, log=lambda m: None)
    assert summary.ok and (summary.written, summary.skipped) == (RUN.shards, 0)
    assert read_dir(out) == local
    assert summary.positions == sum(positions(b) for b in local.values())
    # Two workers took the tasks.
    assert len({t["pid"] for t in summary.tasks}) == 2
    # A rerun makes only what is missing or cut short, the same again.
    (out / RUN.name(1)).unlink()
    data = local[RUN.name(4)]
    (out / RUN.name(4)).write_bytes(data[: len(data) - 5])
    summary = run_datagen(RUN, out, cluster, log=lambda m: None)
    assert (summary.written, summary.skipped) == (2, RUN.shards - 2)
    assert sorted(t["k"] for t in summary.tasks) == [1, 4]
    assert read_dir(out) == local


def test_a_run_of_wide_openings_makes_the_local_wide_shards(cluster, wuzi_binary, tmp_path):
    wide = Run(games=2, nodes=400, shard_games=1, seed=3, openings="wide")
    assert wide.name(0) == "freestyle15-wide-n400-s3-00000.wzd"
    local = tmp_path / "local"
    subprocess.run([wuzi_binary, "datagen", "--out", str(local), *wide.args()],
                   check=True, capture_output=True)
    summary = run_datagen(wide, tmp_path / "cluster", cluster, log=lambda m: None)
    assert summary.ok and summary.written == 2
    assert read_dir(tmp_path / "cluster") == read_dir(local)
    assert sorted(read_dir(local)) == [wide.name(0), wide.name(1)]


def test_a_worker_killed_mid_task_costs_only_its_task(cluster, wuzi_binary, tmp_path):
    local = local_run(wuzi_binary, tmp_path / "local")
    marker = tmp_path / "killed"
    out = tmp_path / "cluster"
    summary = run_datagen(RUN, out, cluster, kill_once=str(marker), log=lambda m: None)
    # A worker process did kill itself in a task, and the run is complete all the same:
    # every shard once, whole, under its final name, and none from the dead worker.
    killed_pid = int(marker.read_text())
    assert summary.ok and summary.written == RUN.shards
    assert sorted(t["k"] for t in summary.tasks) == list(range(RUN.shards))
    assert killed_pid not in {t["pid"] for t in summary.tasks}
    assert read_dir(out) == local, "no .part file, no other file"


def test_a_task_of_another_build_is_refused(cluster, tmp_path):
    other = dataclasses.replace(cluster, expected="wuzi:" + "0" * 64)
    summary = run_datagen(dataclasses.replace(RUN, games=2), tmp_path / "out", other,
                          log=lambda m: None)
    assert not summary.ok and summary.written == 0 and len(summary.refused) == 2
    assert cluster.expected.split("+")[0] in summary.refused[0]
    assert os.listdir(tmp_path / "out") == []
