"""What a job does, by meaning: grouped key -> value maps built from a plan or a script.

`diff` and `verify` compare these, so a reordered directive or a reworded comment is not a
difference, while a changed queue, core list or export is, and each difference is named in
its group (directives, modules, environment, launcher, placement, app command).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from ..plan.build import Plan
from ..profiles.cpus import format_cpu_list
from ..shell import quote, split
from .scriptparse import Script, directive_items, launcher_items

GROUPS = ("plan", "profile", "directives", "modules", "environment", "launcher", "placement",
          "app command", "profiling")
# --profile, --monitor, --tensorboard: their variables form a layer of their own
OBSERVE_PREFIXES = ("JOBGEN_PROFILE_", "JOBGEN_MONITOR_", "JOBGEN_TENSORBOARD_")
_RUN_VARS = ("JOBGEN_RUN_ID", "JOBGEN_RUN_DIR")
_WRAPPED = re.compile(r'^if \[\[ " ([0-9 ]+) " == \*" \$RANK "\* \]\]; then$', re.M)
_TOOL = re.compile(r'^    set -- (?:"\$\{@:1:[0-9]+\}" )?(.*?) "\$(?:\{@:[0-9]+\}|@)"$', re.M)
_MONITOR = 'bash "$JOBGEN_MONITOR" "$JOBGEN_MONITOR_DIR" '  # (launcher) MONITOR (sampler) &

Semantic = dict[str, dict[str, str]]


@dataclass(frozen=True)
class Change:
    group: str
    key: str
    old: str | None  # None: only in the new one
    new: str | None  # None: only in the old one

    def describe(self) -> str:
        if self.old is None:
            return f"+ {self.key}: {self.new}" if self.new else f"+ {self.key}"
        if self.new is None:
            return f"- {self.key}: {self.old}" if self.old else f"- {self.key}"
        return f"~ {self.key}: {self.old} -> {self.new}"

    def as_dict(self) -> dict[str, str | None]:
        return {"group": self.group, "key": self.key, "old": self.old, "new": self.new}


class Numbered(dict[str, str]):
    """A group whose repeated keys (two `-l` lines, two `module load`) are numbered: `KEY #2`.

    It remembers the next number of each key, so n repeats cost n steps, not n**2/2."""

    def __init__(self) -> None:
        super().__init__()
        self.next: dict[str, int] = {}


def _put(group: dict[str, str], key: str, value: str) -> None:
    if key not in group:
        group[key] = value
        return
    counters = group.next if isinstance(group, Numbered) else {}
    n = counters.get(key, 2)
    while f"{key} #{n}" in group:  # a key that is itself spelt "KEY #n"
        n += 1
    group[f"{key} #{n}"] = value
    counters[key] = n + 1


def _directives(lines: list[tuple[str, str]]) -> dict[str, str]:
    out: dict[str, str] = Numbered()
    for prefix, body in lines:
        for key, value in directive_items(body):
            _put(out, f"{prefix} {key}", value)
    return out


def _modules(commands: list[str]) -> dict[str, str]:
    out: dict[str, str] = Numbered()
    for text in commands:
        _put(out, " ".join(text.split()), "")
    return out


def _launcher(argv: list[str]) -> tuple[dict[str, str], list[str]]:
    if not argv:
        return {}, []
    items, rest = launcher_items(argv)
    out: dict[str, str] = Numbered()
    out["command"] = argv[0]
    for key, value in items:
        _put(out, key, value)
    return out, rest


def _env_value(action: str, value: str | None) -> str:
    if action == "unset":
        return "(unset)"
    return value or ""


def from_plan(plan: Plan) -> Semantic:
    """The meaning of a plan; keys as `from_script` finds them in the rendered text."""
    prefix = plan.directive_prefix
    directives = _directives([(prefix, d.text[len(prefix):].strip()) for d in plan.directives])
    modules = _modules([m.text for m in (*plan.modules, *plan.python_setup)])
    env: dict[str, str] = Numbered()
    for e in plan.env:
        # what the shell sees after quoting, so a plan and its script agree
        words = split(e.shell.split("=", 1)[1]) if e.action != "unset" else []
        _put(env, e.name, _env_value(e.action, "".join(words) if words else e.value))
    if plan.master.method != "localhost":
        env["MASTER_PORT"] = str(plan.master.port)
        if plan.master.method == "hostfile":
            # as the template writes it (templates/_master_hostfile.j2)
            env["MASTER_ADDR"] = ("${jobgen_first_host%%.*}" + plan.master.suffix
                                  if plan.master.suffix else "$jobgen_first_host")
    launcher, _ = _launcher(split(" ".join(quote(w) for w in plan.launcher)))
    placement = {}
    for s in plan.slots:
        placement[f"local rank {s.local_rank}"] = _slot_text(
            format_cpu_list(s.cores) if s.cores else None, s.device, s.device_label, s.numa,
            plan.mask_variable, s.mask)
    return {
        "directives": directives,
        "modules": modules,
        "environment": env,
        "launcher": launcher,
        "placement": placement,
        "app command": {"command": shlex.join(split(plan.command_line))},
        "profiling": _plan_profiling(plan),
    }


def _plan_profiling(plan: Plan) -> dict[str, str]:
    out: dict[str, str] = {}
    for e in getattr(plan, "observe_env", ()):
        out[e.name] = "".join(split(e.shell.split("=", 1)[1]))
    prof = getattr(plan, "profile", None)
    if prof is not None:
        out["wrapped ranks"] = " ".join(map(str, prof.ranks))
        if prof.words:
            out["profiler"] = shlex.join(split(" ".join(quote(w) for w in prof.words)))
    mon = getattr(plan, "monitor", None)
    if mon is not None:
        words = (*mon.launch, "|", str(mon.interval), "stream" if mon.stream else "repeat",
                 *mon.gpu)
        out["monitor"] = shlex.join(split(" ".join(quote(w) for w in words)))
    return out


def _script_profiling(script: Script, env: dict[str, str]) -> dict[str, str]:
    """The profiling layer of a script: its observe variables (taken out of `env`), the ranks
    its wrapper wraps and the tool, and the per-node monitor's launch."""
    out = {k: env.pop(k) for k in list(env) if k.startswith(OBSERVE_PREFIXES)}
    for k in _RUN_VARS:
        env.pop(k, None)
    m = _WRAPPED.search(script.text)
    if m:
        out["wrapped ranks"] = m.group(1)
    m = _TOOL.search(script.text)
    if m:
        out["profiler"] = shlex.join(split(m.group(1)))
    launch = _monitor_launch(script.text)
    if launch:
        out["monitor"] = shlex.join([*split(launch[0]), "|", *split(launch[1])])
    return out


def _monitor_launch(text: str) -> tuple[str, str] | None:
    """The first line `LAUNCHER bash "$JOBGEN_MONITOR" "$JOBGEN_MONITOR_DIR" ARGS &`, as
    (LAUNCHER, ARGS). Plain string search, linear in the text (a regex with two `.*` around
    the marker was quadratic in a line repeating it: 54 s on 720 KB)."""
    for line in text.split("\n"):
        if not line.endswith(" &") or _MONITOR not in line:
            continue
        head, _, rest = line.rpartition(_MONITOR)
        if rest.endswith(" &"):
            return head, rest[:-2]
    return None


def _slot_text(cores: str | None, device: int | None, label: str | None, numa: int | None,
               mask_var: str | None, mask: str | None) -> str:
    parts = [f"cores {cores}" if cores else "no CPU binding"]
    if device is not None:
        parts.append(f"device {device} ({label})" if label else f"device {device}")
    if numa is not None:
        parts.append(f"NUMA {numa}")
    if mask_var and mask is not None:
        parts.append(f"{mask_var}={mask}")
    return ", ".join(parts)


def from_script(script: Script) -> Semantic:
    directives = _directives([(d.prefix, d.body) for d in script.directives])
    modules = _modules([text for _, text in script.modules])
    env: dict[str, str] = Numbered()
    for s in script.settings:
        if not s.in_heredoc:
            _put(env, s.name, _env_value(s.action, s.value))
    launcher, rest = _launcher(script.launch_argv)
    command = rest[1:] if rest and rest[0].startswith("$") else rest
    placement = {}
    for rank in sorted(set(script.slot_notes) | set(script.masks)):
        note = script.slot_notes.get(rank, "")
        mask = script.masks.get(rank)
        text = note
        if mask:
            text = f"{note}, {mask[0]}={mask[1]}" if note else f"{mask[0]}={mask[1]}"
        placement[f"local rank {rank}"] = text
    observed = _script_profiling(script, env)
    return {
        "directives": directives,
        "modules": modules,
        "environment": env,
        "launcher": launcher,
        "placement": placement,
        "app command": {"command": shlex.join(command)} if command else {},
        "profiling": observed,
    }


def compare(old: Semantic, new: Semantic) -> list[Change]:
    changes: list[Change] = []
    for group in GROUPS:
        a, b = old.get(group, {}), new.get(group, {})
        for key in a:
            if key not in b:
                changes.append(Change(group, key, a[key], None))
            elif a[key] != b[key]:
                changes.append(Change(group, key, a[key], b[key]))
        for key in b:
            if key not in a:
                changes.append(Change(group, key, None, b[key]))
    return changes


def format_changes(changes: list[Change], old_label: str, new_label: str) -> str:
    if not changes:
        return f"no differences in meaning between {old_label} and {new_label}\n"
    out = [f"--- {old_label}", f"+++ {new_label}"]
    for group in GROUPS:
        mine = [c for c in changes if c.group == group]
        if mine:
            out.append(f"{group}:")
            out += [f"  {c.describe()}" for c in mine]
    return "\n".join(out) + "\n"
