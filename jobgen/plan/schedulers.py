"""Scheduler dialects: queue choice and the directive lines each dialect needs.

One function per dialect, registered by name (no `if dialect == ...` chains); each returns
fully formatted directive lines as sourced facts, so templates only loop over them.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import JobgenError, nodes_word
from ..frozen import Frozen
from ..profiles.facts import Fact
from ..profiles.walltime import hms, lsf_minutes, parse_walltime
from ..registry import Registry

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:  # the render path reads profiles as records (jobgen.profiles.records)
    from ..profiles.model import Flag, Profile, Queue


class JobShape(Frozen):
    """The scheduler-facing part of a plan, all of it validated."""

    nodes: int
    ranks_per_node: int
    cpus_per_rank: int
    gpus_per_node: int
    walltime: int  # seconds
    queue: Queue | None
    account: str | None
    job_name: str
    filesystems: tuple[str, ...]
    alloc_flags: tuple[Flag, ...] = ()  # added by the plan (LSF gpumps, NVME), with why
    requeue: int = 0
    queue_reason: str = ""  # why this queue (QueueChoice.reason)
    # Ask the scheduler for its warning signal before the time limit: only when the program
    # handles it (bundled apps, --requeue, --checkpoint-dir); otherwise it would just end early.
    warn: bool = False
    # On a queue allocated by resource, the job uses fewer devices than its nodes have:
    # gpus_per_node is what it uses, and the queue's full-node directives are left out.
    partial: bool = False
    lead: int = 0  # the warning's lead in seconds (--stop-lead); 0: the profile's


class QueueChoice(Frozen):
    """The queue of a plan and why: the reason is a plan note, the warning a plan warning."""

    queue: Queue | None
    reason: str = ""
    warning: str | None = None


DirectiveFn = Callable[["Profile", JobShape], list[Fact]]
DIALECTS: Registry[DirectiveFn] = Registry()
dialect = DIALECTS.register
PREFIX = {"pbs": "#PBS", "slurm": "#SBATCH", "lsf": "#BSUB", "cobalt": "#COBALT", "none": ""}


def walltime_limit(queue: Queue, nodes: int) -> int | None:
    for lim in queue.walltime_limits:
        if nodes <= lim.max_nodes:
            return parse_walltime(lim.max_walltime)
    return parse_walltime(queue.max_walltime) if queue.max_walltime else None


def _fits(queue: Queue, nodes: int, walltime: int) -> str | None:
    """Why the queue cannot take the job, or None when it can."""
    if nodes < queue.min_nodes or (queue.max_nodes is not None and nodes > queue.max_nodes):
        top = queue.max_nodes if queue.max_nodes is not None else "?"
        return f"queue {queue.name} takes {queue.min_nodes}-{top} nodes, not {nodes}"
    limit = walltime_limit(queue, nodes)
    if limit is not None and walltime > limit:
        return (
            f"queue {queue.name} allows at most {hms(limit)} for {nodes_word(nodes)}, "
            f"not {hms(walltime)}"
        )
    floor = parse_walltime(queue.min_walltime) if queue.min_walltime else 0
    if walltime < floor:
        return f"queue {queue.name} needs a walltime of at least {hms(floor)}, not {hms(walltime)}"
    return None


def _below_minimum(queues: list[Queue], nodes: int, walltime: int) -> str | None:
    """The one-line refusal when the walltime is under the minimum of every queue that would
    take the job otherwise (qsub refuses such jobs)."""
    floors = [parse_walltime(q.min_walltime) for q in queues
              if q.min_walltime and _fits(q, nodes, parse_walltime(q.min_walltime)) is None]
    if not floors or walltime >= min(floors):
        return None
    return (f"--walltime {hms(walltime)} is under the {hms(min(floors))} minimum of the queues "
            f"that take {nodes_word(nodes)}: use --walltime {hms(min(floors))} or more")


def _limits(queue: Queue, nodes: int) -> str:
    limit = walltime_limit(queue, nodes)
    return (f"{queue.name}: {queue.min_nodes}-{queue.max_nodes or '?'} nodes, "
            + (f"{queue.min_walltime}-" if queue.min_walltime else "")
            + (hms(limit) if limit else "unknown walltime limit"))


def _by_request(profile: Profile) -> str:
    """The queues jobgen never picks by itself, for the messages that send users to them."""
    named = [f"{_limits(q, q.min_nodes)}" + (f" ({q.notes})" if q.notes else "")
             for q in profile.scheduler.queues if q.purpose == "by_request"]
    return f"; by request only (name one with --queue): {'; '.join(named)}" if named else ""


def _requested(profile: Profile, nodes: int, walltime: int, name: str) -> QueueChoice:
    queue = next((q for q in profile.scheduler.queues if q.name == name), None)
    if queue is None:
        names = ", ".join(q.name for q in profile.scheduler.queues)
        raise JobgenError(f"unknown queue {name!r} on {profile.name}: use one of {names}")
    problem = _fits(queue, nodes, walltime)
    if problem:
        raise JobgenError(f"{problem}: change --nodes/--walltime or pick another --queue")
    return QueueChoice(queue, f"queue {queue.name}: requested with --queue")


# The job's id as the batch script reads it: PBS's is NNN.server, of which the number is kept.
JOB_ID = {"slurm": "$SLURM_JOB_ID", "pbs": "${PBS_JOBID%%.*}", "lsf": "$LSB_JOBID",
          "cobalt": "$COBALT_JOBID", "none": "$$"}


def choose_queue(profile: Profile, nodes: int, walltime: int, name: str | None) -> QueueChoice:
    """The requested queue, else the first production queue that fits; a debug queue only
    when no production queue fits, with a warning; by-request queues only when named."""
    sched = profile.scheduler
    if sched.dialect == "none":
        if name:
            raise JobgenError(f"site {profile.name} has no scheduler, so no queue: drop --queue")
        return QueueChoice(None)
    if name:
        return _requested(profile, nodes, walltime, name)
    shape = f"{nodes_word(nodes)} for {hms(walltime)}"
    for queue in sched.queues:
        if queue.purpose == "production" and _fits(queue, nodes, walltime) is None:
            return QueueChoice(queue, f"queue {queue.name}: the first production queue that "
                               f"takes {shape}")
    for queue in sched.queues:
        if queue.purpose == "debug" and _fits(queue, nodes, walltime) is None:
            why = f"queue {queue.name}: no production queue takes {shape}"
            return QueueChoice(queue, why, f"queue {queue.name} is for debugging and tests, "
                               "not production runs: for a production run change "
                               f"--nodes/--walltime{_by_request(profile)}")
    short = _below_minimum([q for q in sched.queues if q.purpose != "by_request"], nodes,
                           walltime)
    if short:
        raise JobgenError(short)
    largest = max((q.max_nodes or 0) for q in sched.queues)
    if largest and nodes > largest:
        machine = profile.machine
        route = machine.full_machine if machine else None
        beyond = (f"{route.route} ({route.why}; {route.source}), or use fewer --nodes"
                  if route else "use fewer --nodes")
        raise JobgenError(f"{nodes} nodes exceed every queue on {profile.name} (the largest "
                          f"takes {largest}): {beyond}")
    limits = "; ".join(_limits(q, nodes) for q in sched.queues if q.purpose != "by_request")
    raise JobgenError(
        f"no queue on {profile.name} takes {shape} ({limits}): change --nodes or --walltime"
        f"{_by_request(profile)}"
    )


def _sched_fact(profile: Profile, text: str, why: str) -> Fact:
    s = profile.scheduler
    return Fact(text, why, s.source, "profile", s.unconfirmed)


def _queue_fact(shape: JobShape, line: str) -> list[Fact]:
    """The queue directive, `line` formatted with the queue name, and the directives the queue
    itself needs; none without a queue."""
    q = shape.queue
    if q is None:
        return []
    prefix = line.split()[0]
    return [Fact(line.format(q.name), f"{shape.queue_reason or q.name} ({q.why})", q.source,
                 "plan", q.unconfirmed)] + [
        Fact(f"{prefix} {d.value}", f"queue {q.name}: {d.why}", d.source, "profile",
             d.unconfirmed)
        for d in (() if shape.partial else q.directives)
    ]


def _fixed(profile: Profile, prefix: str) -> list[Fact]:
    return [
        Fact(f"{prefix} {d.value}", d.why, d.source, "profile", d.unconfirmed)
        for d in profile.scheduler.directives
    ]


def _lead_layer(shape: JobShape, pre: object) -> str:
    """Who set the warning's lead: --stop-lead, else the profile."""
    return "command line" if shape.lead and shape.lead != getattr(pre, "lead_seconds", 0) \
        else "profile"


@dialect("pbs")
def _pbs(profile: Profile, shape: JobShape) -> list[Fact]:
    s = profile.scheduler
    out = []
    if shape.account:
        out.append(_sched_fact(profile, f"#PBS -A {shape.account}", "project to charge"))
    out.append(_sched_fact(profile, f"#PBS -N {shape.job_name}", "job name"))
    out += _queue_fact(shape, "#PBS -q {}")
    select = f"select={shape.nodes}" + (f":system={s.system_resource}" if s.system_resource else "")
    out.append(_sched_fact(profile, f"#PBS -l {select}", "whole nodes for the job"))
    out.append(_sched_fact(profile, f"#PBS -l walltime={hms(shape.walltime)}", "wall-clock limit"))
    if s.filesystems:
        fs = s.filesystems
        out.append(
            Fact(f"#PBS -l filesystems={':'.join(shape.filesystems)}", fs.why, fs.source,
                 "profile", fs.unconfirmed)
        )
    pre = profile.scheduler.preemption
    if shape.requeue and pre is not None and pre.requeue == "rerunnable":
        out.append(Fact("#PBS -r y", f"rerunnable: the scheduler reruns it after preemption "
                        f"({pre.why})", pre.source, "command line", pre.unconfirmed))
    return out + _fixed(profile, "#PBS")


@dialect("slurm")
def _slurm(profile: Profile, shape: JobShape) -> list[Fact]:
    out = []
    if shape.account:
        out.append(_sched_fact(profile, f"#SBATCH --account={shape.account}", "project to charge"))
    out.append(_sched_fact(profile, f"#SBATCH --job-name={shape.job_name}", "job name"))
    out += _queue_fact(shape, "#SBATCH --partition={}")
    out.append(_sched_fact(profile, f"#SBATCH --nodes={shape.nodes}", "whole nodes for the job"))
    out.append(_sched_fact(profile, f"#SBATCH --ntasks-per-node={shape.ranks_per_node}",
                           "one task per rank"))
    by = shape.queue.by_resource if shape.queue else None
    if profile.scheduler.gpus_per_node_directive and shape.gpus_per_node and shape.partial \
            and by is not None:
        out.append(Fact(f"#SBATCH --gpus-per-node={shape.gpus_per_node}",
                        f"the {shape.gpus_per_node} devices per node the ranks use: "
                        f"{by.why}", by.source, "plan",
                        by.unconfirmed))
    elif profile.scheduler.gpus_per_node_directive and shape.gpus_per_node:
        out.append(_sched_fact(profile, f"#SBATCH --gpus-per-node={shape.gpus_per_node}",
                               "every GPU device of each node"))
    if shape.cpus_per_rank:
        b = profile.cpu_binding
        out.append(Fact(f"#SBATCH --cpus-per-task={shape.cpus_per_rank}",
                        "each rank's share of the cores of the devices it uses (the scheduler "
                        "picks which cores)" if shape.partial else
                        "the cores each rank is bound to (within the usable cores)", b.source,
                        "plan", b.unconfirmed))
    out.append(_sched_fact(profile, f"#SBATCH --time={hms(shape.walltime)}", "wall-clock limit"))
    pre = profile.scheduler.preemption
    if pre is not None and pre.lead_seconds and shape.warn:
        lead = shape.lead or pre.lead_seconds
        out.append(Fact(f"#SBATCH --signal=B:{pre.signal}@{lead}",
                        f"warn the batch shell {lead} s before the end so the ranks "
                        f"checkpoint: {pre.why}", pre.source, _lead_layer(shape, pre),
                        pre.unconfirmed))
    if pre is not None and shape.requeue:
        out.append(Fact("#SBATCH --requeue", "the job may go back to the queue",
                        pre.source, "command line", pre.unconfirmed))
        if not any(d.value == "--open-mode=append" for d in profile.scheduler.directives):
            out.append(Fact("#SBATCH --open-mode=append", "a requeued run appends to the "
                            "output file instead of truncating it", pre.source, "command line"))
    return out + _fixed(profile, "#SBATCH")


@dialect("lsf")
def _lsf(profile: Profile, shape: JobShape) -> list[Fact]:
    s = profile.scheduler
    out = []
    if shape.account:
        out.append(_sched_fact(profile, f"#BSUB -P {shape.account}", "project to charge"))
    out.append(_sched_fact(profile, f"#BSUB -J {shape.job_name}", "job name"))
    out += _queue_fact(shape, "#BSUB -q {}")
    out.append(_sched_fact(profile, f"#BSUB -nnodes {shape.nodes}", "whole nodes (single hyphen)"))
    out.append(_sched_fact(profile, f"#BSUB -W {lsf_minutes(shape.walltime)}",
                           "wall-clock limit in [hours:]minutes, not HH:MM:SS"))
    flags = [*s.alloc_flags, *shape.alloc_flags]
    if flags:
        why = "; ".join(f"{f.value}: {f.why}" for f in flags)
        sources = "; ".join(dict.fromkeys(f.source for f in flags))
        out.append(Fact(f'#BSUB -alloc_flags "{" ".join(f.value for f in flags)}"',
                        f"one -alloc_flags line ({why})", sources))
    pre = profile.scheduler.preemption
    if pre is not None and pre.lead_seconds and shape.warn:
        out.append(Fact(f"#BSUB -wa {pre.signal}", f"warning action: send SIG{pre.signal} so the "
                        f"ranks checkpoint ({pre.why})", pre.source, "profile", pre.unconfirmed))
        lead = shape.lead or pre.lead_seconds
        out.append(Fact(f"#BSUB -wt {-(-lead // 60)}", "warning time in minutes "
                        "before the job's end", pre.source, _lead_layer(shape, pre),
                        pre.unconfirmed))
    if pre is not None and shape.requeue and pre.requeue in ("rerunnable", "brequeue"):
        out.append(Fact("#BSUB -r", "rerunnable: LSF reruns it after preemption", pre.source,
                        "command line", pre.unconfirmed))
    out.append(_sched_fact(profile, f"#BSUB -o {shape.job_name}.%J.out", "standard output file"))
    out.append(_sched_fact(profile, f"#BSUB -e {shape.job_name}.%J.err", "standard error file"))
    return out + _fixed(profile, "#BSUB")


@dialect("cobalt")
def _cobalt(profile: Profile, shape: JobShape) -> list[Fact]:
    out = []
    if shape.account:
        out.append(_sched_fact(profile, f"#COBALT -A {shape.account}", "project to charge"))
    out.append(_sched_fact(profile, f"#COBALT --jobname {shape.job_name}", "job name"))
    out += _queue_fact(shape, "#COBALT -q {}")
    out.append(_sched_fact(profile, f"#COBALT -n {shape.nodes}", "nodes for the job"))
    out.append(_sched_fact(profile, f"#COBALT -t {hms(shape.walltime)}", "wall-clock limit"))
    out.append(_sched_fact(profile, f"#COBALT -O {shape.job_name}", "output file prefix"))
    return out + _fixed(profile, "#COBALT")


@dialect("none")
def _none(profile: Profile, shape: JobShape) -> list[Fact]:
    return []
