"""Submit a sweep's scripts with the site's own command and record job ids and output files.

One entry per scheduler dialect (no `if dialect == ...` chains): the submit command, how the
job id is read from what it prints, and where the job's output lands. Sites without a
scheduler run their scripts here with bash, one after the other, each into `output.txt`.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..errors import JobgenError
from ..plan.build import Plan
from ..registry import Registry
from . import manifest as mf
from .progress import note, steps

LOCAL_OUTPUT = "output.txt"


@dataclass(frozen=True)
class Submitter:
    """How one scheduler dialect takes a script."""

    command: tuple[str, ...]  # the script's path is appended, or fed on stdin
    job_id: re.Pattern[str] | None  # group 1 is the job id in stdout; None: runs here, now
    output: Callable[[Plan], str | None]  # the output file's name with {id} and {seq}
    on_stdin: bool = False  # LSF reads #BSUB lines only from a script given on stdin


SUBMITTERS: Registry[Submitter] = Registry()


def _directive_value(plan: Plan, *flags: str) -> str | None:
    """The value of the first directive of the plan that sets one of `flags`."""
    for fact in plan.directives:
        words = fact.text.split(None, 1)[1:] or [""]
        rest = words[0]
        for flag in flags:
            if rest.startswith(flag + "="):
                return rest[len(flag) + 1:]
            if rest.startswith(flag + " "):
                return rest[len(flag) + 1:].strip()
    return None


def _slurm_output(plan: Plan) -> str | None:
    """sbatch's --output pattern (default slurm-%j.out); None when it uses other patterns."""
    pattern = _directive_value(plan, "--output", "-o") or "slurm-%j.out"
    name = pattern.replace("%x", plan.job_name).replace("%j", "{id}")
    return None if "%" in name else name


def _pbs_output(plan: Plan) -> str | None:
    """PBS writes JOBNAME.oSEQ in the submit directory unless a -o directive says otherwise."""
    given = _directive_value(plan, "-o")
    return given if given else f"{plan.job_name}.o{{seq}}"


def _lsf_output(plan: Plan) -> str | None:
    given = _directive_value(plan, "-o")
    return given.replace("%J", "{id}") if given else None


def _cobalt_output(plan: Plan) -> str | None:
    prefix = _directive_value(plan, "-O", "--outputprefix")
    return f"{prefix}.output" if prefix else "{id}.output"


SUBMITTERS["slurm"] = Submitter(("sbatch",), re.compile(r"Submitted batch job (\d+)"),
                                _slurm_output)
SUBMITTERS["pbs"] = Submitter(("qsub",), re.compile(r"^\s*(\d+(?:\.\S+)?)\s*$", re.M),
                              _pbs_output)
SUBMITTERS["lsf"] = Submitter(("bsub",), re.compile(r"Job <(\d+)>"), _lsf_output,
                              on_stdin=True)
SUBMITTERS["cobalt"] = Submitter(("qsub",), re.compile(r"^\s*(\d+)\s*$", re.M),
                                 _cobalt_output)
SUBMITTERS["none"] = Submitter(("bash",), None, lambda plan: LOCAL_OUTPUT)


def output_pattern(plan: Plan) -> str | None:
    return SUBMITTERS[plan.dialect].output(plan)


def submit_sweep(directory: Path, again: bool = False) -> list[str]:
    """Submit every run not yet submitted (all with `again`); the problems, one line each."""
    manifest = mf.read(directory)
    todo = [(p, r) for p in manifest.valid_points for r in p.runs
            if again or (r.job_id is None and r.exit_code is None)]
    if not todo:
        raise JobgenError(f"every run in {directory} was submitted already: add --again to "
                          "submit them again")
    submitter = SUBMITTERS[manifest.dialect]
    problems = []
    for point, run in steps(todo, "submit", lambda pr: f"{pr[0].id} r{pr[1].repeat}"):
        if submitter.job_id is None:
            problem = _run_here(directory, run, submitter)
        else:
            problem = _submit(directory, run, submitter, submitter.job_id)
        if problem:
            problems.append(f"{point.id} r{run.repeat}: {problem}")
            note(f"warning: {problems[-1]}")
        manifest.write(directory)  # after each one: an interrupted submit keeps its job ids
    return problems


def _submit(directory: Path, run: mf.Run, submitter: Submitter,
            job_id: re.Pattern[str]) -> str | None:
    """Submit from the run's own directory, where the job then writes its output."""
    cwd = directory / run.dir
    script = Path(run.script).name
    argv = [*submitter.command] if submitter.on_stdin else [*submitter.command, script]
    try:
        with open(cwd / script, encoding="utf-8") as stdin:
            res = subprocess.run(argv, cwd=cwd, capture_output=True, text=True,
                                 stdin=stdin if submitter.on_stdin else subprocess.DEVNULL)
    except FileNotFoundError:
        raise JobgenError(f"{argv[0]} not found: submit from a login node of the site, or "
                          "submit the scripts by hand from their directories") from None
    found = job_id.search(res.stdout)
    run.job_id = run.output = run.exit_code = None  # nothing of an earlier submission is kept
    if res.returncode != 0 or not found:
        why = (res.stderr.strip() or res.stdout.strip() or f"exit {res.returncode}")
        run.submit_error = " ".join(why.split())[:300]
        return f"{argv[0]} failed: {run.submit_error}"
    run.job_id, run.submit_error = found.group(1), None
    seq = re.match(r"\d+", run.job_id)
    if run.output_pattern:
        name = run.output_pattern.format(id=run.job_id, seq=seq.group(0) if seq else run.job_id)
        run.output = f"{run.dir}/{name}"
    return None


def _run_here(directory: Path, run: mf.Run, submitter: Submitter) -> str | None:
    """No scheduler: run the script now, its stdout and stderr into the run's output file."""
    cwd = directory / run.dir
    out = cwd / LOCAL_OUTPUT
    with open(out, "w", encoding="utf-8") as sink:
        res = subprocess.run([*submitter.command, Path(run.script).name], cwd=cwd, stdout=sink,
                             stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    run.exit_code, run.output, run.submit_error = res.returncode, f"{run.dir}/{LOCAL_OUTPUT}", None
    return None if res.returncode == 0 else f"the script exited with {res.returncode}"
