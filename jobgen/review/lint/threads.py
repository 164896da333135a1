"""OpenMP threads of a Slurm task that has one CPU: the threads share it.

Slurm gives each task one CPU unless --cpus-per-task says otherwise (sbatch(1) -c,
--cpus-per-task: "Without this option, the controller will just try to allocate one processor
per task"); the step's tasks run on the CPUs the step was given (where the site confines or
binds them to it, as LUMI's full-node partitions bind: lumi-userguide distribution-binding.md
L57-66). OMP_NUM_THREADS (or a program's own thread count) above that count puts every
thread on the same CPU. The LUMI user guide gives a hybrid task its cores with --cpus-per-task and
sets OMP_NUM_THREADS from it (Lumi-supercomputer/lumi-userguide @ 6c3a26c0
docs/runjobs/scheduled-jobs/lumic-job.md L82-98: `#SBATCH --cpus-per-task=8`, `export
OMP_NUM_THREADS=$SLURM_CPUS_PER_TASK`). Since Slurm 22.05 srun no longer takes the job's
--cpus-per-task (sbatch(1) NOTE: "Beginning with 22.05, srun will not inherit the
--cpus-per-task value requested by salloc or sbatch. It must be requested again with the call
to srun or set with the SRUN_CPUS_PER_TASK environment variable"); Slurm 23.11 walked it back
(srun reads SLURM_CPUS_PER_TASK again: SchedMD slurm-23.11 RELEASE_NOTES, as quoted in
ULHPC/ulhpc-docs#51 and scalableminds/webknossos-libs#1483; the release notes themselves not
read here), so on the release a site runs now that case is a note.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .context import Context, LaunchView
from .core import Hit, as_int, rule

_SOURCE = ("sbatch(1)/srun(1) -c, --cpus-per-task (without it, one processor per task; NOTE: "
           "beginning with 22.05, srun does not inherit --cpus-per-task from sbatch: give it "
           "to srun or set SRUN_CPUS_PER_TASK; walked back in 23.11, ULHPC/ulhpc-docs#51); "
           "Lumi-supercomputer/lumi-userguide @ 6c3a26c0 "
           "docs/runjobs/scheduled-jobs/lumic-job.md L82-98 (--cpus-per-task per hybrid task, "
           "OMP_NUM_THREADS=$SLURM_CPUS_PER_TASK); Lumi-supercomputer/LUMI-AI-Guide @ a7e3387 "
           "03-file-formats/README.md L80-81 (DataLoader workers equal to the CPUs requested)")
# a variable of the script that carries srun options giving each task its CPUs (SRUN_OPTS=
# "--cpu-bind=mask_cpu:..." passed to an srun lint cannot see)
_CPU_OPTIONS = re.compile(r"--cpu[-_]bind|--cpus-per-task|(?:^|\s)-c\s*[0-9$]")


# A program's own threads or data-loading worker processes, from its arguments
# (`--num_workers 7`, `--threads=8`, Hydra's `data.num_workers=8`): the LUMI AI guide sets
# the DataLoader's workers "equal to the number of CPUs requested in the allocation"
# (Lumi-supercomputer/LUMI-AI-Guide @ a7e3387 03-file-formats/README.md L80-81)
_THREAD_NAMES = r"(?:num[-_]?workers|workers|n(?:um)?[-_]?threads|threads)"
_PROGRAM_THREADS = re.compile(rf"(?i)^(?:--?{_THREAD_NAMES}(?:=([0-9]{{1,4}}))?|"
                              rf"(?:[\w]+\.)*{_THREAD_NAMES}=([0-9]{{1,4}}))$")


def _threads(env: dict[str, str], program: list[str] | None = None) -> tuple[int, str] | None:
    """(count, what) of the threads or workers each task runs beside its main thread: the
    larger of OMP_NUM_THREADS and the program's own argument; None for one."""
    found = []
    n = as_int(env.get("OMP_NUM_THREADS"))
    if n:
        found.append((n, f"OMP_NUM_THREADS={n}"))
    words = program or []
    for i, w in enumerate(words[1:], 1):
        m = _PROGRAM_THREADS.match(w)
        if not m:
            continue
        value = m.group(1) or m.group(2) or (words[i + 1] if i + 1 < len(words) and
                                             w.startswith("-") and "=" not in w else "")
        k = as_int(value)
        if k:
            found.append((k, f"{w.split('=', 1)[0]} {k}"))
    best = max(found, default=None)
    return best if best and best[0] > 1 else None


def _cpus_given(ctx: Context, launch: LaunchView | None) -> bool:
    """The tasks get their CPUs some way lint trusts: srun -c, SRUN_CPUS_PER_TASK, an explicit
    CPU list or mask, no binding at all (`--cpu-bind=none`: the threads float over the job's
    CPUs), or a variable carrying such options to an srun lint cannot see."""
    names = set(launch.env) if launch else {s.name for s in ctx.script.settings}
    if names & {"SRUN_CPUS_PER_TASK", "SLURM_CPU_BIND", "SLURM_CPUS_PER_TASK"}:
        return True
    if launch is not None:
        if launch.flag("-c", "--cpus-per-task", "--cpus-per-gpu") is not None:
            return True
        if launch.bind is not None:
            return True
        return False
    return any(_CPU_OPTIONS.search(v or "") for v in ctx.script.variables.values())


@rule("CPU011", "threads-on-one-cpu", topic="placement", severity="warning",
      scope="jsrun launches whose resource sets get one core per task (no -c, the default 1, "
      "or -c equal to -a) and whose program runs more threads or workers than the core's "
      "hardware threads (the job's -alloc_flags smtN, Summit's default smt4); "
      "Slurm srun launches (and Slurm jobs whose srun lint cannot see, by their "
      "directives) that export OMP_NUM_THREADS above 1, or run a program given more threads "
      "or data-loading workers (--num_workers 7, --threads 8), while each task gets one CPU: no "
      "--cpus-per-task on srun or in the job, no SRUN_CPUS_PER_TASK, no CPU list or mask",
      lowers_to=("info",),
      lowered="where the job asks --cpus-per-task but srun does not (Slurm 22.05 to 23.02 do "
      "not pass it on; 23.11 does again), and for a job whose srun lint cannot see on nodes "
      "it has whole (the hidden launch may bind each task to several cores)",
      source=_SOURCE,
      fix="give each task its cores: srun --cpus-per-task=N (or #SBATCH --cpus-per-task=N with "
      "export SRUN_CPUS_PER_TASK=$SLURM_CPUS_PER_TASK), and OMP_NUM_THREADS=N",
      summary="OpenMP threads (or a program's threads or workers) on a task of one CPU (a "
      "Slurm task, a jsrun resource set's task): they share one core")
def _threads_on_one_cpu(ctx: Context) -> Iterator[Hit]:
    yield from _jsrun_one_core(ctx)
    if ctx.dialect != "slurm" or ctx.find("--cpus-per-gpu"):
        return  # CPUs given by the devices: what srun's tasks get is not read here
    job_cpus = ctx.find("--cpus-per-task", "-c")
    sruns = [la for la in ctx.launches if la.dialect == "srun" and not la.shell]
    for launch in sruns:
        counted = _threads(launch.env, launch.program)
        if counted is None or _cpus_given(ctx, launch):
            continue
        threads, what = counted
        if job_cpus:
            yield Hit(launch.line, f"{what} but srun is not given "
                      f"--cpus-per-task: Slurm 22.05 to 23.02 do not pass the job's "
                      f"--cpus-per-task={job_cpus[0].value} on to srun (23.11 does again), so "
                      "there each task gets one CPU and its threads share it",
                      "add --cpus-per-task to srun, or export "
                      "SRUN_CPUS_PER_TASK=$SLURM_CPUS_PER_TASK", severity="info")
        else:
            yield Hit(launch.line, f"{what} but no --cpus-per-task: Slurm gives each task "
                      f"one CPU, so the {threads} threads (or workers) of each task share "
                      "one core",
                      f"srun --cpus-per-task={threads} (and #SBATCH --cpus-per-task="
                      f"{threads})")
    if sruns or not ctx.whole or job_cpus:
        return
    tasks = ctx.find("--ntasks-per-node", "--tasks-per-node", "--ntasks", "-n")
    exported = ctx.script.exported()
    omp = exported.get("OMP_NUM_THREADS")
    threads = as_int(omp.value) if omp is not None and omp.action == "set" else None
    if not tasks or threads is None or threads < 2 or _cpus_given(ctx, None):
        return
    shared = ctx.partition.allocation == "shared"
    yield Hit(omp.line, f"OMP_NUM_THREADS={threads} but the job asks no --cpus-per-task: "
              "Slurm gives each task one CPU" + (
                  ", so the threads of each task share one core" if shared else
                  "; the srun that runs the tasks is not in this script, so unless it binds "
                  "each task to several cores, the threads share one"),
              f"#SBATCH --cpus-per-task={threads} and export SRUN_CPUS_PER_TASK="
              "$SLURM_CPUS_PER_TASK", severity=None if shared else "info")


_JSRUN_CORES = ("olcf/olcf-user-docs @ 2745903 systems/summit_user_guide.rst L1537-1538 (\"The -c "
                "flag should be used to request the needed cores for tasks and treads [sic]. The "
                "default -c core count is 1\"), L1463 (-b defaults to packed:1)")


def _smt_level(ctx: Context) -> int:
    """Hardware threads per core the job's cores run: `-alloc_flags smtN`, Summit's default 4
    (olcf/olcf-user-docs @ 2745903 systems/summit_user_guide.rst L1723-1749: "Each physical
    core on Summit contains 4 hardware threads ... the default is smt4"; with smt4 a task of
    one core has OMP_PLACES {0:4}). Round 16, after heldout-2026-11-28p's E3SM POWER9 run
    (OMP_NUM_THREADS=4 on one core per task under smt4: tuned on it)."""
    for item in ctx.find("-alloc_flags"):
        m = re.search(r"\bsmt([124])\b", item.value, re.I)
        if m:
            return int(m.group(1))
    return 4


def _jsrun_one_core(ctx: Context) -> Iterator[Hit]:
    """A jsrun whose tasks get one core each (the resource set's -c, 1 by default, over its
    -a tasks) running a program with more threads or workers (`fairseq-preprocess
    --workers 60`, OMP_NUM_THREADS=8): they share that core. Round 13, after the blind run of
    heldout-2026-11-27m (tuned on it)."""
    for launch in ctx.launches:
        if launch.dialect != "jsrun" or launch.shell:
            continue
        a = as_int(launch.flag("-a", "--tasks_per_rs") or "1")
        c = as_int(launch.flag("-c", "--cpu_per_rs") or "1")
        counted = _threads(launch.env, launch.program)
        if not a or not c or counted is None or c // a > 1 or \
                (launch.flag("-b", "--bind") or "").lower() == "none":
            continue
        threads, what = counted
        # OpenMP's count includes the main thread; a program's workers run beside its main
        # process (--num_workers 4: five processes)
        total = threads if what.startswith("OMP_NUM_THREADS") else threads + 1
        if total <= _smt_level(ctx):
            continue  # one thread per hardware thread of the task's core (smt4: {0:4})
        cores = max(min(threads * a, ctx.node.usable_cores), a)
        yield Hit(launch.line, f"{what} but each task of the resource set has one core "
                  f"(-c {c} for -a {a}; jsrun's default -c is 1), so its {threads} threads (or "
                  "workers) share it", f"give each resource set the cores: -c {cores} "
                  f"-b packed:{cores // a}", _JSRUN_CORES)
