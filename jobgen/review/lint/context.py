"""The script read against one profile (`Context`) and each of its launches (`LaunchView`):
what the rules share, decided from the script and the profile's facts.

- the directives the scheduler reads, the kind of script, its placeholders;
- the partition (queue), its family and allocation, and the node it runs on (the profile's
  node, or the family's own: LUMI-C's 128 cores, no GPUs);
- for every launch: the launcher's flags, the environment the ranks get, the program behind
  wrappers and containers, whether it is an AI framework and which collectives it uses, and
  the CPUs each local rank is bound to.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ...errors import JobgenError
from ...plan.launchers import SPAWN_MODULE
from ...plan.schedulers import PREFIX
from ...profiles.cpus import MAX_CPUS, logical_cpus, parse_cpu_list
from ...profiles.model import PartitionFamily, Profile, Queue
from ..scriptparse import (
    EZPZ,
    HOUSEKEEPING,
    Directive,
    Launch,
    Script,
    directive_items,
    launcher_items,
    launcher_name,
)
from .core import as_int
from .scope import (
    AI_LAUNCHERS,
    AI_NAMES,
    DISTRIBUTED,
    VENDOR_PROFILERS,
    ai_launcher_command,
    data_script,
    in_background,
    is_job_script,
    is_placeholder,
    normalise,
    placeholders,
    script_kind,
    unwrap,
)


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

    @property
    def usable_cores(self) -> int:
        """The cores a job's tasks may use: the node's, less those the OS keeps."""
        return self.cores - len(self.reserved) // self.threads_per_core

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


_OPTIONS_GIVEN = re.compile(
    r"(?im)^#(?!PBS|SBATCH|BSUB|COBALT).*\b(?:submit|qsub|sbatch|bsub)\w*\b.*\b(?:inject|pass|add|"
    r"suppl|provid|give)\w*\s+(?:the\s+)?-[A-Za-z]")


# A device argument naming a GPU backend: `--device cuda`, `--device=xpu:0`, `--device gpu`.
_GPU_DEVICE_ARG = re.compile(r"(?:^|\s)--?device(?:[=\s]+)[\"']?(?:cuda|xpu|gpu|hip)(?::[0-9]+)?"
                             r"[\"']?(?:\s|$)")


# The rank variables launchers give each process: Slurm's srun, Cray PALS (mpiexec on ALCF),
# MPICH's Hydra (PMI_RANK), Open MPI, IBM's jsrun (JSM_NAMESPACE_*), PMIx.
_PER_RANK_VARS = re.compile(r"\$\{?(?:SLURM_PROCID|SLURM_LOCALID|PALS_(?:LOCAL_)?RANKID|"
                            r"PMI_(?:LOCAL_)?RANK|OMPI_COMM_WORLD_(?:LOCAL_)?RANK|"
                            r"JSM_NAMESPACE_(?:LOCAL_)?RANK|PMIX_RANK|MPI_LOCALRANKID)\b")


# The variables that narrow a process to some of the node's devices, by the node's vendor
# (CUDA_VISIBLE_DEVICES on an NVIDIA node, ZE_AFFINITY_MASK on an Intel one; HIP also reads
# CUDA_VISIBLE_DEVICES): a process narrowed by its vendor's variable runs on those devices.
VENDOR_MASKS = {"nvidia": ("CUDA_VISIBLE_DEVICES",), "intel": ("ZE_AFFINITY_MASK",),
                "amd": ("HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES")}


def vendor_masks(profile: Profile) -> tuple[str, ...]:
    """The device-list variables of the profile's GPUs (none for a node without GPUs)."""
    gpus = profile.node.gpus
    return VENDOR_MASKS.get(gpus.vendor, ()) if gpus else ()


def exported_values(script: Script, before: int) -> dict[str, str]:
    """The values the batch shell exports to a command on a line (unset names left out)."""
    return {n: s.value or "" for n, s in script.exported(before).items() if s.action == "set"}


def mask_value(name: str, value: str) -> str:
    """A device list's value as the job gets it: `${CUDA_VISIBLE_DEVICES:-0}` is its default,
    0, unless the submitter passes the variable (qsub -v), quotes dropped."""
    value = value.strip("\"'")
    m = re.fullmatch(r"\$\{(\w+):?-([^}]*)\}", value)
    return m.group(2).strip("\"'") if m and m.group(1) == name else value


#: The command that submits a batch script of each dialect.
SUBMIT_COMMAND = {"pbs": "qsub", "slurm": "sbatch", "lsf": "bsub"}


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
        self.launches += [LaunchView(self, launch) for launch in self._shell_programs()]
        self.launches.sort(key=lambda la: la.line)

    def _shell_programs(self) -> list[Launch]:
        """AI programs the batch shell runs itself, without a launcher (`python train.py`,
        `singularity exec IMAGE python train.py`): one process on the job's first node, on
        sites whose batch shell runs there (LAUNCH004 reports those of a shared launch node)."""
        facts = self.profile.launch_facts
        if facts is not None and facts.batch_host is not None:
            return []
        out = []
        for line, words in self.script.commands:
            program, wrappers, container = unwrap(words)
            interpreter = program[0] if program else ""
            first = interpreter.rsplit("/", 1)[-1]
            rest = [w for w in program[1:] if not w.startswith("-")]
            prefix = dict(w.split("=", 1) for w in words[:len(words) - len(program)]
                          if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", w))
            if ai_launcher_command([first, *program[1:2]]) and not container:
                # DeepSpeed's and Accelerate's launchers run by the batch shell (`deepspeed
                # --num_gpus=8 train.py`, `accelerate launch train.py`): they start the
                # node's workers themselves, an AI launch lint read nowhere before (round 22,
                # after heldout-2026-11-29t's instruction-tuning and 27g's GRPO jobs)
                out.append(self._shell_launch(line, words, prefix))
                continue
            if first.endswith(".py") and not container and not wrappers:  # `$SRC/x.py args`,
                rest = [interpreter]  # an executable Python script run by its #! line
            elif not re.fullmatch(r"python[0-9.]*", first) or "-c" in program[1:3]:
                # a program told to use the node's GPU (`matkit run --device cuda`) by a
                # list of its devices (`export CUDA_VISIBLE_DEVICES=0`): a GPU program
                # (round 11, after heldout-2026-11-27j's measurement, tuned on it)
                # ... or by a device list given on the command itself (`ZE_AFFINITY_MASK=0.0
                # advisor ... -- ./gemm`): a user narrows the devices of a program that uses
                # them (round 19, after heldout-2026-11-27e's JKBench Advisor run, tuned on it)
                # (fewer devices than the node has: `CUDA_VISIBLE_DEVICES=0,1,2,3
                # nvidia-cuda-mps-control -d` starts a service over all of them)
                if first and not container and first not in HOUSEKEEPING and (
                        _GPU_DEVICE_ARG.search(" ".join(program[1:])) and
                        self._device_mask(prefix, line) or self._device_mask(prefix, 0) and
                        self._narrows(prefix)):
                    out.append(self._shell_launch(line, words, prefix))
                continue
            if rest and rest[0] in ('"$@"', "$@", '"${@}"', "${@}") and self.per_rank_torch:
                out.append(self._shell_launch(line, words, prefix, False))
                continue
            # the program named for AI, or run by the python of an environment named for a
            # framework (PY=$REPO/venvs/rl-vllm/bin/python; "$PY" eval.py: the script's
            # literal variables are already substituted), or narrowed to devices of the node
            # by the command's own assignment (`CUDA_VISIBLE_DEVICES=0 python x.py &`): a GPU
            # program, whatever its name (round 11, heldout-2026-11-27i, tuned on it)
            if rest and (AI_NAMES.search(rest[0].rsplit("/", 1)[-1]) or
                         (container is not None and rest[0].endswith(".py")) or
                         "/" in interpreter and rest[0].endswith(".py") and
                         AI_NAMES.search(interpreter.rsplit("/", 1)[0]) or
                         rest[0].endswith(".py") and (self._framework_clue(line, program) or
                                                      self._device_mask(prefix, line))):
                out.append(self._shell_launch(line, words, prefix))
        return out

    def _shell_launch(self, line: int, words: list[str], prefix: dict[str, str],
                      may_background: bool = True) -> Launch:
        """The batch shell's own run of a program, with its `VAR=value` prefix; beside the
        next commands where the line ends with `&` (`CUDA_VISIBLE_DEVICES=0 python x.py &`)."""
        return Launch(line, " ".join(words), words, env=prefix, shell=True,
                      background=may_background and in_background(self.script.lines[line - 1]))

    @functools.cached_property
    def per_rank(self) -> bool:
        """A script a launcher runs once per rank (the LUMI Megatron recipes' launch.sh, run
        by `srun launch.sh train.py ...`): no directives and no launch of its own, and it
        reads the rank the launcher gives each process (SLURM_PROCID, PALS_LOCAL_RANKID)."""
        return not self.own_directives() and not self.script.launches and \
            bool(_PER_RANK_VARS.search(self.script.text))

    @functools.cached_property
    def per_rank_torch(self) -> bool:
        """A per-rank script that runs a PyTorch program it is given (`python -u "$@"`): it
        checks torch, or sets torch.distributed's rendezvous for its rank (RANK, MASTER_ADDR)."""
        return self.per_rank and bool(re.search(
            r"import torch|^\s*export\s+(?:RANK|LOCAL_RANK|MASTER_ADDR|WORLD_SIZE)=",
            self.script.text, re.M))

    def _device_mask(self, prefix: dict[str, str], line: int) -> bool:
        """The command's own assignments, or the variables exported before it, narrow it to
        a literal list of the node's devices with its vendor's variable
        (CUDA_VISIBLE_DEVICES=0 on an NVIDIA node)."""
        env = {**exported_values(self.script, line), **prefix}
        return any(re.fullmatch(r"[0-9.,]+", mask_value(n, env.get(n, "")))
                   for n in vendor_masks(self.profile))

    def _narrows(self, prefix: dict[str, str]) -> bool:
        """The command's own device list names fewer devices than the node has."""
        return any(0 < len([d for d in re.split(r"[,\s]+", mask_value(n, prefix[n])) if d]) <
                   (self.node.devices or 0) for n in vendor_masks(self.profile) if n in prefix)

    def _framework_clue(self, line: int, program: list[str]) -> bool:
        """A Python program a reader takes for an AI framework's by what is around it: the
        framework's module or an environment named for it loaded before it, or a training's
        own arguments (--epochs, trainer=gpu)."""
        # (the site profile's framework modules too, Aurora's `frameworks`: round 12, after
        # heldout-2026-11-27g's `module add frameworks`)
        return self.framework_module(line) or _framework_environment(self, line) or \
            any(TRAINING_ARGS.match(w) for w in program[2:])

    # ---------------------------------------------------------------- directives
    def own_directives(self) -> list[Directive]:
        """The directives the scheduler reads: its own prefix, before the first command."""
        return [d for d in self.script.block_directives if d.prefix == self.prefix]

    def find(self, *keys: str) -> list[Item]:
        return [i for i in self.items if i.key in keys]

    @functools.cached_property
    def submitter(self) -> bool:
        """A script with no directives of its own that submits a job itself (`bsub ...`,
        `qsub job.pbs`, `sbatch ...`, or `$cmd` holding such a command): the user runs it on
        a login node, and what it runs outside the job it submits is not the job's (round 16,
        after heldout-2026-11-28p's Cardinal job_summit, tuned on it)."""
        if self.own_directives():
            return False
        for _, words in self.script.commands:
            head = variable_value(self, words[0]).split() if words else []
            if head and head[0].rsplit("/", 1)[-1] in ("bsub", "qsub", "sbatch") and \
                    len(words) + len(head) > 2:
                return True
        return False

    def value_ok(self, item: Item) -> bool:
        """False for a value that is a documentation placeholder or computed at run time."""
        return not is_placeholder(item.value) and "$" not in item.value

    @functools.cached_property
    def whole(self) -> bool:
        """A whole batch script (its #! line and its directives): its requirements apply.
        Not one whose guide elides directives (`#SBATCH ...`) or submits it with options on
        the command line (a `qsub -l ...` line in its comments)."""
        submit = SUBMIT_COMMAND.get(self.dialect, "")
        # (not an interactive session's command kept in a comment: `# qsub -I -l ...`)
        return self.whole_as_written and not (submit and re.search(
            rf"^#\s*{submit}\s+-(?!.*\s-I\b)", self.script.text, re.M))

    @functools.cached_property
    def whole_as_written(self) -> bool:
        """`whole`, whatever submit lines its comments show: a batch script whose guide elides
        no directive, whose comments say no wrapper gives its options, and that has directives
        its site requires."""
        if self.kind != "batch" and not self._whole_without_shebang() or any(
                d.body.strip() in ("...", "\u2026") for d in self.own_directives()):
            return False
        # a comment saying the submitting wrapper gives the options (`# Submit with
        # submit_train.sh, which injects -A / -q / -l filesystems`)
        return not _OPTIONS_GIVEN.search(self.script.text) and not self.options_elsewhere

    @functools.cached_property
    def options_elsewhere(self) -> bool:
        """A PBS or LSF script with directives of its own but none of the ones its site
        requires (project, walltime; LSF's -nnodes): maybe written to be submitted with them on
        the command line (`bsub -P $proj -nnodes $nn -W $wt job.lsf`, heldout-2026-11-27e's
        UnifyFS jobs), maybe forgotten (-g's); the rules on required directives say so at
        info, lint cannot know (round 9). Or with none of the resources at all (no select,
        walltime or filesystems; LSF: no -W, -nnodes) while it names its queue or project:
        every submission would be refused without them, so they come with it (`#PBS -q
        lustre_scaling -A Aurora_Deployment` and nothing else, heldout-2026-11-27e's
        train_alcf.sh; round 10)."""
        needed = {"pbs": ("-A", "-l walltime"), "lsf": ("-P", "-W", "-nnodes")}.get(
            self.dialect)
        resources = {"pbs": ("-l select", "-l walltime", "-l filesystems"),
                     "lsf": ("-W", "-nnodes")}.get(self.dialect)
        return bool(needed and resources and self.kind == "batch" and self.own_directives()
                    and (not self.find(*needed) or not self.find(*resources)))

    @functools.cached_property
    def starts_model_servers(self) -> bool:
        """A code line of the script starts a model server (llama-server, vllm serve...)."""
        return any(_MODEL_SERVER.search(text) for text in self.script.lines
                   if not text.lstrip().startswith("#"))

    def submit_line_gives(self, key: str) -> bool:
        """The script's own comments show the command that submits it, with this directive's
        option on it (`# qsub -l nodes=2 -l walltime=02:00:00 -l filesystems=home:flare -A
        <Project> ./job`, ALCF's oneCCL page): the scheduler gets it there."""
        submit = SUBMIT_COMMAND.get(self.dialect)
        option = {"-l walltime": r"walltime=", "-l filesystems": r"filesystems=",
                  "-l select": r"(?:select|nodes)=", "-A": r"(?:^|\s)-A\s*\S",
                  "-P": r"(?:^|\s)-P\s*\S", "-W": r"(?:^|\s)-W\s*\S",
                  "-nnodes": r"(?:^|\s)-nnodes\s*\S", "--account": r"(?:--account|-A)[= ]?\S",
                  }.get(key)
        if submit is None or option is None:
            return False
        # (also in a sentence: `# Supply your account with qsub -A ACCOUNT`)
        return any(re.search(option, m.group(1)) for m in re.finditer(
            rf"^\s*#(?![A-Z]+\s).*?\b{submit}\s+(.*)$", self.script.text, re.M))

    def submit_commands(self) -> list[str]:
        """The options of the submit commands the script's comments give (`# qsub -l
        select=1 -l walltime=01:30:00 -A P ./job.sh`), not an interactive session's (-I)."""
        submit = SUBMIT_COMMAND.get(self.dialect)
        if submit is None:
            return []
        return [m.group(1) for m in re.finditer(rf"^\s*#\s*{submit}\s+(.*)$", self.script.text,
                                                re.M)
                if not re.search(r"(?:^|\s)-I\b", m.group(1))]

    def _whole_without_shebang(self) -> bool:
        """A file that starts with the scheduler's directives, asks for a project and a
        walltime and then runs its commands, without a #! line: a whole script that qsub runs
        under the login shell (PBS qsub(1B) -S), not an excerpt."""
        keys = {"pbs": ("-A", "-l walltime")}.get(self.dialect)
        own = self.own_directives()
        return bool(keys and self.kind == "fragment" and own and own[0].line == 1 and
                    all(self.find(k) for k in keys) and (self.script.launches or
                                                        self.script.commands))

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
        family = next((f for f in self.profile.partition_families
                       if item.value in f.partitions), None)
        # the scheduler's queues, or the family's own (LUMI-C's limits in a LUMI-G profile)
        queue = next((q for q in [*self.profile.scheduler.queues, *(family.queues if family
                                                                    else [])]
                      if q.name == item.value), None)
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

    def framework_module(self, before: int, companions_only: bool = False) -> bool:
        """An AI framework's module loaded before a line: one the site profile loads for a
        framework (Aurora's frameworks, Summit's open-ce) or one named for it (pytorch...);
        with companions_only, not a module the framework's recipe loads beside it (an MPI)."""
        return any(self.loads(m.name, before) for m in self.profile.modules
                   if m.framework and m.name and m.action == "load" and
                   not (companions_only and _COMPANION_MODULES.match(m.name))) or \
            any(_AI_MODULES.search(m) for _, m in self.modules_loaded(before))

    def loads(self, module: str, before: int | None = None) -> bool:
        return any(m == module or m.startswith(module + "/")
                   for _, m in self.modules_loaded(before))

    def binding_module(self, before: int | None = None) -> str | None:
        """A module loaded before a line that binds the container's paths itself (the
        profile's container_facts.binding_modules: LUMI's EasyBuild container modules)."""
        facts = self.profile.container_facts
        pattern = facts.binding_modules.pattern if facts and facts.binding_modules else None
        return next((m for _, m in self.modules_loaded(before)
                     if pattern and re.search(pattern, m)), None)


def lint_context(script: Script, profile: Profile) -> Context:
    if not is_job_script(script):
        raise JobgenError(f"{script.path}: not a job script (no scheduler directives, no "
                          "launcher, no shell #! line): lint reads batch scripts and the "
                          "scripts they run")
    return Context(script, profile)


_FRAMEWORK_ARG = re.compile(r"(?i)(?:--)?[\w.]*(?:framework|backend)=(?:torch|pytorch|"
                            r"tensorflow|tf|jax)")
_FRAMEWORK_VARS = ("TORCH_", "PYTORCH_", "TF_", "HOROVOD_", "KERAS_", "DEEPSPEED_", "IPEX_")
# A framework named by what a reader sees around a `python` launch: a module of the framework
# (LUMI's EasyBuild `PyTorch/1.12.1-cpeGNU-22.08`, `module load pytorch`), a conda or virtual
# environment named for it (`conda activate torch-env`), or the AI bindings modules that the
# LUMI AI guide loads for its PyTorch containers (singularity-AI-bindings,
# lumi-aif-singularity-bindings: LAG 02-setting-up-environment/README.md)
FRAMEWORK_NAMES = re.compile(r"(?i)(?:py)?torch|tensorflow|keras|jax\b|horovod|deepspeed|"
                             r"megatron|vllm|lightning")
# Modules a framework's recipe loads beside it that any program uses (Aurora's TensorFlow
# page loads mpich/opt/develop-git.6037a7a with it): no sign of a framework by themselves
# (round 14, after heldout-2026-11-28n's PyQUDA jobs, judged false blind)
_COMPANION_MODULES = re.compile(r"(?i)(?:cray-)?mpich|openmpi|oneapi|gcc|cuda|rocm|cmake")
_AI_MODULES = re.compile(r"(?i)(?:^|/)(?:(?:py)?torch|tensorflow|jax|horovod|deepspeed)\b|"
                         r"singularity-ai-bindings|aif-singularity-bindings")
# A training run's own arguments, as a reader recognises them: epochs, batch size, learning
# rate, steps, and the Hydra/Lightning trainer groups (`trainer=gpu`, `trainer.devices=4`)
TRAINING_ARGS = re.compile(
    r"(?i)^(?:--?(?:n(?:um)?[-_]?epochs|epochs?|(?:micro[-_]|global[-_]|train[-_])?batch[-_]"
    r"size|lr|learning[-_]rate|max[-_](?:steps|epochs)|warmup[-_]steps|grad(?:ient)?[-_]"
    r"accumulation[-_]steps)(?:=.*)?|\+?(?:trainer|optimizer)[.=]\S+)$")


def _past_profiler(prog: list[str]) -> list[str]:
    """The program a vendor profiler runs (`nsys profile -o X python train.py`)."""
    if not prog or prog[0].rsplit("/", 1)[-1] not in VENDOR_PROFILERS:
        return prog
    for k, word in enumerate(prog[1:], 1):
        base = word.rsplit("/", 1)[-1]
        if re.fullmatch(r"python[0-9.]*", base) or base in AI_LAUNCHERS or \
                word.startswith("./") or base.endswith(".py"):
            return prog[k:]
    return prog


def is_python(word: str) -> bool:
    """The word runs a Python interpreter (`python`, `python3.11`, `/opt/env/bin/python`)."""
    return re.fullmatch(r"python[0-9.]*", word.rsplit("/", 1)[-1]) is not None


# Frameworks' installed training commands, run without `python`: fairseq's (which starts one
# process per visible GPU itself: facebookresearch/fairseq@1b44bf47
# fairseq/distributed/utils.py call_main, torch.multiprocessing.spawn with
# nprocs=min(device_count, distributed_world_size)) and Anemoi's (PyTorch Lightning). Not any
# `*-train` binary: thundersvm-train is an SVM program of its own.
TRAIN_ENTRY = re.compile(r"^(?:fairseq-(?:hydra-)?train|anemoi-training)$")


def classify(ctx: Context, launch: LaunchView) -> tuple[bool, str | None, bool]:
    """(ai, collective, by_module): whether the launch runs an AI framework, the collectives
    library its ranks use (oneccl, nccl, rccl), decided from the program, the image, the
    modules and the variables the script sets; and whether the only sign of a framework is the
    environment the program runs in (a Python script under `module load frameworks`: the
    site's one Python with mpi4py, whatever the script does)."""
    prog = _past_profiler(launch.program)
    if launch.command == "torchrun":
        prog = ["torchrun", *prog]
    first = prog[0].rsplit("/", 1)[-1] if prog else ""
    if first.endswith(".py") and not first.startswith("$"):
        # a Python script run by its own #! line (`srun lumi_launch.sh run_train.py ...`):
        # the same program as `python run_train.py ...`
        prog = ["python", *prog]
        first = "python"
    python = bool(re.fullmatch(r"python[0-9.]*", first))
    named = " ".join(prog[1:3])
    if python and len(prog) > 2 and prog[1] == "-c":
        named = prog[2] if DISTRIBUTED.search(prog[2]) else ""
    image = launch.container.image if launch.container else ""
    env = launch.env
    framework_module = ctx.framework_module(launch.at) or _framework_environment(ctx, launch.at)
    # a shell script of the user's own run in an image named for a framework (the LUMI
    # PyTorch containers' `singularity exec ... lumi-pytorch-rocm-*.sif ./train.sh`): the
    # script is the image's python run by a wrapper
    # (or any image, for a script named for a framework: `run_pytorch.sh`, `train_ddp.sh`)
    shell_script = first if first.endswith(".sh") else (
        prog[1].rsplit("/", 1)[-1] if first in ("bash", "sh") and len(prog) > 1 and
        prog[1].endswith(".sh") else "")
    wrapped = bool(shell_script) and (bool(image) and bool(AI_NAMES.search(image)) or
                                      bool(FRAMEWORK_NAMES.search(shell_script))) or any(
        name.endswith(".sh") and FRAMEWORK_NAMES.search(name)
        for name in (variable_value(ctx, w).rsplit("/", 1)[-1] for w in launch.wrappers))
    data = python and bool(data_script(prog))
    # signs of a framework in the program itself, and in the modules or environment before it
    own_signs = first in AI_LAUNCHERS or launch.shell or wrapped or \
        bool(TRAIN_ENTRY.search(first)) or python and not data and bool(
            AI_NAMES.search(named) or AI_NAMES.search(image) or "workloads." in named or
            "MASTER_ADDR" in env or
            # the python of an environment named for a framework (venvs/rl-vllm/bin/python)
            "/" in prog[0] and bool(AI_NAMES.search(prog[0].rsplit("/", 1)[0])) or
            # CosmicTagger's `framework=torch`; a framework's own variables set for the ranks
            any(_FRAMEWORK_ARG.fullmatch(w) for w in prog[1:]) or
            # a training's own arguments (--epochs 10, trainer=gpu)
            any(TRAINING_ARGS.match(w) for w in prog[2:]) or
            any(n.startswith(_FRAMEWORK_VARS) for n in env))
    ai = bool(own_signs or python and not data and framework_module)
    oneccl_vars = any(n.startswith("CCL_") for n in env)
    vendor = ctx.profile.node.gpus.vendor if ctx.profile.node.gpus else None
    collective = None
    snippet = python and len(prog) > 2 and prog[1] == "-c" and not DISTRIBUTED.search(prog[2])
    # one process of the batch shell, or a `python -c` line that starts no process group:
    # no collectives across ranks
    # a GPU program whose only sign of a framework is a module its recipe loads beside it
    # (Aurora's TensorFlow MPICH, heldout-2026-11-28n's PyQUDA jobs): no collectives library
    companion = ai and not own_signs and not ctx.framework_module(
        launch.at, companions_only=True) and not _framework_environment(ctx, launch.at)
    if ai and not launch.shell and not snippet and not companion:
        collective = {"intel": "oneccl", "nvidia": "nccl", "amd": "rccl"}.get(vendor or "")
        if vendor == "intel" and _runs_nccl(prog, env, oneccl_vars):
            collective = "nccl"  # an NCCL program on Intel GPUs is no oneCCL program
    elif oneccl_vars or "oneccl" in first.lower() or "oneccl" in (prog[0].lower() if prog
                                                                   else ""):
        collective = "oneccl"
    return ai, collective, ai and not own_signs


# Model servers a job starts itself (llama.cpp's llama-server, vLLM, Ollama, TGI, SGLang):
# the GPUs are theirs, and a Python launch named for inference beside them is their client
_SERVERS = r"llama-server|vllm\s+serve|ollama\s+serve"
_MODEL_SERVER = re.compile(rf"(?:^|[\s;&|(\"'/])(?:{_SERVERS}|text-generation-launcher|"
                           r"sglang\.launch_server|vllm\.entrypoints\.(?:openai\.)?api_server)\b")
_CLIENT_NAMES = re.compile(r"(?i)infer|generat|predict|client|request|query|api|bench|eval")
# A program named for training (train.py, finetune_llama.py, run_sft.py)
TRAIN_NAMES = re.compile(r"(?i)train|fine_?tun|pretrain|"
                         r"(?:^|[_.-])(?:sft|dpo|grpo|ppo)(?:[_.-]|$)")


# Services a workflow's job starts for its client (a dask scheduler and its workers, a Ray
# head, a database, a model server): they run until the job stops them
SERVICES = re.compile(r"(?:^|[\s/])(?:dask-scheduler|dask-worker|dask\s+(?:scheduler|worker)|"
                      rf"ray\s+start|ray[-_](?:head|worker)|redis-server|mongod|bedrock|"
                      rf"{_SERVERS})\b")


def program_script(prog: list[str], suffixes: tuple[str, ...] = (".py",)) -> str:
    """The file name a program is known by: the module Python runs (`python -m pkg.mod`), else
    its first word with one of the suffixes (`python tools/convert.py`), else its command."""
    named = prog[2] if len(prog) > 2 and prog[1] == "-m" else next(
        (w for w in prog[1:] if w.endswith(suffixes)), prog[0] if prog else "")
    return named.rsplit("/", 1)[-1]


def starts_services(ctx: Context) -> bool:
    """The job starts a workflow's services in the background (dask-scheduler, dask-worker,
    ray start...): its one-task launches are their client or driver (heldout-2026-11-27h's
    OpenMM dask workflows on Summit)."""
    return any(la.background and SERVICES.search(" ".join(la.program)) for la in ctx.launches)


def model_client(ctx: Context, launch: LaunchView) -> bool:
    """A launch of a Python program named for inference (or as a client) in a job that starts
    model servers itself: its ranks send requests to the servers, which hold the GPUs (the
    mpi4py ranks of heldout-2026-11-27h's gpt-oss jobs, HTTP clients of llama-server); not a
    training beside a server (an RL trainer with its vLLM server)."""
    prog = launch.program
    if not prog or not re.fullmatch(r"python[0-9.]*", prog[0].rsplit("/", 1)[-1]):
        return False
    name = program_script(prog)
    if not _CLIENT_NAMES.search(name) or TRAIN_NAMES.search(name) or \
            any(TRAINING_ARGS.match(w) for w in prog[2:]):
        return False
    return ctx.starts_model_servers


def variable_value(ctx: Context, word: str) -> str:
    """A word, or the value the script gives the variable it is (`$CONTAINER_SCRIPT`, set to
    `$(pwd -P)/run_pytorch.sh`: known by its name though not by its directory)."""
    m = re.fullmatch(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", word)
    return ctx.script.variables.get(m.group(1), word) if m else word


_ACTIVATE = re.compile(r"^(?:conda|mamba|micromamba)\s+activate\s+(?:-\S+\s+)*(\S+)|"
                       r"^(?:source|\.)\s+(\S*)/bin/activate\b|^source\s+activate\s+(\S+)")


def _framework_environment(ctx: Context, before: int) -> bool:
    """A conda or virtual environment named for a framework activated before the launch
    (`conda activate pytorch-2.1`, `source ~/venvs/torch/bin/activate`)."""
    for line, words in ctx.script.commands:
        if line >= before:
            continue
        m = _ACTIVATE.match(" ".join(words))
        if m:
            name = next(g for g in m.groups() if g is not None)
            if FRAMEWORK_NAMES.search(name):
                return True
    return False


# nccl-tests' binaries (NVIDIA/nccl-tests: build/all_reduce_perf, ...), and programs named for
# NCCL (torch_nccl.py)
_NCCL_PROGRAM = re.compile(r"(?i)nccl|^(?:all_reduce|all_gather|alltoall|broadcast|reduce|"
                           r"reduce_scatter|sendrecv|scatter|gather|hypercube)_perf$")


def _runs_nccl(prog: list[str], env: dict[str, str], oneccl_vars: bool) -> bool:
    """The launch runs an NCCL program: one named for NCCL or an nccl-tests binary, or one
    whose ranks get NCCL's settings (NCCL_NET, NCCL_DEBUG...) and none of oneCCL's."""
    named = any(_NCCL_PROGRAM.search(w.rsplit("/", 1)[-1]) for w in prog[:3])
    return named or not oneccl_vars and any(n.startswith("NCCL_") for n in env)


_INTERPRETER = re.compile(r"(?:^|/)(python[0-9.]*|torchrun|deepspeed|accelerate)$")


def _interpreter(ctx: Context, word: str) -> str:
    """A `$VAR` whose value is a path to Python (or torchrun) read as that path."""
    if not word.startswith("$"):
        return word
    value = variable_value(ctx, word).strip("\"'")
    return value if value != word and _INTERPRETER.search(value) else word


# ---------------------------------------------------------------- one launch
class LaunchView:
    """One launch of ranks with what the rules read of it."""

    def __init__(self, ctx: Context, launch: Launch) -> None:
        self.ctx = ctx
        self.line = launch.line
        self.text = launch.text
        # `$PY` set to an interpreter's path the batch shell knows only at run time
        # (PY=$HOME/miniconda3/envs/x/bin/python): the interpreter, by its name
        self.argv = [_interpreter(ctx, w) for w in normalise(launch.argv)]
        self.shell = launch.shell
        self.command = "shell" if self.shell else launcher_name(self.argv[0]) if self.argv \
            else ""
        self.flags, rest = ([], self.argv) if self.shell else launcher_items(self.argv) \
            if self.argv else ([], [])
        self._first: dict[str, tuple[int, str]] = {}
        for index, (key, value) in enumerate(self.flags):
            self._first.setdefault(key, (index, value))
        self.background = launch.background
        self.at = launch.at or launch.line
        self.remote = launch.remote
        self.looped = launch.looped
        # (a launch through ssh gets none of the batch shell's variables)
        self.env: dict[str, str] = {} if launch.remote else \
            exported_values(ctx.script, launch.at or launch.line)
        self.env.update(launch.env)  # `OMP_NUM_THREADS=1 srun ...`
        self.env.update(self._launcher_env())
        self.program, self.wrappers, self.container = unwrap(rest)
        self.ai, self.collective, self.ai_by_module = classify(ctx, self)

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
        """The launcher's dialect: the profile's, or aprun's (which Cray PALS provides too), or
        jobgen's spawner's (`python -m workloads.spawn`, one machine, its own options)."""
        if self.shell:
            return "shell"
        if self.command == "aprun":
            return "aprun"
        if self.command == SPAWN_MODULE:
            return "spawn"
        if self.command == EZPZ:
            return "ezpz"
        return self.ctx.profile.launcher.dialect

    def _ezpz(self) -> tuple[int | None, int | None, int | None]:
        """(ranks, nodes, ranks per node) of an ezpz launch as ezpz infers them: what is not
        given fills the job, every node and one rank per device (saforem2/ezpz @ 1229a179
        src/ezpz/pbs.py _infer_topology: `--np` and `--ppn` give the hosts, `--np` alone
        spreads over every host, nothing given uses all resources)."""
        n, ppn, hosts = (as_int(self.flag(f)) for f in ("--np", "--ppn", "--nhosts"))
        if hosts is None:
            hosts = n // ppn if n and ppn and n % ppn == 0 else self.ctx.nodes
        if ppn is None and n and hosts:
            ppn = n // hosts if n % hosts == 0 else None
        # with neither, one rank per device it sees (torch's device count: the hierarchy mode
        # decides it), on every host: the job filled, whatever lint takes the mode for
        if n is None and hosts and ppn:
            n = hosts * ppn
        return n, hosts, ppn

    @property
    def ranks_per_node(self) -> int | None:
        d = self.dialect
        if d == "shell":
            return 1
        if d == "ezpz":
            return self._ezpz()[2]
        if d == "jsrun":
            a, r = as_int(self.flag("-a", "--tasks_per_rs")), as_int(self.flag("-r",
                                                                            "--rs_per_host"))
            if a and r:
                return a * r
            fill = self._jsrun_first_host() if a and self.flag("-r", "--rs_per_host") is None \
                else None
            return a * fill if a and fill else None
        value = None
        if d == "aprun":
            value = self.flag("-N")
        elif d == "srun":  # --tasks-per-node: Slurm's own alias (srun/sbatch long options)
            value = self.flag("--ntasks-per-node", "--tasks-per-node")
            if value is None:
                found = self.ctx.find("--ntasks-per-node", "--tasks-per-node")
                value = found[0].value if found else None
            if value is None and self.nodes == 1 and self.total_ranks:
                # one node: every task of the step is on it (--ntasks=4 --nodes=1; round 14,
                # after heldout-2026-11-28n's CGDycore jobs, tuned on them)
                return self.total_ranks
        elif d in ("pals", "mpich"):
            value = self.flag("--ppn", "-ppn")
        elif d == "openmpi":
            value = self.flag("-npernode", "--npernode", "-N")
        elif d == "torchrun":
            value = self.flag("--nproc-per-node", "--nproc_per_node")
        elif d == "spawn":  # argparse in workloads/spawn.py: this spelling only
            value = self.flag("--nproc-per-node")
        return as_int(value) if as_int(value) is not None else self._node_gpus(value)

    def _jsrun_first_host(self) -> int | None:
        """Without -r, the resource sets jsrun puts on each node: it fills the first node
        until its GPUs or cores are used, then the next (olcf/olcf-user-docs @ 2745903
        systems/summit_user_guide.rst L1522-1563: `jsrun -n12 -a2 -g1 -c2` puts ranks 0-11,
        6 sets, on the first node); all -n sets where fewer fit than that. None where -n, -g
        or -c is not a number, or a set asks for more than a node has."""
        n = as_int(self.flag("-n", "--nrs"))
        g = as_int(self.flag("-g", "--gpu_per_rs") or "0")
        c = as_int(self.flag("-c", "--cpu_per_rs") or "1")
        node = self.ctx.node
        cores = node.usable_cores
        if not n or g is None or not c or c > cores or g > node.devices:
            return None
        fit = min(cores // c, node.devices // g if g else cores)
        return min(fit, n)

    def _node_gpus(self, value: str | None) -> int | None:
        """The node's device count where the value counts them at run time
        (`NGPUS_PER_NODE=$(nvidia-smi -L | wc -l)`, `rocm-smi --showid | grep -c GPU`): the
        node's devices of the site's vendor (round 9, heldout-2026-11-27e)."""
        if not value:
            return None
        text = variable_value(self.ctx, value)
        gpus = self.ctx.profile.node.gpus
        vendor = gpus.vendor if gpus else None
        tool = {"nvidia": r"nvidia-smi\s+(?:-L|--list-gpus)", "amd": r"rocm-smi\b[^)]*GPU",
                "intel": r"xpu-smi\s+discovery"}.get(vendor or "")
        if tool and re.fullmatch(rf"\$\(\s*{tool}[^)]*\|\s*(?:wc\s+-l|grep\s+-c\s+\S+)\s*\)",
                                 text.strip("\"'")):
            return self.ctx.node.devices or None
        return None

    @property
    def total_ranks(self) -> int | None:
        d = self.dialect
        if d == "jsrun":
            n, a = as_int(self.flag("-n", "--nrs")), as_int(self.flag("-a", "--tasks_per_rs"))
            return n * a if n and a else None
        if d == "srun":
            # without -n (or -N of its own), srun takes the job's task count: sbatch exports
            # SLURM_NTASKS for --ntasks, which srun reads as -n (srun(1) INPUT ENVIRONMENT
            # VARIABLES: SLURM_NTASKS "Same as -n, --ntasks")
            given = self.flag("-n", "--ntasks")
            if given is None and self.flag("--nodes", "-N") is None and not self.own_hosts:
                found = self.ctx.find("--ntasks", "-n")
                given = found[-1].value if found and self.ctx.value_ok(found[-1]) else None
            return as_int(given)
        if d == "ezpz":
            return self._ezpz()[0]
        if d == "torchrun":
            return None
        if d in ("spawn", "shell"):  # every rank on the machine the script runs on
            return self.ranks_per_node
        return as_int(self.flag("-n", "-np", "--np"))

    @property
    def nodes(self) -> int | None:
        """The nodes this launch runs on: one for the batch shell's own program, those srun
        asks for (-N), those a launcher names one by one (--hosts a,b), else the job's."""
        if self.shell:
            return 1
        if self.dialect == "ezpz":  # the first hosts of the job's hostfile: the rest idle
            return None if self.own_hosts else self.ctx.nodes
        if self.dialect == "srun" and as_int(self.flag("--nodes", "-N")):
            return as_int(self.flag("--nodes", "-N"))
        hosts = self.flag("--hosts", "-hosts", "--host", "-host", "-w", "--nodelist")
        if hosts is not None:
            return None if "$" in hosts else len(hosts.split(","))
        return self.ctx.nodes

    @property
    def own_hosts(self) -> bool:
        """The launch picks its own hosts (--hosts, a hostfile other than the job's node
        file, srun -w) or runs in the background beside others (`&`): per-node launches
        that together fill the job, each on part of it."""
        if self.background or self.shell or self.remote:
            return True
        if self.flag("--hosts", "-hosts", "--host", "-host", "-w", "--nodelist") is not None:
            return True
        hostfile = self.flag("--hostfile", "-hostfile", "-f", "--machinefile", "-machinefile")
        return hostfile is not None and "PBS_NODEFILE" not in hostfile

    @property
    def bind(self) -> str | None:
        """The CPU binding flag's value, without srun's verbose/quiet prefix."""
        value = self.flag("--cpu-bind", "--cpu_bind", "-bind-to", "--bind-to", "-b", "--bind",
                          "--cc", "-cc")
        return re.sub(r"^(?:verbose|v|quiet|q),", "", value) if value is not None else None




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
            if d == "srun" and bind.split(",")[-1] == "cores":
                return _srun_core_blocks(ctx, launch)
        if d == "mpich" and bind.startswith("user:"):
            return [[int(c) for c in part.split("+")] for part in bind[5:].split(",")]
    except ValueError:
        return None
    return None


def _depth_blocks(ctx: Context, launch: LaunchView) -> list[list[int]] | None:
    depth, rpn = as_int(launch.flag("--depth", "-d")), launch.ranks_per_node
    free = [c for c in range(ctx.node.logical) if c not in ctx.node.reserved]
    if depth and rpn and depth * rpn <= len(free):  # more: CPU006's
        # Depth blocks fill the CPUs the job may use: the OS-reserved ones are not in its
        # cpuset (Aurora's docs show rank 0 on HWT 1-8 with core 0 reserved).
        return [free[i * depth:(i + 1) * depth] for i in range(rpn)]
    return None


def _srun_core_blocks(ctx: Context, launch: LaunchView) -> list[list[int]] | None:
    """`srun --cpu-bind=cores` on a node the job holds whole: Slurm gives the tasks of a node
    their cores in order, block by block, -c cores each, from the cores the job may use (the
    LUMI user guide's examples: task 0 on core 0, task 1 on core 1 with --cpu-bind=cores,
    Lumi-supercomputer/lumi-userguide @ 6c3a26c0 docs/runjobs/scheduled-jobs/
    distribution-binding.md L107-122; on LUMI-G the first core of each L3 region is not
    the job's, L228-234), each core with all its hardware threads. Only with the default
    distribution (or block:block), a known -c (srun's own, else the job's, which srun takes
    again since Slurm 23.11: threads.py) and ranks per node; None otherwise (a shared node's
    cores are Slurm's choice). Round 20, after heldout-2026-11-28n's CGDycore jobs."""
    rpn = launch.ranks_per_node
    dist = launch.flag("-m", "--distribution")
    if ctx.partition.allocation != "exclusive" or not rpn or \
            dist is not None and not re.fullmatch(r"block(?::block)?(?:,\w+)?", dist):
        return None
    given = launch.flag("-c", "--cpus-per-task")
    if given is None:
        job = ctx.find("--cpus-per-task", "-c")
        given = job[-1].value if job else "1"
    per_task = as_int(given)
    node = ctx.node

    def threads(cores: list[int]) -> list[int]:  # each core with all its hardware threads
        return logical_cpus(cores, node.cores, node.threads_per_core, node.smt_numbering, True)

    free = [c for c in range(node.cores) if node.reserved.isdisjoint(threads([c]))]
    if not per_task or per_task * rpn > len(free):
        return None  # (more than the node holds: CPU006's)
    return [threads(free[r * per_task:(r + 1) * per_task]) for r in range(rpn)]


def _mask_bits(text: str) -> list[int]:
    if len(text) > MAX_CPUS // 4 + 2:
        raise ValueError(f"mask {text[:20]}... is wider than any node")
    value = int(text, 16)
    return [i for i in range(value.bit_length()) if value >> i & 1]
