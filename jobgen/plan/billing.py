"""The bill: what a job will be charged at most, in the site's own unit, and the rule's source.

A site profile's `scheduler.billing` states the rule (jobgen.profiles.model.Billing): whole-node
queues charge `per_node_hour` units for every node-hour (ALCF and OLCF node-hours, LUMI
standard-g's 4 GPU-hours); partitions allocated by resources (LUMI small-g, dev-g) charge
`rate` per slice-hour, a slice being the largest of the cores, memory and devices the job
takes, each in the site's slice size. "At most" because the charge counts the time the job
runs and the bill counts the walltime it asks for.

The resources are read from the plan's own scheduler directives, so the bill is for what the
script asks the scheduler, not for what jobgen meant to ask. A second figure says what the
ranks use, and a warning says when the bill is higher than the work needs (idle devices on a
partition billed by resource, a partial node on a whole-node queue).
"""

from __future__ import annotations

import math
import re

from ..frozen import Frozen

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:
    from typing import Any

# Slurm memory sizes: a number and an optional unit, megabytes when none (sbatch(1) --mem).
_SIZE = re.compile(r"(\d{1,12})([KMGT]?)B?", re.IGNORECASE)
_MB_PER = {"K": 1 / 1024, "M": 1, "G": 1024, "T": 1024 * 1024, "": 1}


class Resources(Frozen):
    """What a job takes on each node, as the scheduler will allocate it."""

    cores: int
    devices: int
    memory_gb: float | None  # None: not asked for (the partition's default)
    whole_node: bool


class Bill(Frozen):
    """The most a job can be charged, and how that follows from the site's rule."""

    unit: str
    amount: float  # at most: for the whole walltime asked for
    per_hour: float
    rule: str  # the arithmetic, with this job's numbers
    why: str
    source: str
    unconfirmed: str | None = None
    needed_per_hour: float | None = None  # what the devices the ranks use would cost
    waste: str | None = None  # a warning when the bill is higher than the work needs

    @property
    def line(self) -> str:
        return f"at most {number(self.amount)} {self.unit} ({self.rule})"


def number(value: float) -> str:
    """A bill's figure: whole numbers bare, others to two decimals (0.5, 1.33, 384)."""
    if value == int(value):
        return f"{int(value):,}"
    return f"{value:,.2f}".rstrip("0").rstrip(".")


def slice_units(cores: int, memory_gb: float | None, devices: int, cores_per_slice: int,
                memory_gb_per_slice: int) -> int:
    """Slices of one node's allocation: max(ceil(cores / c), ceil(memory / m), devices)."""
    parts = [math.ceil(cores / cores_per_slice), devices]
    if memory_gb is not None:
        parts.append(math.ceil(memory_gb / memory_gb_per_slice))
    return max(parts)


def _megabytes(value: str) -> float | None:
    m = _SIZE.fullmatch(value.strip())
    return int(m.group(1)) * _MB_PER[m.group(2).upper()] if m else None


def requested(directives: list[str], node_cores: int, node_devices: int) -> Resources:
    """Per-node resources from a Slurm script's #SBATCH lines (sbatch(1) semantics: --mem is
    per node, --mem-per-gpu per GPU, --mem-per-cpu per allocated CPU; --exclusive gives the
    job every core and the whole memory of its nodes)."""
    opts: dict[str, str] = {}
    for line in directives:
        if not line.startswith("#SBATCH "):
            continue
        word = line[len("#SBATCH "):].strip()
        name, _, value = word.partition("=")
        opts[name] = value
    exclusive = "--exclusive" in opts
    devices = _int(opts.get("--gpus-per-node")) or 0
    tasks = _int(opts.get("--ntasks-per-node")) or 1
    cores = tasks * (_int(opts.get("--cpus-per-task")) or 1)
    if exclusive:
        cores, devices = node_cores, node_devices
    memory_mb = None
    if "--mem" in opts:
        memory_mb = _megabytes(opts["--mem"])
    elif "--mem-per-gpu" in opts and devices:
        per = _megabytes(opts["--mem-per-gpu"])
        memory_mb = per * devices if per is not None else None
    elif "--mem-per-cpu" in opts:
        per = _megabytes(opts["--mem-per-cpu"])
        memory_mb = per * cores if per is not None else None
    memory_gb = None if memory_mb is None else memory_mb / 1024
    return Resources(cores=cores, devices=devices, memory_gb=memory_gb, whole_node=exclusive)


def _int(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() and len(value) < 10 else None


def devices_used(plan: Any, total: int) -> int:
    """The devices of one node that the ranks use (several ranks may share one)."""
    if not total:
        return 0
    per_device = max(plan.ranks_per_device, 1)
    return min(total, math.ceil(plan.ranks_per_node / per_device))


def bill_for(profile: Any, plan: Any) -> Bill | None:
    """The plan's bill under the profile's rule; None where the site states no rule."""
    rule = profile.scheduler.billing
    if rule is None:
        return None
    hours = plan.walltime / 3600
    total = profile.devices_per_node
    used = devices_used(plan, total)
    slices = rule.slices
    if slices is not None and plan.queue in slices.partitions:
        return _by_resource(profile, plan, rule, hours, used, total)
    per_hour = rule.per_node_hour * plan.nodes
    waste = None
    if total and used < total:
        waste = (f"the ranks use {used} of the {total} {_device_word(profile)}s of each node, "
                 f"but queue {plan.queue or 'default'} bills whole nodes: "
                 f"{number(per_hour * hours)} {rule.unit} for the work of "
                 f"{number(per_hour * hours * used / total)}")
        if slices is not None:
            waste += (f"; partitions {', '.join(slices.partitions)} bill by resource "
                      "(--queue)")
    return Bill(unit=rule.unit, amount=per_hour * hours, per_hour=per_hour,
                rule=(f"{plan.nodes} node{'s' if plan.nodes != 1 else ''} x {_hours(hours)}"
                      + ("" if rule.unit == "node-hours" and rule.per_node_hour == 1 else
                         f" x {number(rule.per_node_hour)} {rule.unit} per node-hour")),
                why=rule.why, source=rule.source, unconfirmed=rule.unconfirmed,
                needed_per_hour=(per_hour * used / total) if total else None, waste=waste)


def _by_resource(profile: Any, plan: Any, rule: Any, hours: float, used: int,
                 total: int) -> Bill:
    slices = rule.slices
    cores = profile.node.sockets * profile.node.cores_per_socket
    res = requested([f.text for f in plan.directives], cores, total)
    units = slice_units(res.cores, res.memory_gb, res.devices, slices.cores_per_slice,
                        slices.memory_gb_per_slice)
    per_hour = slices.rate * units * plan.nodes
    needed = slices.rate * used * plan.nodes if total else per_hour
    terms = [f"ceil({res.cores} cores / {slices.cores_per_slice})",
             f"{res.devices} {_device_word(profile)}s"]
    if res.memory_gb is not None:
        terms.insert(1, f"ceil({number(round(res.memory_gb, 2))} GB / "
                        f"{slices.memory_gb_per_slice} GB)")
    rule_text = (f"{number(slices.rate)} x max({', '.join(terms)}) = {number(slices.rate)} x "
                 f"{units} per node x {plan.nodes} node{'s' if plan.nodes != 1 else ''} x "
                 f"{_hours(hours)}")
    if res.whole_node:
        rule_text += " (--exclusive: the whole node)"
    waste = None
    if used and per_hour > needed:
        word = _device_word(profile)
        waste = (f"the ranks use {used} {word}{'s' if used != 1 else ''} per node, but the job "
                 f"is billed for {units} {word}-slices per node"
                 f"{' (--exclusive takes the whole node)' if res.whole_node else ''}: "
                 f"{number(per_hour * hours)} {rule.unit} for the work of "
                 f"{number(needed * hours)}")
    unconfirmed = slices.unconfirmed
    if res.memory_gb is None and not res.whole_node:
        unconfirmed = ((unconfirmed + "; ") if unconfirmed else "") + (
            "the script asks for no memory: the partition's default memory may add slices")
    return Bill(unit=rule.unit, amount=per_hour * hours, per_hour=per_hour, rule=rule_text,
                why=slices.why, source=slices.source, unconfirmed=unconfirmed,
                needed_per_hour=needed, waste=waste)


def _device_word(profile: Any) -> str:
    gpus = profile.node.gpus
    if gpus is None:
        return "device"
    return {"gcd": "GCD", "tile": "tile"}.get(gpus.subdevice_name or "", "GPU")


def _hours(hours: float) -> str:
    return f"{number(round(hours, 4))} h"


def sweep_bill(bills: list[tuple[Bill, int]]) -> str | None:
    """The most a set of jobs is charged (a sweep's points x repeats, a chain's links)."""
    if not bills:
        return None
    unit = bills[0][0].unit
    runs = sum(n for _, n in bills)
    total = sum(b.amount * n for b, n in bills)
    largest = max(b.amount for b, _ in bills)
    return (f"at most {number(total)} {unit} for {runs} job{'s' if runs != 1 else ''} "
            f"(the largest {number(largest)}; each job's rule in `jobgen explain`)")
