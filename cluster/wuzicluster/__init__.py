"""wuzi on a Ray cluster: self-play data (`datagen`) and SPRT tests (`sprt`) as Ray tasks
that run the `wuzi` binary on the workers (docs/cluster.md)."""

from __future__ import annotations

import os

#: This package's directory, shipped to the workers (`py_modules`) so that they can run
#: its tasks.
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def connect(address: str | None, cpus: int | None, runtime_env: dict | None) -> None:
    """Joins the Ray cluster at `address` (`auto`: the one `ray start` began on this
    machine), or starts one on this machine with `cpus` CPUs when `address` is None, with
    the job's runtime environment: `runtime_env` (the shipped build) and this package."""
    import ray  # here, so that the package's plain modules (`stats`) need no Ray

    env = dict(runtime_env or {})
    env["py_modules"] = [PACKAGE_DIR]
    kwargs = {"runtime_env": env, "log_to_driver": False}
    if address is None:
        kwargs.update(num_cpus=cpus, include_dashboard=False)
    ray.init(address=address, **kwargs)
