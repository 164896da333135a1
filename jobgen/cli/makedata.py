"""`jobgen make-data`: small files in each bundled app's real data format, written by the app.

The app's own writer does the work (`python -m workloads.APP --make-data DIR`), in a child
process of this interpreter, so jobgen itself never imports torch. Everything that can be
checked is checked first (the app, its configuration, the target, the workloads extra); the
child then writes into a fresh directory beside the target, and only a complete result takes
the target's place: a failed or interrupted run leaves nothing behind (SIGINT, SIGTERM and
SIGHUP stop the writer and remove its directory before jobgen exits 128+N). A target that
exists must be empty unless --force, which replaces the entries of the same names the app
writes. The writer estimates the size of more than 256 samples from two small writes and
refuses, in one line, a size beyond the free space or inodes (workloads/runtime/cli.py).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import JobgenError
from ..textfile import current_umask

#: what `pip install 'jobgen[workloads]'` brings (pyproject.toml): the apps' writers need all
EXTRA = ("torch", "numpy", "h5py", "PIL")
INSTALL = "pip install 'jobgen[workloads]'"
ALL = "all"
TAIL = 20  # lines of an unexpected writer failure's stderr shown
#: the writer's exit code for a refusal it explains in its last line (workloads EXIT_INPUT)
WRITER_REFUSED = 2
#: --samples at most (workloads/runtime/safeio.py MAX_SAMPLES: what a reader indexes)
MAX_SAMPLES = 2**31 - 1
#: seconds a stopped writer gets to end after SIGTERM before SIGKILL
STOP_GRACE = 10


class Stopped(BaseException):
    """A signal stopped make-data; ``code`` is the exit status (128 + N)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.code = 128 + signum
        self.name = signal.Signals(signum).name


@dataclass(frozen=True)
class Job:
    app: str
    module: str
    config: str | None  # None: the app's default
    target: Path


def missing_extra() -> list[str]:
    """The workloads extra's modules this interpreter cannot import (found without importing)."""
    missing = []
    for name in EXTRA:
        try:
            found = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            found = None
        if found is None:
            missing.append(name)
    return missing


def plan(app: str, config: str | None, out: Path, force: bool) -> list[Job]:
    """The writes `jobgen make-data` will do, checked; a JobgenError (exit 2) names the first
    problem and its fix, before anything is written."""
    from ..plan.apps import app_names, load_app

    known = app_names()
    if not known:
        raise JobgenError(f"no bundled apps found: {INSTALL}")
    if app != ALL and app not in known:
        import difflib

        close = difflib.get_close_matches(app, known, n=3, cutoff=0.5)
        hint = f" Did you mean {', '.join(close)}?" if close else ""
        raise JobgenError(f"unknown app {app!r}.{hint} Give one of {', '.join(known)}, or "
                          f"{ALL}")
    names = known if app == ALL else [app]
    if app == ALL:
        _check_parent(out, "--out")
        if out.exists() and not out.is_dir():
            raise JobgenError(f"--out {out} is a file: give a directory (each app's data "
                              "goes into DIR/APP)")
    jobs = []
    for name in names:
        found = load_app(name)
        configs = [n for n, _ in found.sizes]
        if config is not None and config not in configs:
            raise JobgenError(f"{name} has no configuration {config!r}: use one of "
                              f"{', '.join(configs)} (`jobgen apps` lists them)")
        target = out / name if app == ALL else out
        if target.exists() or target.is_symlink():
            _check_target(target, force)
        elif app != ALL:
            _check_parent(target, "--out")
        jobs.append(Job(name, found.module, config, target))
    missing = missing_extra()
    if missing:
        raise JobgenError(f"make-data runs the bundled apps, which need {', '.join(missing)} "
                          f"(the workloads extra): {INSTALL}")
    return jobs


def _check_parent(path: Path, what: str) -> None:
    parent = path.absolute().parent
    if not parent.is_dir():
        raise JobgenError(f"{what} {path}: its parent directory {parent} does not exist: "
                          "create it first or choose another place")


def _check_target(target: Path, force: bool) -> None:
    """An existing target: a directory of ours to write, empty unless --force."""
    if target.is_symlink() or not target.is_dir():
        raise JobgenError(f"--out {target} exists and is not a directory: give a new or "
                          "empty directory")
    if not os.access(target, os.W_OK | os.X_OK):
        raise JobgenError(f"--out {target} is not writable: choose another directory")
    if any(target.iterdir()) and not force:
        raise JobgenError(f"--out {target} is not empty: add --force to replace the files "
                          "the app writes there, or give a new directory")


def command_line(job: Job, where: Path, samples: int | None, seed: int) -> list[str]:
    """The app's own command that writes the data into ``where``."""
    argv = [sys.executable, "-m", job.module, "--make-data", str(where), "--seed", str(seed)]
    if job.config is not None:
        argv += ["--config", job.config]
    if samples is not None:
        argv += ["--samples", str(samples)]
    return argv


def _raise_stopped(signum: int, frame: object) -> None:  # noqa: ARG001 - a signal handler
    raise Stopped(signum)


@dataclass(frozen=True)
class Failure:
    """Why a write failed, in one line, and jobgen's exit code: 2 when the writer refused
    (too large for the free space, disk full: one line of its own), 1 when it crashed."""

    message: str
    code: int


def write(job: Job, samples: int | None, seed: int) -> Failure | None:
    """Run the app's writer into a fresh directory beside the target and move its files into
    place; None when done, else why it failed (an unexpected crash's stderr is
    shown first). SIGINT, SIGTERM and SIGHUP stop the writer, remove the fresh directory and
    raise :class:`Stopped`."""
    try:
        job.target.parent.mkdir(exist_ok=True)  # --app all: DIR itself (parent checked)
        fresh = Path(tempfile.mkdtemp(prefix=f".jobgen-make-data-{job.app}-",
                                      dir=job.target.parent))
    except OSError as exc:
        raise JobgenError(f"cannot create a directory in {job.target.parent}: "
                          f"{exc.strerror or exc}; choose another --out") from None
    previous = {s: signal.signal(s, _raise_stopped)
                for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)}
    proc = None
    try:
        fresh.chmod(0o777 & ~current_umask())  # mkdtemp's 0700 would become the target's mode
        proc = subprocess.Popen(command_line(job, fresh, samples, seed),
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, errors="replace",
                                start_new_session=True)  # our signal handler stops it
        _, err = proc.communicate()
        lines = err.rstrip().splitlines()
        if proc.returncode == WRITER_REFUSED and lines:
            # the writer names its directory, which is gone: name the target instead
            return Failure(lines[-1].removeprefix("[workloads] error: ")
                           .replace(str(fresh), str(job.target)), 2)
        if proc.returncode != 0:
            for line in lines[-TAIL:]:
                print(line, file=sys.stderr)
            last = lines[-1] if lines else "no message"
            return Failure(f"{job.module} --make-data failed (exit {proc.returncode}: {last})",
                           1)
        try:
            _move_into(fresh, job.target)
        except OSError as exc:
            return Failure(f"cannot put the data into {job.target}: {exc.strerror or exc}", 1)
        return None
    finally:
        if proc is not None and proc.poll() is None:  # stopped: the writer ends first
            _stop(proc)
        for s, handler in previous.items():
            signal.signal(s, handler)
        shutil.rmtree(fresh, ignore_errors=True)


def _stop(proc: subprocess.Popen[str]) -> None:
    """End the writer's process group: SIGTERM, then SIGKILL after STOP_GRACE seconds."""
    import contextlib

    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(STOP_GRACE)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _move_into(fresh: Path, target: Path) -> None:
    """``fresh``'s entries take their places in ``target`` (the whole directory at once when
    there is none yet); an entry of the same name is replaced (checked: --force)."""
    if not target.exists():
        os.rename(fresh, target)
        return
    for entry in sorted(fresh.iterdir()):
        dest = target / entry.name
        if dest.is_dir() and not dest.is_symlink():
            shutil.rmtree(dest)
        elif dest.exists() or dest.is_symlink():
            dest.unlink()
        os.rename(entry, dest)


def summary(target: Path) -> str:
    """``train.bin, val.bin (1.3 kB)``: what the target holds at its top, and its size."""
    files = [p for p in target.rglob("*") if p.is_file()]
    size = sum(p.stat().st_size for p in files)
    top = sorted(p.name + ("/" if p.is_dir() else "") for p in target.iterdir())
    shown = ", ".join(top[:6]) + (f", ... ({len(top) - 6} more)" if len(top) > 6 else "")
    return f"{shown} ({len(files)} file(s), {_size(size)})"


def _size(n: float) -> str:
    for unit in ("B", "kB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} GB"
