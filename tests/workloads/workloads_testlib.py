"""Helpers for the workload tests: run apps as real processes (no mocks)."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers import HAVE_TF, needs_tf  # noqa: F401 - re-exported to the workload tests

REPO = Path(__file__).resolve().parents[2]
HAVE_TORCH = importlib.util.find_spec("torch") is not None
HAVE_HOROVOD = importlib.util.find_spec("horovod") is not None
MPIEXEC = shutil.which("mpiexec.mpich")

needs_torch = pytest.mark.skipif(not HAVE_TORCH, reason="torch is not installed "
                                 "(pip install torch) - workload runs skipped")
needs_mpich = pytest.mark.skipif(MPIEXEC is None, reason="mpiexec.mpich not found "
                                 "(apt-get install mpich) - MPICH launcher test skipped")

needs_horovod = pytest.mark.skipif(not HAVE_HOROVOD, reason="horovod is not installed (opt-in: "
                                   "tools/build_horovod.sh) - Horovod runs skipped")

TINY = ["--tiny", "--device", "cpu", "--workers", "0"]
TF = ["--framework", "tensorflow"]


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str

    def json_lines(self) -> list[dict[str, Any]]:
        return [json.loads(ln) for ln in self.stdout.splitlines() if ln.startswith("{")]

    def result(self) -> dict[str, Any]:
        lines = self.json_lines()
        assert len(lines) == 1, f"expected exactly one JSON line:\n{self.stdout}\n{self.stderr}"
        return lines[0]


def base_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PMI_", "OMPI_", "PALS_", "SLURM_", "MPI_LOCAL", "JSM_"))
           and k not in ("RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "MASTER_ADDR",
                         "MASTER_PORT")}
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env.setdefault("OMP_NUM_THREADS", "1")
    # the session's private temporary directory (tests/conftest.py): TensorFlow's autograph
    # leaves its generated files there, not in /tmp
    env["TMPDIR"] = tempfile.gettempdir()
    env.update(extra)
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def listening_on(*ports: int) -> Iterator[int]:
    """Another program listening on ``ports`` (those it could bind), for the duration; yields
    how many it holds."""
    held = []
    for port in ports:
        s = socket.socket()
        try:
            s.bind(("", port))
            s.listen(1)
            held.append(s)
        except OSError:
            s.close()
    try:
        yield len(held)
    finally:
        for s in held:
            s.close()


def run_app(app: str, *args: str, launcher: str = "single", timeout: float = 120,
            env: dict[str, str] | None = None) -> Result:
    env = env or base_env()
    if launcher == "single":
        cmd = [sys.executable, "-m", f"workloads.{app}", *args]
    elif launcher == "torchrun":
        cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone",
               "--nproc_per_node", "2", "-m", f"workloads.{app}", *args]
    elif launcher == "mpich":
        assert MPIEXEC is not None
        env = {**env, "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(free_port())}
        cmd = [MPIEXEC, "-n", "2", sys.executable, "-m", f"workloads.{app}", *args]
    else:
        raise ValueError(launcher)
    p = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True,
                       timeout=timeout)
    return Result(p.returncode, p.stdout, p.stderr)
