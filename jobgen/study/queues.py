"""Queue policies for a sweep: what the profile says a queue holds per user or project.

`sweep` records the limits of the queues its points use in the manifest (so `submit` needs no
profile) and warns when a sweep has more runs for a queue than it takes at once; `submit`
holds back what the queue would refuse (`max_jobs`) and `--max-in-flight` lowers that further.
Only this sweep's own jobs are counted: other jobs of the user (or of the project) count
against the same limits, so the scheduler may still refuse one, which `submit` then reports.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..profiles.load import LoadedProfile
from . import manifest as mf
from .progress import note


def queue_limits(loaded: LoadedProfile, points: list[mf.Point]) -> list[mf.QueueLimit]:
    used = {p.plan.queue for p in points if p.status == "valid" and p.plan.queue}
    limits = []
    for queue in loaded.profile.scheduler.queues:
        if queue.name not in used:
            continue
        for lim in getattr(queue, "job_limits", None) or []:
            limits.append(mf.QueueLimit(queue=queue.name, per=lim.per, max_jobs=lim.max_jobs,
                                        max_running=lim.max_running, source=lim.source))
    return limits


def runs_per_queue(manifest: mf.Manifest) -> Counter[str]:
    return Counter(p.plan.queue for p in manifest.valid_points for _ in p.runs if p.plan.queue)


def jobs_at_once(manifest: mf.Manifest, queue: str | None) -> tuple[int | None, Any]:
    """The most jobs `queue` takes at once from this sweep, and the limit that says so."""
    found = [lim for lim in manifest.queue_limits if lim.queue == queue and lim.max_jobs]
    if not found:
        return None, None
    tightest = min(found, key=lambda lim: lim.max_jobs)
    return tightest.max_jobs, tightest


def describe(lim: mf.QueueLimit) -> str:
    parts = []
    if lim.max_jobs:
        parts.append(f"{lim.max_jobs} job(s) queued or running")
    if lim.max_running:
        parts.append(f"{lim.max_running} running")
    return f"queue {lim.queue} takes {' and '.join(parts)} per {lim.per} ({lim.source})"


def _go(count: int, lim: mf.QueueLimit) -> str:
    return f"{count} runs go to queue {lim.queue}, and {describe(lim)}"


def warn_queue_limits(manifest: mf.Manifest) -> None:
    for queue, count in sorted(runs_per_queue(manifest).items()):
        at_once, lim = jobs_at_once(manifest, queue)
        if at_once is not None and count > at_once:
            note(f"warning: {_go(count, lim)}: `jobgen submit` sends {at_once} "
                 "and holds back the rest; run it again as they finish, or use "
                 "`jobgen submit --wait`")
        running = [x for x in manifest.queue_limits if x.queue == queue and x.max_running]
        if running and count > min(x.max_running for x in running):
            lim = min(running, key=lambda x: x.max_running)
            note(f"note: {_go(count, lim)}: they run {lim.max_running} at a time")
