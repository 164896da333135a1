"""What the study needs of each scheduler dialect, one entry per dialect (no if-chains): how a
script is submitted and its job id read back, where the job writes its output, how to tell
the site's scheduler from a look-alike, and how to ask for a job's state or cancel it.

Output names are patterns with fixed tokens (`%j` the job id, `%s` its leading number, `%%`
a percent sign); a directive that names its output some other way gives no pattern, and
collect then looks at the files in the run's directory.

Telling the scheduler apart: Slurm's PBS compatibility package (slurm-wlm-torque) installs a
`qsub` that turns PBS scripts into sbatch calls; off-site, `jobgen submit` of a PBS sweep
must not feed it 54 scripts. Each dialect has a probe whose answer only the real one gives.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..plan.build import Plan
from ..registry import Registry
from .jsonin import JsonError, load_json

LOCAL_OUTPUT = "output.txt"
# A job's state in jobgen's words; the scheduler's own word is shown beside it.
QUEUED, HELD, RUNNING, DONE, FAILED, GONE = ("queued", "held", "running", "done", "failed",
                                             "gone")


@dataclass(frozen=True)
class JobInfo:
    """A job as the scheduler reports it: its state word, and what says whose job it is (None
    where the dialect's answer has no such field)."""

    word: str
    name: str | None = None  # the job's name (#PBS -N, --job-name, -J)
    owner: str | None = None  # the user who submitted it
    workdir: str | None = None  # the directory it was submitted from


@dataclass(frozen=True)
class Dialect:
    name: str  # what the user knows it as
    submit: tuple[str, ...]  # the script's name is appended, or fed on stdin
    job_id: re.Pattern[str] | None  # group 1: the job id in stdout; None: runs here, now
    output: Callable[[Plan], str | None]  # the output file's name pattern (%j, %s)
    probe: tuple[str, ...] = ()  # a command only the real scheduler answers...
    signature: re.Pattern[str] | None = None  # ...with this (stdout and stderr)
    status: Callable[[list[str]], list[str]] | None = None  # argv asking for these jobs
    parse: Callable[[str], dict[str, JobInfo]] | None = None  # job id -> the scheduler's word
    states: dict[str, str] | None = None  # the scheduler's word -> jobgen's state
    cancel: tuple[str, ...] = ()  # job ids appended
    on_stdin: bool = False  # LSF reads #BSUB lines only from a script given on stdin


DIALECTS: Registry[Dialect] = Registry()


def directive_value(plan: Plan, *flags: str) -> str | None:
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


def _name(value: str | None) -> str | None:
    """A pattern that is a plain file name in the run's directory, else None."""
    if value is None or "/" in value or not re.fullmatch(r"(?:[A-Za-z0-9._+=,@-]|%[js%])+",
                                                         value):
        return None
    return value


def _slurm_output(plan: Plan) -> str | None:
    """sbatch's --output pattern (default slurm-%j.out); None when it uses other tokens."""
    pattern = directive_value(plan, "--output", "-o") or "slurm-%j.out"
    pattern = pattern.replace("%x", plan.job_name.replace("%", "%%"))
    return None if re.search(r"%[^j%]", pattern) else _name(pattern)


def _pbs_output(plan: Plan) -> str | None:
    """PBS writes JOBNAME.oSEQ in the submit directory unless a -o directive says otherwise."""
    given = directive_value(plan, "-o")
    return _name(given.replace("%", "%%")) if given else _name(f"{plan.job_name}.o%s")


def _lsf_output(plan: Plan) -> str | None:
    given = directive_value(plan, "-o")
    if not given or re.search(r"%[^J]", given):
        return None
    return _name(given.replace("%J", "%j"))


def _cobalt_output(plan: Plan) -> str | None:
    prefix = directive_value(plan, "-O", "--outputprefix")
    return _name(f"{prefix.replace('%', '%%')}.output") if prefix else "%j.output"


# ---------------------------------------------------------------- job states
def _separated(text: str, with_dir: bool) -> dict[str, JobInfo]:
    """`id|state|name|user[|dir]` lines (squeue, bjobs with delimiter '|') -> {id: JobInfo};
    a name may itself hold a '|': the fields around it are fixed."""
    found = {}
    tail = 2 if with_dir else 1
    for line in text.splitlines():
        fields = line.strip().split("|")
        if len(fields) < 3 + tail or not fields[0].strip():
            continue
        name = "|".join(fields[2:-tail])
        workdir = fields[-1].strip() or None if with_dir else None
        found[fields[0].strip()] = JobInfo(fields[1].strip(), name,
                                           fields[-tail].strip() or None, workdir)
    return found


def _pbs_json(text: str) -> dict[str, JobInfo]:
    """`qstat -x -f -F json` -> {id: JobInfo}; a finished job is F plus its Exit_status.
    Job_Name, Job_Owner (user@host) and Variable_List's PBS_O_WORKDIR say whose it is."""
    try:
        data = load_json(text, 8, lenient=True)
    except JsonError:
        return {}
    jobs = data.get("Jobs") if isinstance(data, dict) else None
    found = {}
    for job_id, job in (jobs or {}).items() if isinstance(jobs, dict) else []:
        if not isinstance(job, dict):
            continue
        state = str(job.get("job_state", "?"))
        code = job.get("Exit_status")
        env = job.get("Variable_List")
        found[str(job_id)] = JobInfo(
            f"{state}:{code}" if state in ("F", "X") else state, _text(job.get("Job_Name")),
            _text(job.get("Job_Owner"), "@"),
            _text(env.get("PBS_O_WORKDIR")) if isinstance(env, dict) else None)
    return found


def _text(value: object, cut: str | None = None) -> str | None:
    if not isinstance(value, str):
        return None
    return value.split(cut, 1)[0] if cut else value


def _cobalt_table(text: str) -> dict[str, JobInfo]:
    """Cobalt's qstat table (JobID User WallTime Nodes State Location): {id: JobInfo} with
    the owner (the table has no job name or directory)."""
    found = {}
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 5 and fields[0].isdigit():
            found[fields[0]] = JobInfo(fields[4], owner=fields[1])
    return found


SLURM_STATES = {
    **dict.fromkeys(("PENDING", "CONFIGURING", "REQUEUED", "REQUEUE_FED", "RESIZING"), QUEUED),
    **dict.fromkeys(("REQUEUE_HOLD", "RESV_DEL_HOLD", "SUSPENDED", "STOPPED"), HELD),
    **dict.fromkeys(("RUNNING", "COMPLETING", "SIGNALING", "STAGE_OUT"), RUNNING),
    "COMPLETED": DONE,
    **dict.fromkeys(("FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY",
                     "PREEMPTED", "BOOT_FAIL", "DEADLINE", "REVOKED", "SPECIAL_EXIT"), FAILED),
}
PBS_STATES = {**dict.fromkeys("QWTM", QUEUED), **dict.fromkeys("HSU", HELD),
              **dict.fromkeys("REB", RUNNING), "F:0": DONE, "X:0": DONE}
LSF_STATES = {"PEND": QUEUED, "WAIT": QUEUED, "PROV": QUEUED, "PSUSP": HELD, "USUSP": HELD,
              "SSUSP": HELD, "RUN": RUNNING, "DONE": DONE, "EXIT": FAILED, "ZOMBI": FAILED}
# dep_fail: a job whose dependency ended with a non-zero status waits for `qrls
# --dependencies` (ALCF UG @ 64c21ae^ docs/sophia/not_in_nav/queueing-and-running-jobs/
# job-and-queue-scheduling.md): held, and cancelled with the rest of a chain
COBALT_STATES = {"queued": QUEUED, "starting": RUNNING, "running": RUNNING,
                 "exiting": RUNNING, "user_hold": HELD, "dep_hold": HELD, "admin_hold": HELD,
                 "dep_fail": HELD}


def state_of(dialect: Dialect, word: str) -> str:
    """jobgen's state for the scheduler's word (a PBS F with a non-zero exit is failed)."""
    states = dialect.states or {}
    if word in states:
        return states[word]
    if word.startswith(("F:", "X:")):
        return FAILED
    return word.split(":", 1)[0].lower() or GONE


# sbatch --version prints "slurm 22.05.8" (and needs the site's slurm.conf to do so).
DIALECTS["slurm"] = Dialect(
    "Slurm", ("sbatch",), re.compile(r"Submitted batch job (\d+)"), _slurm_output,
    probe=("sbatch", "--version"), signature=re.compile(r"^slurm[- \w]*\d", re.M),
    # squeue(1) --format: %i job id, %T state, %j job name, %u user name, %Z working directory
    status=lambda ids: ["squeue", "--noheader", "--states=all", f"--jobs={','.join(ids)}",
                        "--format=%i|%T|%j|%u|%Z"],
    parse=lambda text: _separated(text, with_dir=True), states=SLURM_STATES,
    cancel=("scancel",))
# OpenPBS and PBS Professional: `qsub --version` prints "pbs_version = 2022.1.x"
# (openpbs/openpbs src/include/pbs_version.h.in, PRINT_VERSION_AND_EXIT, @ cd7ab5ed);
# Slurm's qsub wrapper answers "Unknown option: version".
DIALECTS["pbs"] = Dialect(
    "PBS", ("qsub",), re.compile(r"^[^\S\n]*(\d+(?:\.\S+)?)[^\S\n]*$", re.M), _pbs_output,
    probe=("qsub", "--version"), signature=re.compile(r"^pbs_version\s*=", re.M),
    status=lambda ids: ["qstat", "-x", "-f", "-F", "json", *ids], parse=_pbs_json,
    states=PBS_STATES, cancel=("qdel",))
# IBM Spectrum LSF: `bsub -V` prints the LSF release ("IBM Spectrum LSF 10.1...") and exits.
DIALECTS["lsf"] = Dialect(
    "LSF", ("bsub",), re.compile(r"Job <(\d+)>"), _lsf_output,
    probe=("bsub", "-V"), signature=re.compile(r"\bLSF\b"),
    # bjobs -o fields job_name and user (IBM LSF 10.1 command reference, bjobs -o; the field
    # list is UNCONFIRMED against a running LSF). The submission directory is not asked for
    # (its field name is unconfirmed too): on LSF cancel checks the owner and the job name.
    status=lambda ids: ["bjobs", "-a", "-noheader", "-o",
                        "jobid stat job_name user delimiter='|'", *ids],
    parse=lambda text: _separated(text, with_dir=False), states=LSF_STATES,
    cancel=("bkill",),
    on_stdin=True)
# Cobalt (JLSE): UNCONFIRMED what `qsub --version` prints; jobgen only refuses the answers of
# PBS and of Slurm's wrapper, and reads the state column of `qstat`'s table.
DIALECTS["cobalt"] = Dialect(
    "Cobalt", ("qsub",), re.compile(r"^[^\S\n]*(\d+)[^\S\n]*$", re.M), _cobalt_output,
    probe=("qsub", "--version"), signature=None,
    status=lambda ids: ["qstat", *ids], parse=_cobalt_table, states=COBALT_STATES,
    cancel=("qdel",))
DIALECTS["none"] = Dialect("no scheduler", ("bash",), None, lambda plan: LOCAL_OUTPUT)

NOT_COBALT = re.compile(r"^pbs_version\s*=|Unknown option|slurm", re.M | re.I)


def looks_right(dialect: Dialect, rc: int, answer: str) -> bool:
    """Is this the site's scheduler, by its answer to the dialect's probe?"""
    if dialect.signature is not None:
        return bool(dialect.signature.search(answer))
    return rc == 0 and not NOT_COBALT.search(answer)


def output_pattern(plan: Plan) -> str | None:
    return DIALECTS[plan.dialect].output(plan)


def decode(data: bytes | None) -> str:
    """A command's output as text, whatever its bytes (never an error)."""
    return (data or b"").decode("utf-8", errors="replace")
