"""Every test runs against the bundled profiles only, with a private cache."""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import sys
import tempfile
import time

import pytest
from slurm_cluster import SlurmCluster, ensure_node_names, missing_tools


@pytest.fixture(autouse=True)
def isolated_jobgen(tmp_path_factory, monkeypatch):
    """No user profiles, a private cache: tests see the bundled profiles only."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("JOBGEN_CACHE_DIR", str(home / "cache"))
    monkeypatch.delenv("JOBGEN_PROFILE_PATH", raising=False)
    monkeypatch.delenv("JOBGEN_NO_CACHE", raising=False)
    yield home


@pytest.fixture(scope="session")
def slurm(tmp_path_factory):
    """The real single-host Slurm (tests/slurm_cluster.py), started once for every test that
    submits to it, stopped at the end."""
    missing = missing_tools()
    if missing:
        pytest.skip(f"Slurm is not installed ({', '.join(missing)} missing; "
                    "apt-get install slurm-wlm; .ci/run does)")
    problem = ensure_node_names()
    if problem:
        pytest.skip(problem)
    cluster = SlurmCluster(tmp_path_factory.mktemp("slurm"))
    cluster.start()
    yield cluster
    cluster.stop()


# ---------------------------------------------------------------- the machine as we found it
# The suite must leave no lasting edit to system files and no process behind. pytest becomes
# the subreaper of everything it starts (daemons that double-fork included), so whatever is
# still alive under it when the session ends was left behind by a test.
_WATCHED_FILES = ("/etc/hosts", "/etc/passwd", "/etc/group", "/etc/resolv.conf")
_found: dict[str, bytes | None] = {}


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def _children() -> dict[int, str]:
    """Live processes whose parent is this one (zombies reaped), with their command lines."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            break
    me, found = os.getpid(), {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read().decode(errors="replace")
            fields = stat[stat.rindex(")") + 2:].split()
            if int(fields[1]) != me or fields[0] == "Z":
                continue
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                found[int(entry)] = f.read().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, ValueError):
            continue
    return found


# Programs the tests start write temporary files of their own and leave them: TensorFlow's
# autograph leaves one __autograph_generated_file*.py per traced function in the temporary
# directory (thousands a suite). Python's tempfile in this process, and the training apps the
# tests start (tests/workloads/workloads_testlib.py base_env gives them TMPDIR), use a private
# directory, removed when the session ends. pytest's own tmp_path stays where it was
# (PYTEST_DEBUG_TEMPROOT: the system's temporary directory), and other child processes keep
# the system's TMPDIR, so paths that must stay short (sockets, docs/generate.py's stand-in
# for /path/to/site-packages) keep their length.
_private_tmp: list[str] = []


def pytest_sessionstart(session):
    for path in _WATCHED_FILES:
        _found[path] = _read(path)
    os.environ.setdefault("PYTEST_DEBUG_TEMPROOT", tempfile.gettempdir())
    private = tempfile.mkdtemp(prefix="jobgen-tests-")
    _private_tmp.append(private)
    tempfile.tempdir = private
    try:  # PR_SET_CHILD_SUBREAPER: orphans of the tests are re-parented to pytest
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def pytest_sessionfinish(session, exitstatus):
    problems = [f"{path} was changed by the tests" for path, before in _found.items()
                if _read(path) != before]
    deadline = time.monotonic() + 10
    left = _children()
    while left and time.monotonic() < deadline:
        time.sleep(0.5)
        left = _children()
    for pid, cmd in left.items():
        problems.append(f"process {pid} left running: {cmd[:200]}")
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    for private in _private_tmp:
        shutil.rmtree(private, ignore_errors=True)
    if problems:
        sys.stderr.write("\nThe tests did not leave the machine as they found it:\n  "
                         + "\n  ".join(problems) + "\n")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
