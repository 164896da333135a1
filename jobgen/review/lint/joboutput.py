"""The scheduler's own output files: a directory that cannot exist (or that the script itself
has to create) when the job starts.

The scheduler opens the batch script's output and error files itself, before the first line of
the script runs, and creates no directory for them:
- Slurm (slurmstepd opens them on the first node): the job never starts. Measured on the real
  Slurm 22.05.8 of tests/slurm_cluster.py: `#SBATCH -o nodir/%j.out` gives JobState=FAILED
  Reason=JobLaunchFailure ExitCode=0:53, and a `mkdir -p nodir` inside the script never runs
  (tests/test_lint_round4_slurm.py repeats it). sbatch(1) lists the filename patterns (%j the
  job id, %A/%a array ids, %N/%n node, %t/%s task and step): a directory named with one of
  them cannot exist before the job has its id.
- PBS: the execution host spools the output and copies it to -o/-e at the end; a copy that
  fails leaves it in PBS_HOME/undelivered on that host (OpenPBS src/resmom/stage_func.c
  @ cd7ab5ed L905-930: "Output retained on that host in:"): the job runs, its output is not
  where the user looks.
- LSF: bsub -o "sends the output by mail if the file does not exist, or the system has trouble
  writing to it"; "if the specified output_file path is not accessible, the output will not be
  stored" (IBM Spectrum LSF 10.1 command reference, bsub -o); a path ending in / names a
  directory LSF creates on the execution host.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .context import Context, Item
from .core import Hit, rule

_KEYS = {"slurm": ("--output", "-o", "--error", "-e"), "pbs": ("-o", "-e"),
         "lsf": ("-o", "-e", "-oo", "-eo")}
# Filename patterns that differ per job: sbatch(1)'s job id, array ids, node name or number,
# task, step (not %u the user, %x the job name, fixed by the script); bsub's %J and %I
_PER_JOB = {"slurm": re.compile(r"%[0-9]*[jJAaNnts]"), "lsf": re.compile(r"%[JI]")}
_MEASURED = ("Slurm 22.05.8 of tests/slurm_cluster.py, measured: `#SBATCH -o nodir/%j.out` "
             "gives JobState=FAILED Reason=JobLaunchFailure before the script's first line; "
             "sbatch(1) --output filename patterns")
_PBS = ("OpenPBS src/resmom/stage_func.c @ cd7ab5ed L905-930 (an output file that cannot be "
        "copied back is kept in PBS_HOME/undelivered on the execution host)")
_LSF = ("IBM Spectrum LSF 10.1 bsub -o (sends the output by mail if the file does not exist or "
        "cannot be written; if the output_file path is not accessible, the output is not "
        "stored; a path ending in / is a directory LSF creates)")


def _directory(value: str) -> str | None:
    """The directory part of an output file's path, relative paths as written (`./logs` is
    `logs`); None for a file in the working directory, a host:path form or /dev/null."""
    path = value.split(":", 1)[1] if re.match(r"^[\w.-]+:/", value) else value
    if "/" not in path or path.startswith("/dev/"):
        return None
    d = path.rsplit("/", 1)[0]
    while d.startswith("./"):
        d = d[2:]
    return d.rstrip("/") or None


def _made_by_script(ctx: Context, directory: str) -> int | None:
    """The line of a `mkdir` in the script that makes this directory (or one below it)."""
    for line, words in ctx.script.commands:
        if not words or words[0] != "mkdir":
            continue
        for w in words[1:]:
            if w.startswith("-"):
                continue
            w = w.strip("\"'")
            while w.startswith("./"):
                w = w[2:]
            w = w.rstrip("/")
            if w == directory or w.startswith(directory + "/"):
                return line
    return None


def _outputs(ctx: Context) -> Iterator[tuple[Item, str]]:
    for item in ctx.find(*_KEYS.get(ctx.dialect, ())):
        if ctx.dialect == "lsf" and item.value.strip("\"'").endswith("/"):
            continue  # a directory bsub makes itself
        d = _directory(item.value.strip("\"'"))
        if d is not None and "$" not in d:
            yield item, d


@rule("SCHED008", "output-directory-missing", topic="scheduler", severity="error",
      scope="Slurm, PBS and LSF scripts whose output or error file (-o/-e, --output/--error) "
      "is in a directory named per job (Slurm's %j, %A, %a, %N, %n, %t, %s; LSF's %J, %I), "
      "which cannot exist before the job starts, or in a directory the script makes with its "
      "own mkdir (too late: the scheduler opens the file first); a directory that may exist "
      "already is not reported", lowers_to=("warning", "info"),
      lowered="for LSF's per-job directory (warning: the job runs, its output is mailed or "
      "not stored) and for a directory the script makes itself (info: it may exist already "
      "from an earlier run or the repository, which lint cannot see; on PBS the job runs "
      "then, and its output is kept in PBS_HOME/undelivered on the execution host)",
      source=f"{_MEASURED}; {_PBS}; {_LSF}",
      fix="make the directory before submitting (mkdir -p logs; sbatch job.sh), or write the "
      "file to an existing directory (-o logs/%x-%j.out)",
      summary="the job's output file in a directory that does not exist when the job starts: "
      "Slurm fails the job before its first line, PBS and LSF lose the output")
def _missing_directory(ctx: Context) -> Iterator[Hit]:
    for item, d in _outputs(ctx):
        made = _made_by_script(ctx, d)
        pattern = _PER_JOB.get(ctx.dialect)
        per_job = pattern.search(d) if pattern else None
        if not per_job and made is None:
            continue
        how = (f"the directory {d}/ is named per job ({per_job.group(0)}), so it cannot "
               "exist before the job starts" if per_job else
               f"the script makes {d}/ itself (mkdir, line {made}), after the scheduler has "
               "opened the file: if it does not exist before the job,")
        if ctx.dialect == "slurm":
            effect = ("Slurm opens the output file before the script's first line and "
                      "creates no directory: the job fails at launch (JobLaunchFailure) and "
                      "never runs")
            source = _MEASURED
        elif ctx.dialect == "lsf":
            effect = ("LSF then mails the output or does not store it: the job runs, its "
                      "output is not in the file")
            source = _LSF
        else:
            effect = ("PBS copies the output there when the job ends and keeps it in "
                      "PBS_HOME/undelivered on the execution host when it cannot")
            source = _PBS
        severity = "info" if not per_job else "error" if ctx.dialect == "slurm" else \
            "warning"
        fix = (f"name the file per job, not the directory (e.g. {_flat(item.value)}), in a "
               "directory made before submitting" if per_job else
               f"make {d}/ before submitting (mkdir -p {d}; then submit)")
        sep = " " if how.endswith(",") else "; "
        yield Hit(item.line, f"{ctx.prefix} {item.key} {item.value}: {how}{sep}{effect}", fix,
                  source, severity)


def _flat(value: str) -> str:
    """logs/%j/errors/rank_%t.err as one file name per job in the first fixed directory:
    logs/%j-errors-rank_%t.err."""
    head, _, rest = value.partition("%")
    base = head.rsplit("/", 1)[0] if "/" in head else ""
    tail = value[len(base) + 1 if base else 0:]
    return f"{base}/{tail.replace('/', '-')}" if base else tail.replace("/", "-")
