"""`jobgen status DIR` and `jobgen cancel DIR`: a sweep's jobs as the scheduler sees them.

One query for all of a sweep's jobs (squeue, qstat, bjobs; in chunks), the scheduler's own
word shown beside jobgen's state (queued, held, running, done, failed). A job the scheduler
no longer lists has finished some time ago: its output says how (a result line: done).
Cancelling sends the site's command (scancel, qdel, bkill) for the jobs still queued, held
or running. Sites without a scheduler ran their scripts during submit: nothing to cancel.
"""

from __future__ import annotations

import subprocess
from typing import Any

from ..errors import JobgenError, one_line
from . import manifest as mf
from .files import SweepDir
from .schedulers import DIALECTS, DONE, FAILED, GONE, HELD, QUEUED, RUNNING, Dialect, decode
from .schedulers import state_of as word_state

ACTIVE = (QUEUED, HELD, RUNNING)
CHUNK = 100  # job ids per scheduler call
TIMEOUT = 120  # s


def query(dialect: Dialect, ids: list[str]) -> dict[str, str]:
    """{job id: the scheduler's word} for the jobs it still lists."""
    if not ids or dialect.status is None or dialect.parse is None:
        return {}
    found: dict[str, str] = {}
    for i in range(0, len(ids), CHUNK):
        argv = dialect.status(ids[i:i + CHUNK])
        try:
            res = subprocess.run(argv, capture_output=True, stdin=subprocess.DEVNULL,
                                 timeout=TIMEOUT)
        except FileNotFoundError:
            raise JobgenError(f"{argv[0]} not found: ask from a login node of the site") from None
        except subprocess.TimeoutExpired:
            raise JobgenError(f"{argv[0]} did not answer in {TIMEOUT} s") from None
        found.update(dialect.parse(decode(res.stdout)))
    return found


def _word_for(job_id: str, words: dict[str, str]) -> str | None:
    if job_id in words:
        return words[job_id]
    number = job_id.split(".", 1)[0]
    return next((w for k, w in words.items() if k.split(".", 1)[0] == number), None)


def run_states(where: SweepDir, manifest: mf.Manifest) -> list[dict[str, Any]]:
    """Per run: point, repeat, job id, jobgen's state, the scheduler's word, a note."""
    dialect = DIALECTS[manifest.dialect]
    runs = [(p, r) for p in manifest.valid_points for r in p.runs]
    words = query(dialect, sorted({r.job_id for _, r in runs if r.job_id}))
    states = []
    for point, run in runs:
        state, word, note = _state(dialect, run, words)
        if state == GONE:
            state, note = _from_output(where, point, run)
        states.append({"point": point.id, "repeat": run.repeat, "job_id": run.job_id,
                       "state": state, "word": one_line(word)[:40] if word else None,
                       "note": note, "queue": point.plan.queue, "key": id(run)})
    return states


def _state(dialect: Dialect, run: mf.Run, words: dict[str, str]
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
    word = _word_for(run.job_id, words)
    if word is None:
        return GONE, None, None
    return word_state(dialect, word), word, None


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
    """Cancel the sweep's jobs that are queued, held or running; their ids, and the states."""
    with SweepDir.open(directory, lock=True) as where:
        manifest = mf.read(where)
        dialect = DIALECTS[manifest.dialect]
        states = run_states(where, manifest)
        active = [s["job_id"] for s in states if s["state"] in ACTIVE and s["job_id"]]
        if not dialect.cancel or not active:
            return [], states
        for i in range(0, len(active), CHUNK):
            argv = [*dialect.cancel, *active[i:i + CHUNK]]
            try:
                res = subprocess.run(argv, capture_output=True, stdin=subprocess.DEVNULL,
                                     timeout=TIMEOUT)
            except FileNotFoundError:
                raise JobgenError(f"{argv[0]} not found: cancel from a login node of the "
                                  "site") from None
            except subprocess.TimeoutExpired:
                raise JobgenError(f"{argv[0]} did not answer in {TIMEOUT} s") from None
            if res.returncode != 0:
                why = one_line(decode(res.stderr) or decode(res.stdout))[:300]
                raise JobgenError(f"{argv[0]} failed: {why}")
        return active, states


__all__ = ["ACTIVE", "DONE", "FAILED", "GONE", "HELD", "QUEUED", "RUNNING", "cancel",
           "run_states", "status"]
