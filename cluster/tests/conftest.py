"""The cluster's tests run a local Ray cluster (`ray.init` with two CPUs: a head and two
worker processes on this machine) against the release build of `wuzi`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "cluster"))

import ray  # noqa: E402

from wuzicluster import build as builds, connect  # noqa: E402

#: The openings the SPRT tests play.
OPENINGS = REPO / "tests" / "data" / "openings" / "freestyle15_balanced_s1.tsv"


def release_binary(name: str, path: str | None = None) -> str:
    """`path`, or the release build of the binary `name`; built here if missing."""
    path = path or str(REPO / "target" / "release" / name)
    if not os.path.isfile(path):
        subprocess.run(["cargo", "build", "--release", "--bin", name], cwd=REPO, check=True)
    return path


@pytest.fixture(scope="package")
def wuzi_binary() -> str:
    """`WUZI_BIN`, or the release build (built here if missing)."""
    return release_binary("wuzi", os.environ.get("WUZI_BIN"))


@pytest.fixture(scope="package")
def pbrain_binary() -> str:
    """The release build of the Gomocup brain `pbrain-wuzi` (built here if missing)."""
    return release_binary("pbrain-wuzi")


@pytest.fixture(scope="package")
def cluster(wuzi_binary):
    """A Ray cluster of two CPUs on this machine, with the binary and the openings shipped as
    the job's working directory; gives the `Build` the tasks run."""
    staging = builds.stage(wuzi_binary, [str(OPENINGS)])
    connect(None, 2, staging.runtime_env)
    yield staging.build
    ray.shutdown()
    staging.cleanup()
