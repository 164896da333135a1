"""`jobgen chain SCRIPT --links N`: one rendered script submitted N times as a chain of jobs
that each start when the one before has ended, with the scheduler's own dependencies.

Each link resumes from the newest complete checkpoint; the script's chain hook
(templates/_chain.j2) ends a link at once when the training is finished or the chain is
stopped, and stops the chain (cancelling the later links) after `--max-stalled` links in a
row without progress. The chain directory (default `SCRIPT.chain/`) holds:

- `chain.json` jobgen's record (typed, bounded: an edited or damaged one is refused);
- `jobs.txt` `K JOB_ID` per link, what the links read to cancel the later ones;
- `settings.txt` the stall cap, how a finished training shows (`marker`: the bundled apps'
  `<checkpoint-dir>/FINISHED`; `exit0`: a user's program exits 0) and the checkpoint
  directory to watch (empty: none);
- `link-K.start` written by link K as it starts (checkpoint step, time); `link-K.json` written
  by link K as it ends, or by link K+1 when K was killed before its exit trap ran (SIGKILL
  after the time limit's grace time); `STOPPED` why the chain stopped.

Dependencies and environment, per scheduler (sources in docs/chains-reference.md):
Slurm `sbatch --dependency=afterany:ID --export=ALL,VAR=...`; PBS `qsub -W depend=afterany:ID
-v VAR=...`; LSF `bsub -w 'ended(ID)'` with the variables in bsub's own environment (bsub
passes the submission environment by default: -env "all"); Cobalt `qsub --dependencies ID
--env VAR=...:VAR=...` (Cobalt starts a dependent job only after an exit status of 0, so a
Cobalt link exits 0 and keeps its status in link-K.json).
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints, ValidationError, model_validator

from ..errors import JobgenError, counted, one_line
from . import calls
from . import manifest as mf
from .files import SweepDir
from .jobs import ACTIVE, LOCK_WAIT, me, query, send_cancel
from .jsonin import JsonError, load_json
from .schedulers import DIALECTS, DONE, FAILED, GONE, JobInfo, decode
from .schedulers import state_of as word_state

MAX_LINKS = 100  # a 48 h queue x 100 is 200 days of training: more is a typo, not a plan
DEFAULT_STALLED = 2
NAME = "chain.json"
JOBS = "jobs.txt"
SETTINGS = "settings.txt"
STOPPED = "STOPPED"
FORMAT = 1
SUBMIT_TIMEOUT = 300
# What reaches the links' environment through sbatch --export (comma-separated), qsub -v
# (comma-separated) and Cobalt --env (colon-separated): a path without those separators,
# spaces, quotes or '='.
SAFE_PATH = re.compile(r"/[A-Za-z0-9._/+@~-]{0,1000}")


class Link(BaseModel):
    model_config = mf.MODEL
    link: Annotated[int, Field(ge=1, le=MAX_LINKS)]
    job_id: mf.JobId | None = None
    output: mf.Pattern | None = None  # the output file's name in the submit directory
    maybe_submitted: bool = False
    submit_error: mf.Text | None = None


class Chain(BaseModel):
    model_config = mf.MODEL
    format: Literal[1] = FORMAT
    script: Annotated[str, StringConstraints(max_length=4096)]  # absolute
    submit_dir: Annotated[str, StringConstraints(max_length=4096)]  # absolute
    site: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$")]
    dialect: Literal["pbs", "slurm", "lsf", "cobalt"]
    app: mf.Token | None
    checkpoint_dir: Annotated[str, StringConstraints(max_length=4096)] | None
    job_name: mf.Name
    output_pattern: mf.Pattern | None
    max_stalled: Annotated[int, Field(ge=1, le=MAX_LINKS)]
    after: mf.JobId | None = None
    links: Annotated[list[Link], Field(min_length=1, max_length=MAX_LINKS)]
    command: mf.LongText
    cancelled: bool = False

    @model_validator(mode="after")
    def _numbered(self) -> Chain:
        if [lk.link for lk in self.links] != list(range(1, len(self.links) + 1)):
            raise ValueError("the links are not numbered 1, 2, ... in order")
        for path in (self.script, self.submit_dir):
            if not path.startswith("/") or "\0" in path:
                raise ValueError(f"{path[:80]!r} is not an absolute path")
        return self

    def to_json(self) -> str:
        import json

        return json.dumps(self.model_dump(mode="json"), indent=2, sort_keys=True) + "\n"

    def jobs_text(self) -> str:
        return "".join(f"{lk.link} {lk.job_id}\n" for lk in self.links if lk.job_id)

    def write(self, where: SweepDir) -> None:
        """chain.json, then jobs.txt (what the links read), each written whole."""
        where.write(NAME, self.to_json().encode(), replace=True)
        where.write(JOBS, self.jobs_text().encode(), replace=True)


@dataclass(frozen=True)
class Target:
    """What a rendered script says about itself (its header, the plan it was rendered
    from)."""

    script: Path
    site: str
    dialect: str
    app: str | None
    checkpoint_dir: str | None
    job_name: str
    output_pattern: str | None
    bill: Any  # one link's most charge (jobgen.plan.billing.Bill), None where no rule


def read_target(path: Path, script: Any) -> Target:
    """The script's provenance, or a one-line refusal (not jobgen's, no scheduler, a bundled
    app without --checkpoint-dir, rendered before chains). `script`: the script as
    jobgen.review.scriptparse reads it (its header, directives' dialect and text; the command
    line reads it: the study does not import the review tools)."""
    from ..plan.billing import bill_for
    from ..plan.build import build_plan
    from ..profiles.load import load_profile
    from ..request.parse import request_from_command_line
    from .schedulers import output_pattern

    header = script.header
    if header.regenerate is None or header.site is None:
        raise JobgenError(f"{path}: no jobgen provenance header (`# Regenerate: jobgen render "
                          "...`): chain takes a script made by jobgen render")
    req = request_from_command_line(header.regenerate)
    loaded = load_profile(req.site)
    plan = build_plan(loaded, req)
    dialect = plan.dialect
    if dialect not in ("slurm", "pbs", "lsf", "cobalt"):
        raise JobgenError(f"{path}: {req.site} has no batch scheduler (the script runs with "
                          "bash): a chain needs one; run the script again by hand to resume")
    if script.dialect not in (None, dialect):
        raise JobgenError(f"{path}: its directives are {script.dialect}'s but {req.site} uses "
                          f"{dialect}: render it again")
    if req.app and not req.checkpoint_dir:
        raise JobgenError(f"{path}: the bundled app {req.app} was rendered without a "
                          "checkpoint directory, so its links would start over: render again "
                          "with --checkpoint-dir DIR")
    if "jobgen_chain_end" not in script.text:
        raise JobgenError(f"{path}: rendered by a jobgen without the chain hook: render it "
                          "again (jobgen render with the same options)")
    bill = bill_for(loaded.profile, plan)
    return Target(path, req.site, dialect, req.app, req.checkpoint_dir, plan.job_name,
                  output_pattern(plan), bill)


# ---------------------------------------------------------------- submit commands
def link_command(dialect: str, script: str, chain_dir: str, link: int, after: str | None
                 ) -> tuple[list[str], dict[str, str]]:
    """The submit command of one link (argv, variables for its environment): the
    scheduler's dependency on the link before and its way of passing variables."""
    env = {"JOBGEN_CHAIN_DIR": chain_dir, "JOBGEN_CHAIN_LINK": str(link)}
    pairs = [f"{k}={v}" for k, v in env.items()]
    if dialect == "slurm":
        # sbatch(1) --dependency afterany: "after the specified jobs have terminated";
        # --export=ALL,VAR=value: the whole submission environment plus these
        dep = [f"--dependency=afterany:{after}"] if after else []
        return ["sbatch", *dep, f"--export=ALL,{','.join(pairs)}", script], {}
    if dialect == "pbs":
        # PBS Professional User's Guide "Using Job Dependencies" (UG-107) -W depend=after...;
        # "Exporting Specific Environment Variables" (UG-126) -v list (ALCF UG
        # docs/running-jobs/not_in_nav/pbs-qsub-options-table.md)
        dep = ["-W", f"depend=afterany:{after}"] if after else []
        return ["qsub", *dep, "-v", ",".join(pairs), script], {}
    if dialect == "lsf":
        # IBM LSF 10.1 bsub -w 'ended(ID)'; bsub -env defaults to "all": the submission
        # environment reaches the job, so the variables go in bsub's own environment
        dep = ["-w", f"ended({after})"] if after else []
        return ["bsub", *dep], env
    # Cobalt: qsub --dependencies ID, --env VAR=value:VAR=value (ALCF UG, ThetaGPU's Cobalt
    # page docs/sophia/not_in_nav/queueing-and-running-jobs/job-and-queue-scheduling.md)
    dep = ["--dependencies", after] if after else []
    return ["qsub", *dep, "--env", ":".join(pairs), script], {}


def shown(argv: list[str], env: dict[str, str], stdin: str | None) -> str:
    from ..shell import join

    words = [f"{k}={v}" for k, v in env.items()]
    text = " ".join(str(join([w])) for w in words) + (" " if words else "") + str(join(argv))
    return text + (f" < {join([stdin])}" if stdin else "")


# ---------------------------------------------------------------- the chain directory
def default_dir(script: Path) -> Path:
    return script.parent / f"{script.name}.chain"


def _check_links(links: int, max_stalled: int) -> None:
    if not 1 <= links <= MAX_LINKS:
        raise JobgenError(f"--links {links}: a chain has 1 to {MAX_LINKS} links (each one a "
                          "full walltime); give a count in that range")
    if not 1 <= max_stalled <= MAX_LINKS:
        raise JobgenError(f"--max-stalled {max_stalled}: give 1 to {MAX_LINKS}")


def _safe_path(path: Path, what: str) -> str:
    text = str(path)
    if not SAFE_PATH.fullmatch(text) or "/../" in text + "/":
        raise JobgenError(f"{what} {text[:200]!r} has characters the schedulers' variable "
                          "lists cannot carry (only letters, digits and ._/+@~-): choose "
                          "another with --dir")
    return text


def read_chain(where: SweepDir) -> Chain:
    raw = where.read(NAME, "a chain record")
    if raw is None:
        raise JobgenError(f"{where.path} is not a chain directory (no {NAME}): make one with "
                          "jobgen chain SCRIPT --links N")
    try:
        data = load_json(raw, 6)
        chain = Chain.model_validate(data)
    except JsonError as exc:
        raise JobgenError(f"{where.path / NAME}: {exc}") from None
    except ValidationError as exc:
        raise JobgenError(f"{where.path / NAME}: {mf.field_error(exc)}; it is jobgen's record "
                          "of the chain: restore it") from None
    jobs = where.read(JOBS, "the chain's job list")
    if jobs is None or jobs.decode("utf-8", "replace") != chain.jobs_text():
        raise JobgenError(f"{where.path / JOBS} does not match {NAME} (edited?): the links "
                          "read it to cancel the later links; restore it (one `K JOB_ID` line "
                          "per submitted link, as in chain.json)")
    return chain


def is_chain(directory: Path) -> bool:
    return (directory / NAME).is_file() and not (directory / mf.NAME).exists()


def submit_chain(script: Path, parsed: Any, links: int, chain_dir: Path | None = None,
                 max_stalled: int = DEFAULT_STALLED, checkpoint_dir: Path | None = None,
                 after: str | None = None, force: bool = False, dry_run: bool = False,
                 command: str = "") -> tuple[Chain | None, list[str], str | None]:
    """Submit the chain; (its record, the lines to print, the problem that stopped it)."""
    from .submit import check_scheduler

    _check_links(links, max_stalled)
    if after is not None and not mf.JOB_ID.fullmatch(after):
        raise JobgenError(f"--after {after[:80]!r} is not a job id")
    script = Path(os.path.abspath(script))
    target = read_target(script, parsed)
    if checkpoint_dir is not None and target.app:
        raise JobgenError(f"--checkpoint-dir: the bundled app {target.app} has its own "
                          f"({target.checkpoint_dir}): leave the option out")
    where_dir = Path(os.path.abspath(chain_dir or default_dir(script)))
    chain_text = _safe_path(where_dir, "the chain directory")
    # relative to where the links run: the script's directory (the submit directory)
    given = target.checkpoint_dir if target.app else checkpoint_dir
    watch = _safe_settings_path(Path(os.path.normpath(script.parent / given))
                                ) if given else None
    argv_of = [link_command(target.dialect, script.name, chain_text, k,
                            (f"<job id of link {k - 1}>" if k > 1 else after))
               for k in range(1, links + 1)]
    stdin = script.name if DIALECTS[target.dialect].on_stdin else None
    from ..plan.billing import sweep_bill
    from ..shell import join

    lines = [f"cd {join([str(script.parent)])}"] + [shown(a, e, stdin) for a, e in argv_of]
    bill = (f"the chain's bill: {sweep_bill([(target.bill, links)])}; one link: "
            f"{target.bill.line}") if target.bill else None
    if dry_run:
        return None, lines + ([f"# {bill}"] if bill else []), None
    dialect = DIALECTS[target.dialect]
    if where_dir.exists() and any(where_dir.iterdir()) and not force:
        raise JobgenError(f"{where_dir} exists: this script was chained already (jobgen "
                          f"status {where_dir}); two chains would write one checkpoint "
                          "directory. Add --force to replace it once none of its links is "
                          "queued or running")
    check_scheduler(dialect, target.site)
    created = not where_dir.exists()
    with SweepDir.open(where_dir, lock=True, create=True) as where:
        if where.kind(NAME) is not None:
            if not force:  # another jobgen chained it since the check above
                raise JobgenError(f"{where_dir} exists: this script was chained already "
                                  f"(jobgen status {where_dir})")
            old = read_chain(where)
            live = [r for r in _states(where, old) if r["state"] in ACTIVE]
            if live:
                raise JobgenError(f"{where_dir}: link {live[0]['link']} (job "
                                  f"{live[0]['job_id']}) is still {live[0]['state']}: cancel "
                                  f"the old chain first (jobgen cancel {where_dir})")
            for name, _ in where.files(""):
                if name in (NAME, JOBS, SETTINGS, STOPPED) or re.fullmatch(
                        r"\.?link-\d+\.(json|start).*", name):
                    where.remove(name)
        elif not where.is_empty() and not force:
            raise JobgenError(f"{where_dir} exists and is not a chain directory: choose "
                              "another with --dir")
        chain = Chain(script=str(script), submit_dir=str(script.parent), site=target.site,
                      dialect=target.dialect, app=target.app,
                      checkpoint_dir=watch, job_name=target.job_name,
                      output_pattern=target.output_pattern, max_stalled=max_stalled,
                      after=after, links=[Link(link=k) for k in range(1, links + 1)],
                      command=command[:20_000] or f"jobgen chain {script} --links {links}")
        finish = "marker" if target.app else "exit0"
        where.write(SETTINGS, f"{max_stalled}\n{finish}\n{watch or ''}\n".encode(),
                    replace=True)
        chain.write(where)
        problem = _submit_links(where, chain, chain_text, stdin)
        if problem and chain.links[0].job_id is None and not chain.links[0].maybe_submitted:
            for name in (NAME, JOBS, SETTINGS):
                where.remove(name)
            if created:
                with contextlib.suppress(OSError):
                    where_dir.rmdir()
            raise JobgenError(f"nothing submitted: {problem}")
    if bill:
        from .progress import note

        note(bill)
    shown_ids = [f"link {lk.link}: job {lk.job_id}" for lk in chain.links if lk.job_id]
    return chain, shown_ids, problem


def _safe_settings_path(path: Path) -> str:
    text = str(path)
    if "\n" in text or "\0" in text or len(text) > 4096:
        raise JobgenError(f"--checkpoint-dir {text[:80]!r}: not a usable path")
    return text


def _submit_links(where: SweepDir, chain: Chain, chain_text: str, stdin: str | None
                  ) -> str | None:
    """Submit link after link, each recorded before it is sent and its id right after."""
    dialect = DIALECTS[chain.dialect]
    prev = chain.after
    script = Path(chain.script)
    feed = script.read_bytes() if stdin else None
    for lk in chain.links:
        argv, env = link_command(chain.dialect, script.name, chain_text, lk.link, prev)
        lk.maybe_submitted = True
        chain.write(where)
        try:
            res = calls.run(argv, SUBMIT_TIMEOUT, input=feed, cwd=chain.submit_dir,
                            env={**os.environ, **env, "PWD": chain.submit_dir})
        except FileNotFoundError:
            lk.maybe_submitted = False
            chain.write(where)
            return f"{argv[0]} not found: submit from a login node of the site"
        except subprocess.TimeoutExpired:
            lk.submit_error = f"{argv[0]} did not answer in {SUBMIT_TIMEOUT} s"
            chain.write(where)
            return f"link {lk.link}: {lk.submit_error} (the job may exist: jobgen status)"
        out = decode(res.stdout)
        found = dialect.job_id.search(out) if dialect.job_id else None
        if res.returncode == 0 and found and mf.JOB_ID.fullmatch(found.group(1)):
            lk.job_id, lk.maybe_submitted = found.group(1), False
            if chain.output_pattern:
                lk.output = mf.output_name(chain.output_pattern, lk.job_id)
            chain.write(where)
            prev = lk.job_id
            continue
        why = one_line((decode(res.stderr).strip() or out.strip())[:2000]
                       or f"exit {res.returncode}")[:300]
        lk.maybe_submitted = res.returncode == 0  # exit 0 without an id: it may exist
        lk.submit_error = why
        chain.write(where)
        return f"link {lk.link}: {argv[0]} failed: {why}"
    return None


# ---------------------------------------------------------------- status and cancel
LINK_KEYS = {"link": int, "exit_code": int, "step_before": int, "step_after": int,
             "progress": bool, "finished": bool, "start": int, "end": int}


def read_link(where: SweepDir, k: int) -> dict[str, Any] | None:
    """link-K.json as the chain hook writes it, or a one-line refusal naming the file."""
    rel = f"link-{k}.json"
    raw = where.read(rel, "a link record", limit=4096)
    if raw is None:
        return None
    bad = JobgenError(f"{where.path / rel} is not a link record the chain hook writes "
                      "(edited or damaged): remove it; the link's state then comes from the "
                      "scheduler")
    try:
        data = load_json(raw, 2)
    except JsonError:
        raise bad from None
    if (not isinstance(data, dict) or set(data) != set(LINK_KEYS) or data["link"] != k
            or any(type(data[key]) is not kind for key, kind in LINK_KEYS.items())
            or not all(0 <= data[key] < 10**13 for key in ("step_before", "step_after",
                                                           "start", "end"))
            or not -255 <= data["exit_code"] <= 512):
        raise bad
    return data


def _mine(chain: Chain, info: JobInfo) -> str | None:
    user = me()
    if info.owner is not None and info.owner != user:
        return f"it belongs to {info.owner}, not {user}"
    if info.name is not None and info.name != chain.job_name:
        return f"its name is {info.name!r}, not {chain.job_name!r}"
    if info.workdir is not None:
        try:
            same = os.path.samefile(info.workdir, chain.submit_dir)
        except OSError:
            same = False
        if not same:
            return f"it was submitted from {info.workdir}, not {chain.submit_dir}"
    return None


def _states(where: SweepDir, chain: Chain) -> list[dict[str, Any]]:
    dialect = DIALECTS[chain.dialect]
    ids = [lk.job_id for lk in chain.links if lk.job_id]
    words = query(dialect, ids)
    rows = []
    for lk in chain.links:
        record = read_link(where, lk.link)
        info = words.get(lk.job_id) if lk.job_id else None
        if info is None and lk.job_id:
            number = lk.job_id.split(".", 1)[0]
            info = next((w for k, w in words.items() if k.split(".", 1)[0] == number), None)
        note = None
        code = record["exit_code"] if record else None
        if lk.job_id is None:
            state = "unknown" if lk.maybe_submitted else "not submitted"
            note = lk.submit_error
        elif info is not None:
            state, word = word_state(dialect, info.word), info.word
            foreign = _mine(chain, info)
            if foreign:
                note = f"not this chain's job: {foreign}"
            if code is None and word.startswith(("F:", "X:")):
                code = int(word.split(":", 1)[1]) if word.split(":", 1)[1].lstrip(
                    "-").isdigit() else None
        elif record is not None:
            state = DONE if record["exit_code"] == 0 else FAILED
            note = "no longer listed by the scheduler"
        else:
            state = GONE
            note = "no longer listed by the scheduler, and no link record (it never ran?)"
        stopped_at = _stopped_at(where)
        if record is None and lk.job_id and state not in ACTIVE and (
                chain.cancelled or (stopped_at is not None and lk.link > stopped_at)):
            state = "cancelled"
            note = ("cancelled: the chain stopped at link "
                    f"{stopped_at}" if stopped_at is not None and lk.link > stopped_at
                    else "cancelled with jobgen cancel")
        output = Path(chain.submit_dir) / lk.output if lk.output else None
        if output is not None and not output.exists():
            output = None
        if record:
            progress = (f"checkpoint step {record['step_before']} -> {record['step_after']}"
                        + ("; finished" if record["finished"] else ""))
            note = f"{progress}; {note}" if note else progress
        rows.append({"link": lk.link, "job_id": lk.job_id, "state": state,
                     "word": info.word[:40] if info else None, "exit_code": code,
                     "output": str(output) if output else None,
                     "note": note, "foreign": bool(note and note.startswith("not this"))})
    return rows


def _stopped_at(where: SweepDir) -> int | None:
    """The link that stopped the chain (STOPPED's `link K:`), None when none did."""
    reason = stopped_reason(where)
    found = re.match(r"link (\d{1,4}): ", reason or "")
    return int(found.group(1)) if found else None


def stopped_reason(where: SweepDir) -> str | None:
    raw = where.read(STOPPED, "the chain's stop note", limit=4096)
    return one_line(raw.decode("utf-8", "replace").strip())[:300] if raw else None


def status(directory: Path) -> tuple[Chain, list[dict[str, Any]], str | None]:
    with SweepDir.open(directory, lock=False) as where:
        chain = read_chain(where)
        return chain, _states(where, chain), stopped_reason(where)


def cancel(directory: Path) -> list[str]:
    """Stop the chain (STOPPED: a link that starts anyway exits at once) and cancel every link
    still queued, held or running, the last first; their ids."""
    with SweepDir.open(directory, lock=True, wait=LOCK_WAIT) as where:
        chain = read_chain(where)
        rows = _states(where, chain)
        live = [r for r in rows if r["state"] in ACTIVE]
        foreign = [r for r in live if r["foreign"]]
        if foreign:
            first = foreign[0]
            raise JobgenError(f"{counted(len(foreign), 'job')} of {directory}/{NAME} "
                              f"{'is' if len(foreign) == 1 else 'are'} not this chain's: link "
                              f"{first['link']} job {first['job_id']}: {first['note']}; "
                              "nothing cancelled (restore the chain directory)")
        if where.kind(STOPPED) is None:
            where.write(STOPPED, b"cancelled with jobgen cancel\n", replace=True)
        chain.cancelled = True
        where.write(NAME, chain.to_json().encode(), replace=True)
        ids = [r["job_id"] for r in reversed(live)]
        send_cancel(DIALECTS[chain.dialect], ids)
        return ids


# ---------------------------------------------------------------- collect
def _result_of(submit: SweepDir, output: str | None) -> dict[str, Any] | None:
    """The link's last job-level result line (None when it printed none: a link stopped by
    a signal, or one that never started)."""
    from ..textfile import MAX_BYTES
    from .collect import job_result, result_lines

    if not output:
        return None
    try:
        raw = submit.read(output, "a job's output", limit=MAX_BYTES, tail=True)
    except JobgenError:
        return None
    if raw is None:
        return None
    return job_result(result_lines(raw.decode("utf-8", "replace"), output))


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(
        value, bool) else None


def collect(directory: Path) -> dict[str, Any]:
    """The chain as trained: per link the steps it added, its wall time, the time that was
    not training (start-up, loading the checkpoint, warm-up: what a restart costs), the wait
    since the link before, the slowest checkpoint write; and the totals. A field the link's
    result line does not carry (an older app, a link stopped by a signal) is unknown."""
    with SweepDir.open(directory, lock=False) as where:
        chain = read_chain(where)
        rows = _states(where, chain)
        records = {lk.link: read_link(where, lk.link) for lk in chain.links}
        stopped = stopped_reason(where)
    links = []
    with SweepDir.open(Path(chain.submit_dir), lock=False) as submit:
        prev_end = None
        for row, lk in zip(rows, chain.links, strict=True):
            rec = records[lk.link]
            result = _result_of(submit, lk.output)
            wall = (rec["end"] - rec["start"]) if rec else None
            trained = _number(result.get("elapsed_s")) if result else None
            links.append({
                "link": lk.link, "job_id": lk.job_id, "state": row["state"],
                "exit_code": row["exit_code"],
                "steps": (rec["step_after"] - rec["step_before"]) if rec else None,
                "step_before": rec["step_before"] if rec else None,
                "step_after": rec["step_after"] if rec else None,
                "resumed_from_step": result.get("resumed_from_step") if result else None,
                "chain_link": result.get("chain_link") if result else None,
                "wall_s": wall,
                "not_training_s": (wall - trained) if wall is not None and trained is not None
                else None,
                "wait_s": (rec["start"] - prev_end) if rec and prev_end is not None else None,
                "checkpoint_seconds_max": _number(result.get("checkpoint_seconds_max"))
                if result else None,
                "param_sha256": result.get("param_sha256") if result else None,
            })
            prev_end = rec["end"] if rec else prev_end
    ran = [x for x in links if x["wall_s"] is not None]
    lost = [x["not_training_s"] for x in ran[1:]]
    costs = [x["checkpoint_seconds_max"] for x in ran if x["checkpoint_seconds_max"] is not None]
    return {
        "chain": str(directory), "site": chain.site, "app": chain.app, "links": links,
        "links_run": len(ran), "stopped": stopped,
        "steps": sum(x["steps"] for x in ran if x["steps"] is not None),
        "last_step": max((x["step_after"] for x in ran), default=None),
        "restart_lost_s": sum(lost) if lost and None not in lost else None,  # type: ignore
        "checkpoint_seconds_max": max(costs) if costs else None,
    }
