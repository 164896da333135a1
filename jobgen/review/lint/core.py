"""The rule registry, the findings, and the script read against one profile (`Context`).

Every rule declares what it is about (its topic), how bad a hit is (severity), which scripts
it applies to (scope, decided from the script by `scope.py`), the documentation that says so
(source) and the usual fix. A rule's check reads the `Context` and yields `Hit`s; the registry
turns them into `Finding`s carrying the rule's id, severity and source.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ...errors import JobgenError
from ...plan.schedulers import PREFIX
from ...profiles.cpus import logical_cpus
from ...profiles.model import PartitionFamily, Profile, Queue
from ..scriptparse import Directive, Script, directive_items
from .scope import LaunchView, is_job_script, is_placeholder, placeholders, script_kind

SEVERITIES = ("info", "warning", "error")
TOPICS = ("scheduler", "queue", "placement", "devices", "environment", "containers", "storage")


@dataclass(frozen=True)
class Finding:
    line: int
    rule: str
    name: str
    severity: str
    message: str
    fix: str
    source: str

    def format(self, path: str) -> str:
        return (f"{path}:{self.line}: {self.rule} {self.name} ({self.severity}): {self.message} "
                f"(fix: {self.fix})")

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "rule": self.rule, "name": self.name,
                "severity": self.severity, "message": self.message, "fix": self.fix,
                "source": self.source}


@dataclass(frozen=True)
class Hit:
    """One problem a check found: where, what, and (when it differs from the rule's) the fix
    and the source of the fact it was held against."""

    line: int
    message: str
    fix: str | None = None
    source: str | None = None


Check = Callable[["Context"], Iterable[Hit]]
Facts = Callable[[Profile], list[str]]


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    topic: str
    severity: str
    scope: str  # which scripts it applies to, in words
    source: str  # the documentation that says so
    fix: str
    summary: str  # one line: what it catches
    check: Check
    facts: Facts | None = None  # the profile facts it reads, for `lint --explain`

    def run(self, ctx: Context) -> list[Finding]:
        return [Finding(h.line, self.id, self.name, self.severity, h.message,
                        h.fix or self.fix, h.source or self.source) for h in self.check(ctx)]


RULES: dict[str, Rule] = {}


def rule(rule_id: str, name: str, *, topic: str, severity: str, scope: str, source: str,
         fix: str, summary: str, facts: Facts | None = None) -> Callable[[Check], Check]:
    """Register a check as a rule; the decorated function stays callable as it was."""
    assert topic in TOPICS and severity in SEVERITIES and rule_id not in RULES, rule_id

    def register(check: Check) -> Check:
        RULES[rule_id] = Rule(rule_id, name, topic, severity, scope, source, fix, summary,
                              check, facts)
        return check

    return register


# ---------------------------------------------------------------- numbers read from text
_COUNT = re.compile(r"[0-9]{1,9}")


def as_int(value: str | None) -> int | None:
    """A count or index as written, or None when it is not a plain number of sane size."""
    return int(value) if value is not None and _COUNT.fullmatch(value) else None


@dataclass(frozen=True)
class Item:
    line: int
    key: str
    value: str


@dataclass(frozen=True)
class NodeFacts:
    """The node a script runs on: the profile's, or its partition family's."""

    sockets: int
    cores_per_socket: int
    threads_per_core: int
    smt_numbering: str
    devices: int
    reserved: frozenset[int]  # logical CPUs the OS keeps
    family: str | None = None

    @property
    def cores(self) -> int:
        return self.sockets * self.cores_per_socket

    @property
    def logical(self) -> int:
        return self.cores * self.threads_per_core

    def core_of(self, cpu: int) -> int:
        if self.smt_numbering == "blocked":
            return cpu % self.cores
        return cpu // self.threads_per_core


def _node_facts(profile: Profile, family: PartitionFamily | None) -> NodeFacts:
    node = profile.node
    if family is not None and family.node is not None:
        f = family.node
        cores = f.sockets * f.cores_per_socket
        reserved = logical_cpus(f.reserved_cores, cores, f.threads_per_core, "blocked", True)
        return NodeFacts(f.sockets, f.cores_per_socket, f.threads_per_core, "blocked",
                         f.devices, frozenset(reserved), family.name)
    cores = node.sockets * node.cores_per_socket
    reserved = logical_cpus(node.reserved.cores, cores, node.threads_per_core,
                            node.smt_numbering, True) if node.reserved else []
    return NodeFacts(node.sockets, node.cores_per_socket, node.threads_per_core,
                     node.smt_numbering, profile.devices_per_node, frozenset(reserved),
                     family.name if family else None)


@dataclass
class Partition:
    item: Item | None = None
    queue: Queue | None = None
    family: PartitionFamily | None = None
    allocation: str | None = None  # exclusive | shared, as the script asks or the partition is


class Context:
    """The script read against one profile, with what the rules share: the directives the
    scheduler reads, every launch, the partition and its node, what kind of script it is."""

    def __init__(self, script: Script, profile: Profile) -> None:
        self.script = script
        self.profile = profile
        self.dialect = profile.scheduler.dialect
        self.prefix = PREFIX[self.dialect]
        self.placeholders = placeholders(script)
        self.items = [Item(d.line, k, v) for d in self.own_directives() for k, v in
                      directive_items(d.body)]
        self.first_line = script.directives[0].line if script.directives else 1
        self.kind = script_kind(script, self.prefix)
        self.partition = self._partition()
        self.node = _node_facts(profile, self.partition.family)
        self.launches = [LaunchView(self, launch) for launch in script.launches]

    # ---------------------------------------------------------------- directives
    def own_directives(self) -> list[Directive]:
        """The directives the scheduler reads: its own prefix, before the first command."""
        return [d for d in self.script.block_directives if d.prefix == self.prefix]

    def find(self, *keys: str) -> list[Item]:
        return [i for i in self.items if i.key in keys]

    def value_ok(self, item: Item) -> bool:
        """False for a value that is a documentation placeholder or computed at run time."""
        return not is_placeholder(item.value) and "$" not in item.value

    @property
    def whole(self) -> bool:
        """A whole batch script (its #! line and its directives): its requirements apply.
        Not one whose guide elides directives (`#SBATCH ...`) or submits it with options on
        the command line (a `qsub -l ...` line in its comments)."""
        if self.kind != "batch" or any(d.body.strip() in ("...", "\u2026")
                                       for d in self.own_directives()):
            return False
        submit = {"pbs": "qsub", "slurm": "sbatch", "lsf": "bsub"}.get(self.dialect, "")
        return not re.search(rf"^#\s*{submit}\s+-", self.script.text, re.M) if submit else True

    @property
    def nodes(self) -> int | None:
        keys = {"pbs": ("-l select",), "slurm": ("--nodes", "-N"), "lsf": ("-nnodes",),
                "cobalt": ("-n", "--nodecount")}.get(self.dialect, ())
        for item in self.find(*keys):
            m = re.match(r"^([0-9]{1,9})(?:$|[:+])", item.value)
            if m:
                return int(m.group(1))
        return 1 if self.dialect == "none" else None

    def _partition(self) -> Partition:
        keys = {"slurm": ("--partition", "-p")}.get(self.dialect, ("-q",))
        found = [i for i in self.find(*keys) if self.value_ok(i)]
        if not found:
            return Partition()
        item = found[-1]
        queue = next((q for q in self.profile.scheduler.queues if q.name == item.value), None)
        family = next((f for f in self.profile.partition_families
                       if item.value in f.partitions), None)
        allocation = family.partitions[item.value] if family else None
        if self.find("--exclusive"):
            allocation = "exclusive"
        return Partition(item, queue, family, allocation)

    # ---------------------------------------------------------------- the program
    def modules_loaded(self, before: int | None = None) -> list[tuple[int, str]]:
        """(line, module) for every module a `module load` names, before a line if given."""
        out = []
        for line, text in self.script.modules:
            words = text.split()
            if before is not None and line >= before:
                continue
            if len(words) > 2 and words[1] in ("load", "add"):
                out += [(line, w) for w in words[2:] if not w.startswith("-")]
        return out

    def loads(self, module: str, before: int | None = None) -> bool:
        return any(m == module or m.startswith(module + "/")
                   for _, m in self.modules_loaded(before))


def lint_context(script: Script, profile: Profile) -> Context:
    if not is_job_script(script):
        raise JobgenError(f"{script.path}: not a job script (no scheduler directives, no "
                          "launcher, no shell #! line): lint reads batch scripts and the "
                          "scripts they run")
    return Context(script, profile)
