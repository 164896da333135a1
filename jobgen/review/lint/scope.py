"""What a script is, decided from the script: which rules apply to it and with which numbers.

- the kind of script: a whole batch script (#! line and directives), a fragment (directives
  shown without a #! line, as documentation does), or a launch script run inside a job;
- placeholders a guide leaves for the reader (`<queue>`, `HH:MM:SS`, `...`);
- for every launch: the launcher's flags, the environment the ranks get, the program behind
  wrappers and containers, and whether it is an AI framework and which collectives it uses;
- the CPUs each rank is bound to and the device each rank drives.
"""

from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING

from ...profiles.cpus import MAX_CPUS, parse_cpu_list
from ...shell import split
from ..scriptparse import PREFIXES, Launch, Script, launcher_items, launcher_name, split_comment

if TYPE_CHECKING:
    from .core import Context

# ---------------------------------------------------------------- what kind of script
_SHELLS = re.compile(r"^(?:/usr)?/bin/(?:env\s+)?(?:ba|z|k|da|tc|c)?sh\b|^/usr/bin/env\s+\w*sh\b")


def is_job_script(script: Script) -> bool:
    """Scheduler directives, a launch, or a shell's #! line: a file lint can read. A Python
    program (train.py) or any other text is not."""
    if script.shebang is not None:
        return bool(_SHELLS.match(script.shebang))
    return bool(script.directives or script.launches)


def script_kind(script: Script, prefix: str) -> str:
    """batch: #! and the scheduler's directives; fragment: directives without a #! line (an
    excerpt from a guide); launch: no directives (run inside a job, interactive or batch)."""
    if not any(d.prefix == prefix for d in script.block_directives):
        return "launch" if script.shebang or not script.directives else "fragment"
    return "batch" if script.shebang else "fragment"


# ---------------------------------------------------------------- placeholders
_PLACEHOLDER = re.compile(
    r"<[A-Za-z_][^<>\n]{0,60}>"            # <queue>, <fs1:fs2>, <your_ProjectName>
    r"|\b[Hh]{1,2}:[Mm]{2}(?::[Ss]{2})?\b"  # HH:MM:SS
    r"|(?:^|\s)\.\.\.(?:\s|$)"              # #SBATCH ...
    r"|\bfs[0-9]:fs[0-9]\b")                # filesystems=fs1:fs2


def is_placeholder(value: str) -> bool:
    return bool(_PLACEHOLDER.search(value))


def placeholders(script: Script) -> list[tuple[int, str]]:
    """(line, text) of each placeholder in the directives and commands (not in comments),
    in the order they appear. One pass over the text: a script may be megabytes long."""
    found: list[tuple[int, int, str]] = []
    starts: list[int] | None = None
    for m in _PLACEHOLDER.finditer(script.text):
        if starts is None:
            starts = [0] + [i + 1 for i, ch in enumerate(script.text) if ch == "\n"]
        number = bisect.bisect_right(starts, m.start())
        line = script.lines[number - 1] if number <= len(script.lines) else ""
        column = m.start() - starts[number - 1]
        if column < len(_code(line)):
            found.append((number, column, m.group(0).strip()))
    return [(number, text) for number, _, text in sorted(found)]


def _code(line: str) -> str:
    """The part of a line the scheduler or the shell reads: a directive without its trailing
    comment, a command before ` #`, nothing of a comment line."""
    stripped = line.lstrip()
    word = stripped.split(None, 1)[0] if stripped else ""
    if word in PREFIXES:
        body = stripped[len(word):]
        kept = split_comment(body.strip())[0]
        return line[:len(line) - len(stripped) + len(word) + body.find(kept) + len(kept)] \
            if kept else line[:len(line) - len(stripped) + len(word)]
    if stripped.startswith("#"):
        return ""
    return line.split(" #", 1)[0]


# ---------------------------------------------------------------- the program a launch runs
_AI_LAUNCHERS = {"torchrun", "deepspeed", "accelerate", "vllm", "horovodrun"}
_AI_NAMES = re.compile(
    r"(?i)(train|ddp|fsdp|torch|tensorflow|keras|horovod|deepspeed|megatron|llm|vllm|gpt|bert|"
    r"llama|resnet|unet|transformer|allreduce|imagenet|cosmictagger|finetun|diffusion|jax)")
_DISTRIBUTED = re.compile(r"(?i)(init_process_group|distributed|ddp|horovod|train)")
_CONTAINER_VALUE_FLAGS = {"-B", "--bind", "--env", "--pwd", "-H", "--home", "--env-file",
                          "-W", "--workdir", "-o", "--overlay", "--mount", "-e"}
_PASS_THROUGH = {"env", "time", "stdbuf", "numactl", "nice", "exec", "command", "taskset"}
_WRAPPER = re.compile(r"(?i)(\.sh$|select_gpu|affinity|wrapper|_compact|^\$)")


class ContainerRun:
    def __init__(self, runtime: str, verb: str, flags: list[str], image: str) -> None:
        self.runtime, self.verb, self.flags, self.image = runtime, verb, flags, image

    def binds(self) -> list[str]:
        out = []
        for i, w in enumerate(self.flags):
            if w in ("-B", "--bind") and i + 1 < len(self.flags):
                out += self.flags[i + 1].split(",")
            elif w.startswith(("--bind=", "-B=")):
                out += w.split("=", 1)[1].split(",")
        return [b.split(":", 1)[0] for b in out]


def unwrap(words: list[str]) -> tuple[list[str], list[str], ContainerRun | None]:
    """(program, wrappers, container) of what a launcher runs: pass-through commands, per-rank
    wrapper scripts, `singularity run|exec IMAGE` and `bash -c '...'` are looked through."""
    wrappers: list[str] = []
    container = None
    k = 0
    while k < len(words):
        w = words[k]
        base = w.rsplit("/", 1)[-1]
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", w) or w in ("--", "-u"):
            k += 1
        elif base in _PASS_THROUGH:
            k += 1
            while k < len(words) and words[k].startswith("-"):
                k += 1
        elif base in ("singularity", "apptainer") and k + 1 < len(words):
            k, container = _container(words, k)
        elif base in ("bash", "sh") and k + 2 < len(words) and words[k + 1] in ("-c", "-lc"):
            inner, _, _ = unwrap(_last_command(words[k + 2]))
            return inner, wrappers, container
        elif _WRAPPER.search(base) and (k + 1 < len(words) or "select_gpu" in base):
            wrappers.append(w)
            k += 1
        else:
            return words[k:], wrappers, container
    return [], wrappers, container


def _container(words: list[str], k: int) -> tuple[int, ContainerRun]:
    runtime, verb = words[k].rsplit("/", 1)[-1], words[k + 1]
    k += 2
    flags = []
    while k < len(words) and words[k].startswith("-"):
        flags.append(words[k])
        if words[k] in _CONTAINER_VALUE_FLAGS and k + 1 < len(words):
            flags.append(words[k + 1])
            k += 1
        k += 1
    image = words[k] if k < len(words) else ""
    return k + 1, ContainerRun(runtime, verb, flags, image)


def _last_command(text: str) -> list[str]:
    """The command of `bash -c 'export A=1 && python train.py'` that does the work."""
    try:
        parts = [split(p) for p in re.split(r"&&|;|\|\|", text) if p.strip()]
    except ValueError:
        return []
    for words in reversed(parts):
        if words and words[0] not in ("export", "cd", "source", ".", "echo"):
            return words
    return []


def classify(ctx: Context, launch: LaunchView) -> tuple[bool, str | None]:
    """(ai, collective): whether the launch runs an AI framework, and the collectives library
    its ranks use (oneccl, nccl, rccl), decided from the program, the image, the modules and
    the variables the script sets."""
    prog = launch.program
    if launch.command == "torchrun":
        prog = ["torchrun", *prog]
    first = prog[0].rsplit("/", 1)[-1] if prog else ""
    python = bool(re.fullmatch(r"python[0-9.]*", first))
    named = " ".join(prog[1:3])
    if python and len(prog) > 2 and prog[1] == "-c":
        named = prog[2] if _DISTRIBUTED.search(prog[2]) else ""
    image = launch.container.image if launch.container else ""
    env = launch.env
    framework_module = any(ctx.loads(m.name, launch.line) for m in ctx.profile.modules
                           if m.framework and m.name and m.action == "load")
    ai = first in _AI_LAUNCHERS or (python and bool(
        _AI_NAMES.search(named) or _AI_NAMES.search(image) or "workloads." in named or
        "MASTER_ADDR" in env or framework_module))
    oneccl_vars = any(n.startswith("CCL_") for n in env)
    vendor = ctx.profile.node.gpus.vendor if ctx.profile.node.gpus else None
    collective = None
    if ai:
        collective = {"intel": "oneccl", "nvidia": "nccl", "amd": "rccl"}.get(vendor or "")
    elif oneccl_vars or "oneccl" in first.lower() or "oneccl" in (prog[0].lower() if prog
                                                                   else ""):
        collective = "oneccl"
    return ai, collective


# ---------------------------------------------------------------- one launch
class LaunchView:
    """One launch of ranks with what the rules read of it."""

    def __init__(self, ctx: Context, launch: Launch) -> None:
        self.ctx = ctx
        self.line = launch.line
        self.text = launch.text
        self.argv = normalise(launch.argv)
        self.command = launcher_name(self.argv[0]) if self.argv else ""
        self.flags, rest = launcher_items(self.argv) if self.argv else ([], [])
        self._first: dict[str, tuple[int, str]] = {}
        for index, (key, value) in enumerate(self.flags):
            self._first.setdefault(key, (index, value))
        self.env: dict[str, str] = {n: s.value or "" for n, s in
                                    ctx.script.exported(launch.line).items()
                                    if s.action == "set"}
        self.env.update(self._launcher_env())
        self.program, self.wrappers, self.container = unwrap(rest)
        self.ai, self.collective = classify(ctx, self)

    def flag(self, *names: str) -> str | None:
        """The value of the first of these flags on the line, or None."""
        found = [self._first[n] for n in names if n in self._first]
        return min(found)[1] if found else None

    def _launcher_env(self) -> dict[str, str]:
        out = {}
        for key, value in self.flags:
            if key in ("--env", "-env", "-genv", "--genv", "-x") and "=" in value:
                name, _, v = value.partition("=")
                out[name] = v
            elif key == "--export":
                for part in value.split(","):
                    if "=" in part:
                        name, _, v = part.partition("=")
                        out[name] = v
        return out

    @property
    def dialect(self) -> str:
        """The launcher's dialect: the profile's, or aprun's (which Cray PALS provides too)."""
        return "aprun" if self.command == "aprun" else self.ctx.profile.launcher.dialect

    @property
    def ranks_per_node(self) -> int | None:
        from .core import as_int

        d = self.dialect
        if d == "jsrun":
            a, r = as_int(self.flag("-a", "--tasks_per_rs")), as_int(self.flag("-r",
                                                                            "--rs_per_host"))
            return a * r if a and r else None
        value = None
        if d == "aprun":
            value = self.flag("-N")
        elif d == "srun":
            value = self.flag("--ntasks-per-node")
            if value is None:
                found = self.ctx.find("--ntasks-per-node")
                value = found[0].value if found else None
        elif d in ("pals", "mpich"):
            value = self.flag("--ppn", "-ppn")
        elif d == "openmpi":
            value = self.flag("-npernode", "--npernode", "-N")
        elif d == "torchrun":
            value = self.flag("--nproc-per-node", "--nproc_per_node")
        return as_int(value)

    @property
    def total_ranks(self) -> int | None:
        from .core import as_int

        d = self.dialect
        if d == "jsrun":
            n, a = as_int(self.flag("-n", "--nrs")), as_int(self.flag("-a", "--tasks_per_rs"))
            return n * a if n and a else None
        if d == "srun":
            return as_int(self.flag("-n", "--ntasks"))
        if d == "torchrun":
            return None
        return as_int(self.flag("-n", "-np", "--np"))

    @property
    def bind(self) -> str | None:
        """The CPU binding flag's value, without srun's verbose/quiet prefix."""
        value = self.flag("--cpu-bind", "--cpu_bind", "-bind-to", "--bind-to", "-b", "--bind",
                          "--cc", "-cc")
        return re.sub(r"^(?:verbose|v|quiet|q),", "", value) if value is not None else None


_JSRUN_WORD = re.compile(r"^-([a-zA-Z])(\d+|(?<=-[bd])packed\S*|(?<=-b)rs|(?<=-b)none)$")


def normalise(argv: list[str]) -> list[str]:
    """jsrun's `-a6` and `-bpacked:7` spell flag and value as one word, MPICH's `-genv NAME
    VALUE` takes two words: make them `flag value` and `-genv NAME=VALUE`."""
    if not argv:
        return []
    out = [argv[0]]
    jsrun = argv[0].rsplit("/", 1)[-1] == "jsrun"
    k = 1
    while k < len(argv):
        w = argv[k]
        m = _JSRUN_WORD.match(w) if jsrun else None
        if m:
            out += [f"-{m.group(1)}", m.group(2)]
        elif w in ("-genv", "-env", "--env") and k + 2 < len(argv) and "=" not in argv[k + 1]:
            out += [w, f"{argv[k + 1]}={argv[k + 2]}"]
            k += 2
        else:
            out.append(w)
        k += 1
    return out


# ---------------------------------------------------------------- CPUs and devices of ranks
def rank_cpus(ctx: Context, launch: LaunchView) -> list[list[int]] | None:
    """The logical CPUs each local rank is bound to, as the launcher line says."""
    bind, d = launch.bind, launch.dialect
    if bind is None or "$" in bind:
        return None
    try:
        if d in ("pals", "srun"):
            if bind.startswith("list:"):
                return [parse_cpu_list(x) for x in bind[5:].split(":")]
            if re.match(r"^mask_cpu[:=]", bind):
                return [_mask_bits(m) for m in bind[9:].split(",")]
            if re.match(r"^map_cpu[:=]", bind):
                return [[int(x)] for x in bind[8:].split(",")]
            if bind == "depth" and d == "pals":
                return _depth_blocks(ctx, launch)
        if d == "mpich" and bind.startswith("user:"):
            return [[int(c) for c in part.split("+")] for part in bind[5:].split(",")]
    except ValueError:
        return None
    return None


def _depth_blocks(ctx: Context, launch: LaunchView) -> list[list[int]] | None:
    from .core import as_int

    depth, rpn = as_int(launch.flag("--depth", "-d")), launch.ranks_per_node
    free = [c for c in range(ctx.node.logical) if c not in ctx.node.reserved]
    if depth and rpn and depth * rpn <= len(free):  # more: CPU006's
        # Depth blocks fill the CPUs the job may use: the OS-reserved ones are not in its
        # cpuset (Aurora's docs show rank 0 on HWT 1-8 with core 0 reserved).
        return [free[i * depth:(i + 1) * depth] for i in range(rpn)]
    return None


def _mask_bits(text: str) -> list[int]:
    if len(text) > MAX_CPUS // 4 + 2:
        raise ValueError(f"mask {text[:20]}... is wider than any node")
    value = int(text, 16)
    return [i for i in range(value.bit_length()) if value >> i & 1]
