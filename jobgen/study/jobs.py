"""`jobgen status DIR` and `jobgen cancel DIR`: a sweep's jobs as the scheduler sees them.

One query for all of a sweep's jobs (squeue, qstat, bjobs; in chunks), the scheduler's own
word shown beside jobgen's state (queued, held, running, done, failed). A job the scheduler
no longer lists has finished some time ago: its output says how (a result line: done).
Cancelling sends the site's command (scancel, qdel, bkill) for the jobs still queued, held
or running. Sites without a scheduler ran their scripts during submit: nothing to cancel.
"""

from __future__ import annotations

import os
import pwd
import subprocess
from typing import Any

from ..errors import JobgenError, counted, one_line
from . import calls
from . import manifest as mf
from .files import SweepDir
from .schedulers import (
    DIALECTS,
    DONE,
    FAILED,
    GONE,
    HELD,
    QUEUED,
    RUNNING,
    Dialect,
    JobInfo,
    decode,
)
from .schedulers import state_of as word_state

ACTIVE = (QUEUED, HELD, RUNNING)
CHUNK = 100  # job ids per scheduler call
TIMEOUT = 120  # s
LOCK_WAIT = 60  # s: cancel and collect wait this long for a submit that is sending


def query(dialect: Dialect, ids: list[str]) -> dict[str, JobInfo]:
    """{job id: the scheduler's report} for the jobs it still lists."""
    if not ids or dialect.status is None or dialect.parse is None:
        return {}
    found: dict[str, JobInfo] = {}
    for i in range(0, len(ids), CHUNK):
        argv = dialect.status(ids[i:i + CHUNK])
        try:
            res = calls.run(argv, TIMEOUT)
        except FileNotFoundError:
            raise JobgenError(f"{argv[0]} not found: ask from a login node of the site") from None
        except subprocess.TimeoutExpired:
            raise JobgenError(f"{argv[0]} did not answer in {TIMEOUT} s") from None
        if res.cut:
            raise JobgenError(f"{argv[0]} answered more than {calls.MAX_ANSWER >> 20} MiB for "
                              f"{len(ids[i:i + CHUNK])} jobs: not read")
        found.update(dialect.parse(decode(res.stdout)))
    return found


def _word_for(job_id: str, words: dict[str, JobInfo]) -> JobInfo | None:
    if job_id in words:
        return words[job_id]
    number = job_id.split(".", 1)[0]
    return next((w for k, w in words.items() if k.split(".", 1)[0] == number), None)


def me() -> str:
    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return os.environ.get("USER") or str(os.getuid())


def not_ours(where: SweepDir, run: mf.Run, info: JobInfo) -> str | None:
    """Why the job the scheduler reports is not this run's (None when it is, as far as the
    scheduler's answer says): its owner, its name and the directory it was submitted from
    must be this user, the run's job name and the run's own directory (the same directory,
    not one of the same name: a copied sweep's run directories are others)."""
    user = me()
    if info.owner is not None and info.owner != user:
        return f"it belongs to {info.owner}, not {user}"
    if info.name is not None and info.name != run.job_name:
        return f"its name is {info.name!r}, not {run.job_name!r}"
    if info.workdir is not None:
        try:
            with where.directory(run.dir) as fd:
                here = os.fstat(fd)
            there = os.stat(info.workdir)
        except (OSError, JobgenError):
            return f"it was submitted from {info.workdir}, not {where.path / run.dir}"
        if (here.st_dev, here.st_ino) != (there.st_dev, there.st_ino):
            return (f"it was submitted from {info.workdir}, not {where.path / run.dir} (a "
                    "copied sweep?)")
    return None


def run_states(where: SweepDir, manifest: mf.Manifest) -> list[dict[str, Any]]:
    """Per run: point, repeat, job id, jobgen's state, the scheduler's word, a note."""
    dialect = DIALECTS[manifest.dialect]
    runs = [(p, r) for p in manifest.valid_points for r in p.runs]
    words = query(dialect, sorted({r.job_id for _, r in runs if r.job_id}))
    states = []
    for point, run in runs:
        state, word, note = _state(dialect, run, words)
        info = _word_for(run.job_id, words) if run.job_id else None
        foreign = not_ours(where, run, info) if info is not None else None
        if state == GONE:
            state, note = _from_output(where, point, run)
        if foreign:
            note = one_line(f"not this sweep's job: {foreign}")[:300]
        states.append({"point": point.id, "repeat": run.repeat, "job_id": run.job_id,
                       "state": state, "word": one_line(word[:200])[:40] if word else None,
                       "note": note, "queue": point.plan.queue, "key": id(run),
                       "foreign": foreign})
    return states


def _state(dialect: Dialect, run: mf.Run, words: dict[str, JobInfo]
           ) -> tuple[str, str | None, str | None]:
    if dialect.job_id is None:  # ran here during submit
        if run.exit_code is None:
            return ("running", None, None) if run.maybe_submitted else (
                "not submitted", None, None)
        return (DONE if run.exit_code == 0 else FAILED), f"exit {run.exit_code}", None
    if run.job_id is None:
        if run.maybe_submitted:
            return "unknown", None, run.submit_error or "submit was interrupted: check the queue"
        if run.submit_error:
            return "not submitted", None, f"submit failed: {run.submit_error}"
        return "not submitted", None, None
    info = _word_for(run.job_id, words)
    if info is None:
        return GONE, None, None
    return word_state(dialect, info.word), info.word, None


def _from_output(where: SweepDir, point: mf.Point, run: mf.Run) -> tuple[str, str]:
    """A job the scheduler no longer lists: done or failed by what its output says."""
    from .collect import read_run

    result = read_run(where, point, run)
    if result.status == "ok":
        return DONE, "no longer listed; its output has the result line"
    if result.status == "failed":
        return FAILED, f"no longer listed; {result.reason}"
    return GONE, f"no longer listed by the scheduler; {result.reason}"


def status(directory: Any) -> tuple[mf.Manifest, list[dict[str, Any]]]:
    with SweepDir.open(directory, lock=False) as where:
        manifest = mf.read(where)
        return manifest, run_states(where, manifest)


def cancel(directory: Any) -> tuple[list[str], list[dict[str, Any]]]:
    """Cancel the sweep's jobs that are queued, held or running; their ids, and the states.

    Only jobs the scheduler reports as this sweep's (owner, name, directory: `not_ours`) are
    cancelled; when any active job is not, nothing is sent. It marks the manifest and writes
    nothing but that mark, and a `submit --wait` holds the sweep's lock only while it sends,
    not while it waits: cancel gets through, and the waiting submit then stops (the manifest
    says `cancelled`)."""
    with SweepDir.open(directory, lock=True, wait=LOCK_WAIT) as where:
        manifest = mf.read(where)
        dialect = DIALECTS[manifest.dialect]
        states = run_states(where, manifest)
        live = [s for s in states if s["state"] in ACTIVE and s["job_id"]]
        foreign = [s for s in live if s["foreign"]]
        if foreign:
            first = foreign[0]
            raise JobgenError(
                f"{counted(len(foreign), 'job')} in {directory}/{mf.NAME} "
                f"{'is' if len(foreign) == 1 else 'are'} not this sweep's: job "
                f"{first['job_id']} ({first['point']} r{first['repeat']}): {first['foreign']};"
                " nothing cancelled (cancel them by hand if they are yours, or restore the "
                "manifest)")
        active = [s["job_id"] for s in live]
        if dialect.cancel and not manifest.cancelled:
            manifest.cancelled = True
            manifest.write(where)
        if not dialect.cancel or not active:
            return [], states
        send_cancel(dialect, active)
        return active, states


def send_cancel(dialect: Dialect, ids: list[str]) -> None:
    """The scheduler's cancel for `ids`, CHUNK at a time; any failure is one line."""
    for i in range(0, len(ids), CHUNK):
        argv = [*dialect.cancel, *ids[i:i + CHUNK]]
        try:
            res = calls.run(argv, TIMEOUT)
        except FileNotFoundError:
            raise JobgenError(f"{argv[0]} not found: cancel from a login node of the "
                              "site") from None
        except subprocess.TimeoutExpired:
            raise JobgenError(f"{argv[0]} did not answer in {TIMEOUT} s") from None
        if res.returncode != 0:
            why = one_line((decode(res.stderr) or decode(res.stdout))[:2000])[:300]
            raise JobgenError(f"{argv[0]} failed: {why}")


__all__ = ["ACTIVE", "DONE", "FAILED", "GONE", "HELD", "QUEUED", "RUNNING", "cancel",
           "run_states", "status"]
