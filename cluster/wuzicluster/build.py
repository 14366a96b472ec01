"""The build a task runs, and how it gets to the workers.

A build's identity is the SHA-256 of the `wuzi` binary (its built-in nets are compiled
into it) and of the files shipped with it (a net file for `--eval FILE`). Every
task computes the identity of what it actually runs and returns it with its result; the
driver refuses a result whose identity is not the run's.

The binary reaches the workers in the job's runtime environment: the driver copies it
(and the files the tasks read) into a staging directory that Ray ships as the job's `working_dir`, so
every worker runs the same bytes. With `binary_on_nodes` the tasks run a binary already
at that path on every node (built there) instead, and the identity check refuses the
nodes whose build differs.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import resource
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

#: The name of the shipped binary inside the job's working directory.
SHIPPED_BINARY = "wuzi"

_hash_cache: dict[tuple[str, int, int], str] = {}


def file_hash(path: str | os.PathLike) -> str:
    """SHA-256 of a file, hex; remembered per path, size and modification time, so that a
    worker process hashes its binary once, not once a task."""
    st = os.stat(path)
    key = (str(Path(path).resolve()), st.st_size, st.st_mtime_ns)
    if key not in _hash_cache:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        _hash_cache[key] = h.hexdigest()
    return _hash_cache[key]


def identity(binary: str | os.PathLike, files: list[str | os.PathLike] = ()) -> str:
    """The build's identity: `wuzi:<sha256>`, then `+NAME:<sha256>` for each file shipped
    with it (a net file the engine reads), by base name."""
    ident = f"wuzi:{file_hash(binary)}"
    for f in files:
        ident += f"+{os.path.basename(f)}:{file_hash(f)}"
    return ident


@dataclass(frozen=True)
class Build:
    """What the tasks run: the binary's path on a worker, the files shipped beside it (by
    name, in the job's working directory) and the identity the driver expects of them."""

    binary: str
    files: tuple[str, ...]
    expected: str

    def resolve(self) -> tuple[str, str]:
        """The binary's path on this worker, made executable (a relative path is in the
        job's working directory, where the task runs), and the identity of what it runs."""
        binary = os.path.abspath(self.binary)
        if not os.access(binary, os.X_OK):
            os.chmod(binary, os.stat(binary).st_mode | 0o755)
        return binary, identity(binary, [os.path.abspath(f) for f in self.files])


@dataclass
class Staging:
    """A build ready for a run: the `Build` tasks get and the runtime environment that
    brings it to them (None when nothing is shipped)."""

    build: Build
    runtime_env: dict | None
    directory: str | None

    def cleanup(self) -> None:
        if self.directory:
            shutil.rmtree(self.directory, ignore_errors=True)


def stage(binary: str, files: list[str] = (), binary_on_nodes: str | None = None,
          expect_build: str | None = None) -> Staging:
    """Prepares `binary` and `files` (net files, an openings file: what the tasks read) for
    the workers.

    Shipped (the default): copied into a fresh directory that becomes the job's
    `working_dir`, where the tasks run; the files keep their base names. With
    `binary_on_nodes` the tasks run the binary at that path on each node instead, and only
    the files are shipped. The expected identity is the one of the local binary and files,
    or `expect_build` (as a task reports it) when given.
    """
    binary = os.path.abspath(binary)
    if not os.path.isfile(binary):
        raise FileNotFoundError(f"no binary at {binary} (cargo build --release --bin wuzi)")
    names = [os.path.basename(f) for f in files]
    if len(set(names)) != len(names) or SHIPPED_BINARY in names:
        raise ValueError(f"the shipped files need distinct base names other than "
                         f"{SHIPPED_BINARY}: {names}")
    expected = expect_build or identity(binary, files)
    if binary_on_nodes and not files:
        return Staging(Build(binary_on_nodes, (), expected), None, None)
    directory = tempfile.mkdtemp(prefix="wuzi-cluster-job-")
    for f, name in zip(files, names):
        shutil.copyfile(f, os.path.join(directory, name))
    task_binary = binary_on_nodes
    if not task_binary:
        shutil.copy2(binary, os.path.join(directory, SHIPPED_BINARY))
        task_binary = SHIPPED_BINARY
    return Staging(Build(task_binary, tuple(names), expected), {"working_dir": directory},
                   directory)


class ChildKilled(RuntimeError):
    """The engine process was killed by a signal (the out-of-memory killer, an operator):
    the task is worth running again (Ray retries it)."""


class ChildFailed(RuntimeError):
    """The engine process refused its arguments or failed: running it again would fail the
    same way, so the task is not retried."""


def _die_with_parent() -> None:
    """In the child before exec: killed when the worker that started it dies (Linux's
    PR_SET_PDEATHSIG), so a killed or cancelled task leaves no engine running."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def run_engine(cmd: list[str], timeout: float | None = None, on_start=None) -> str:
    """Runs an engine command to its end and returns its standard output; a kill raises
    `ChildKilled`, any other failure `ChildFailed` with the command's error text.
    `on_start`, if given, is called once the engine process runs (the tests' fault hook)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=_die_with_parent)
    try:
        if on_start is not None:
            on_start()
        out, err = proc.communicate(timeout=timeout)
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    if proc.returncode < 0:
        raise ChildKilled(f"{cmd[0]} killed by signal {-proc.returncode}")
    if proc.returncode != 0:
        raise ChildFailed(f"{' '.join(cmd)}: exit {proc.returncode}: {err.decode(errors='replace').strip()}")
    return out.decode()


def children_cpu() -> float:
    """CPU seconds of this process's finished children (the engine runs a task started)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def task_stamp() -> dict:
    """Where a task ran: host and process."""
    return {"host": os.uname().nodename, "pid": os.getpid()}
