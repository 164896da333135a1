"""Submit a sweep's scripts with the site's own command and record job ids and output files.

- The scheduler command is checked first (`qsub --version` and the like): Slurm's PBS
  wrapper, or a login node of another site, is not the site's scheduler, and nothing is sent.
- Each submission is recorded before it is made (`maybe_submitted`) and its job id right
  after, before anything else can fail: a submit that is interrupted never loses a job, and
  running `jobgen submit` again never submits one twice (`--again` does, on purpose).
- The first failure stops the submit (`--keep-going` sends the rest anyway).
- What a queue would refuse is held back: the queue's per-user or per-project job limit from
  the profile, or `--max-in-flight`; `--wait` submits the rest as earlier jobs finish.
- Sites without a scheduler run their scripts here with bash, one after the other, each into
  `output.txt` in its run's directory.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections import Counter
from pathlib import Path

from ..errors import JobgenError, one_line
from . import calls
from . import manifest as mf
from .files import SweepDir, run_cwd
from .jobs import ACTIVE, LOCK_WAIT, run_states
from .progress import note, steps
from .queues import describe, jobs_at_once
from .schedulers import DIALECTS, LOCAL_OUTPUT, Dialect, decode, looks_right

PROBE_TIMEOUT = 20  # s: a version answer is instant; Slurm retries a missing config for 60 s
SUBMIT_TIMEOUT = 300  # s: a submit command that hangs longer is reported, not waited for


def check_scheduler(dialect: Dialect, site: str) -> None:
    """Refuse (one line, nothing submitted) when the command here is not the site's."""
    if not dialect.probe:
        return
    try:
        res = calls.run(list(dialect.probe), PROBE_TIMEOUT)
    except FileNotFoundError:
        raise JobgenError(f"{dialect.probe[0]} not found: submit from a login node of the "
                          "site, or submit the scripts by hand from their directories") from None
    except subprocess.TimeoutExpired:
        raise JobgenError(f"`{' '.join(dialect.probe)}` did not answer in {PROBE_TIMEOUT} s: "
                          f"is this a login node of {site}?") from None
    answer = decode(res.stdout) + decode(res.stderr)
    if not looks_right(dialect, res.returncode, answer):
        first = next((line for line in answer.splitlines() if line.strip()), "nothing")
        raise JobgenError(
            f"the {dialect.probe[0]} here is not {site}'s {dialect.name}: "
            f"`{' '.join(dialect.probe)}` answered {one_line(first[:1000])[:120]!r}; submit from a "
            f"login node of {site}, or submit the scripts by hand from their directories")


def check_dialect(manifest: mf.Manifest) -> None:
    """The manifest's scheduler is its site's (an edited `dialect: none` on a PBS sweep would
    run the PBS scripts here with bash). A site whose profile is not here: the manifest's
    word is all there is."""
    from ..profiles.load import load_profile

    try:
        dialect = load_profile(manifest.site).profile.scheduler.dialect
    except JobgenError:
        return
    if dialect != manifest.dialect:
        raise JobgenError(f"{mf.NAME} says the scheduler is {manifest.dialect!r}, but "
                          f"{manifest.site}'s profile says {dialect!r}: restore the manifest, "
                          "or make the sweep again")


def _pending(run: mf.Run, again: bool) -> bool:
    if again:
        return True
    return run.job_id is None and run.exit_code is None and not run.maybe_submitted


def submit_sweep(directory: Path, again: bool = False, keep_going: bool = False,
                 max_in_flight: int | None = None, wait: bool = False,
                 poll: float = 60.0) -> list[str]:
    """Submit every run not yet submitted (all with `again`); the problems, one line each.

    The sweep is locked while runs are sent and recorded, not while `--wait` waits: status,
    collect and cancel get through meanwhile, and after a cancel nothing more is sent."""
    if max_in_flight is not None and max_in_flight < 1:
        raise JobgenError(f"--max-in-flight must be at least 1, not {max_in_flight}")
    held: dict[tuple[str, int], str | None] | None = None  # run -> its job id when held back
    start, asked, ok, dialect = time.monotonic(), 0, 0, None
    while True:
        with SweepDir.open(directory, lock=True,
                           wait=0 if held is None else LOCK_WAIT) as where:
            manifest = mf.read(where)
            dialect = DIALECTS[manifest.dialect]
            if held is None:
                todo = [(p, r) for p in manifest.valid_points for r in p.runs
                        if _pending(r, again)]
                if not todo:
                    raise JobgenError(f"every run in {directory} was submitted already (see "
                                      "jobgen status): add --again to submit them again")
                for _, run in todo:  # before anything is sent: every script is jobgen's own
                    where.script(run.script)
                asked = len(todo)
                check_dialect(manifest)
                check_scheduler(dialect, manifest.site)
                if manifest.cancelled:
                    manifest.cancelled = False  # a submit after a cancel is meant
                    manifest.write(where)
            elif manifest.cancelled:
                note(f"{len(held)} held-back run(s) not submitted: the sweep was cancelled")
                return []
            else:  # the held runs, unless another jobgen sent them while we waited
                todo = [(p, r) for p in manifest.valid_points for r in p.runs
                        if (p.id, r.repeat) in held and held[(p.id, r.repeat)] == r.job_id
                        and not r.maybe_submitted]
            batch, waiting = _fits(where, manifest, todo, max_in_flight)
            problems = _submit_batch(where, manifest, dialect, batch, keep_going)
            ok += sum(1 for _, r in batch if (r.job_id if dialect.job_id else r.exit_code == 0))
        held = {(p.id, r.repeat): r.job_id for p, r in waiting}
        if problems or not held or not wait:
            break
        note(f"{len(held)} run(s) held back; checking again in {poll:g} s")
        time.sleep(poll)
    if held:
        note(f"{len(held)} run(s) held back (queue limits or --max-in-flight): run "
             f"`jobgen submit {directory}` again as jobs finish, or add --wait")
    note(_summary(directory, dialect, asked, ok, len(problems), len(held or {}),
                  time.monotonic() - start))
    return problems


def _summary(directory: Path, dialect: Dialect, total: int, ok: int, failed: int, held: int,
             seconds: float) -> str:
    """The submit's last line: how many runs ran (or were submitted), failed, held, were not
    sent, the time, and what to run next."""
    done = "ran" if dialect.job_id is None else "submitted"
    parts = [f"{ok} of {total} run(s) {done}"]
    if failed:
        parts.append(f"{failed} failed")
    if held:
        parts.append(f"{held} held back")
    if total - ok - failed - held > 0:
        parts.append(f"{total - ok - failed - held} not sent")
    follow = "" if dialect.job_id is None else f"jobgen status {directory}, then "
    return (f"done: {', '.join(parts)}, in {seconds:.0f} s; next: {follow}jobgen collect "
            f"{directory}")


def _fits(where: SweepDir, manifest: mf.Manifest, todo: list[tuple[mf.Point, mf.Run]],
          max_in_flight: int | None) -> tuple[list[tuple[mf.Point, mf.Run]],
                                              list[tuple[mf.Point, mf.Run]]]:
    """The runs the queues take now, and those held back."""
    limited = max_in_flight is not None or any(lim.max_jobs for lim in manifest.queue_limits)
    if not limited or manifest.dialect == "none":
        return todo, []
    waiting = {id(r) for _, r in todo}
    active = [s for s in run_states(where, manifest)
              if s["state"] in ACTIVE and s["key"] not in waiting]
    per_queue = Counter(s["queue"] for s in active)
    total = len(active)
    batch, held, told = [], [], set()
    for point, run in todo:
        queue = point.plan.queue
        at_once, lim = jobs_at_once(manifest, queue)
        if at_once is not None and per_queue[queue] >= at_once:
            if queue not in told:
                note(f"holding back runs for {describe(lim)}")
                told.add(queue)
            held.append((point, run))
            continue
        if max_in_flight is not None and total >= max_in_flight:
            held.append((point, run))
            continue
        per_queue[queue] += 1
        total += 1
        batch.append((point, run))
    return batch, held


def _submit_batch(where: SweepDir, manifest: mf.Manifest, dialect: Dialect,
                  batch: list[tuple[mf.Point, mf.Run]], keep_going: bool) -> list[str]:
    problems = []
    for point, run in steps(batch, "submit", lambda pr: f"{pr[0].id} r{pr[1].repeat}"):
        if dialect.job_id is None:
            began = time.monotonic()
            problem = _run_here(where, manifest, run)
            note(f"{point.id} r{run.repeat}: exit {run.exit_code} after "
                 f"{time.monotonic() - began:.1f} s ({run.output})")
        else:
            problem = _submit(where, manifest, run, dialect)
        manifest.write(where)
        if problem:
            problems.append(f"{point.id} r{run.repeat}: {problem}")
            note(f"warning: {problems[-1]}")
            if not keep_going and dialect.job_id is not None:
                left = len(batch) - batch.index((point, run)) - 1
                if left:
                    note(f"stopped after the first failure: {left} run(s) not submitted "
                         "(fix the cause, or add --keep-going to submit them anyway)")
                break
    return problems


def _submit(where: SweepDir, manifest: mf.Manifest, run: mf.Run, dialect: Dialect
            ) -> str | None:
    """Submit from the run's own directory, where the job then writes its output."""
    where.script(run.script)
    script = run.script.rpartition("/")[2]
    argv = [*dialect.submit] if dialect.on_stdin else [*dialect.submit, script]
    run.job_id = run.output = run.exit_code = run.submit_error = None
    run.maybe_submitted = True
    manifest.write(where)  # if jobgen dies during the submit, the run is not sent again
    try:
        res = _call(where, run, argv, dialect.on_stdin)
    except subprocess.TimeoutExpired:
        run.submit_error = (f"{argv[0]} did not answer in {SUBMIT_TIMEOUT} s: the job may "
                            "exist (jobgen status; submit --again resends it)")
        return run.submit_error
    out, err = decode(res.stdout), decode(res.stderr)
    found = dialect.job_id.search(out) if dialect.job_id else None
    if found and mf.JOB_ID.fullmatch(found.group(1)):
        run.job_id, run.maybe_submitted = found.group(1), False
        manifest.write(where)  # the id is on disk before anything else can fail
        _record_output(run)
        return None
    why = one_line((err.strip() or out.strip())[:2000] or f"exit {res.returncode}")[:300]
    if res.returncode == 0:
        run.submit_error = (f"{argv[0]} exited 0 but printed no job id ({why}): the job may "
                            "exist (jobgen status; submit --again resends it)")
        return run.submit_error
    run.submit_error, run.maybe_submitted = why, False
    return f"{argv[0]} failed: {why}"


def _call(where: SweepDir, run: mf.Run, argv: list[str], on_stdin: bool) -> calls.Answer:
    """The submit command, run in the run's directory (its output, bounded, kept). PWD is that
    directory's real path too: whether a scheduler takes the submit directory (PBS_O_WORKDIR,
    which cancel later compares) from getcwd() or from $PWD is UNCONFIRMED, so both agree."""
    feed = where.read(run.script, "a job script") if on_stdin else None
    with where.directory(run.dir) as fd:
        cwd = run_cwd(fd, where.path / run.dir)
        real = os.readlink(cwd) if cwd.startswith("/proc/") else cwd
        try:
            return calls.run(argv, SUBMIT_TIMEOUT, input=feed, cwd=cwd, pass_fds=(fd,),
                             env={**os.environ, "PWD": real})
        except FileNotFoundError:
            raise JobgenError(f"{argv[0]} not found: submit from a login node of the site, "
                              "or submit the scripts by hand from their directories") from None


def _record_output(run: mf.Run) -> None:
    if not run.output_pattern or not run.job_id:
        return
    try:
        run.output = f"{run.dir}/{mf.output_name(run.output_pattern, run.job_id)}"
    except JobgenError as exc:  # collect then looks at the run directory's files
        note(f"warning: r{run.repeat}: no output name for job {run.job_id}: {exc}")


def _run_here(where: SweepDir, manifest: mf.Manifest, run: mf.Run) -> str | None:
    """No scheduler: run the script now, its stdout and stderr into the run's output file."""
    where.script(run.script)
    rel = f"{run.dir}/{LOCAL_OUTPUT}"
    run.exit_code, run.output, run.submit_error, run.maybe_submitted = None, rel, None, True
    manifest.write(where)
    sink = where.new_output(rel)
    try:
        with where.directory(run.dir) as fd:
            res = subprocess.run(["bash", run.script.rpartition("/")[2]],
                                 cwd=run_cwd(fd, where.path / run.dir), pass_fds=(fd,),
                                 stdout=sink, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL)
    finally:
        os.close(sink)
    run.exit_code, run.maybe_submitted = res.returncode, False
    return None if res.returncode == 0 else f"the script exited with {res.returncode}"
