"""The site-profile model: what a machine *is* and what its documentation *recommends*.

Plain frozen dataclasses so that the render path can rebuild a cached, already validated
profile without importing pydantic; pydantic validates them (strictly: unknown keys are
errors) only when a profile's content changed, and produces the JSON Schema (`jobgen schema`).

Every site-specific value carries `why` (one line) and `source` (a key of the profile's
`references` followed by a path or section). `unconfirmed` holds the reason when no
authoritative source showed the value; `jobgen explain` flags such values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from .records import device_kind, devices_per_node

FORBID = {"extra": "forbid"}


class _Strict:
    """pydantic hook: no coercion (`port: "30000"` and `auto: "no"` are errors, not values).

    A hook object rather than pydantic.Strict keeps pydantic off the render path, which
    imports this module to rebuild cached profiles."""

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        return {**handler(source), "strict": True}


class _Matches:
    """pydantic hook: the whole string must match `pattern` (fullmatch, so no stray newline)."""

    def __init__(self, pattern: str, what: str) -> None:
        self.source = pattern  # compiled when pydantic first validates: render never does
        self.what = what

    def _check(self, value: str) -> str:
        if not re.fullmatch(self.source, value):
            raise ValueError(f"{value[:80]!r} is not {self.what}")
        return value

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        from pydantic_core import core_schema

        return core_schema.no_info_after_validator_function(self._check, handler(source))


class _Bound:
    """pydantic hook for one bound (core schema key `ge`, `le` or `min_length`): what
    annotated_types.Ge/Le/MinLen say, without importing annotated_types on the render path."""

    def __init__(self, key: str, value: int) -> None:
        self.key, self.value = key, value

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        return {**handler(source), self.key: self.value}


def Ge(value: int) -> _Bound:  # noqa: N802 (reads like annotated_types.Ge)
    return _Bound("ge", value)


def Le(value: int) -> _Bound:  # noqa: N802
    return _Bound("le", value)


def MinLen(value: int) -> _Bound:  # noqa: N802
    return _Bound("min_length", value)


STRICT = _Strict()
# Bounds keep every size the plan iterates over within what a node can hold.
PositiveInt = Annotated[int, STRICT, Ge(1), Le(1_000_000)]
NonNegInt = Annotated[int, STRICT, Ge(0), Le(1_000_000)]
StrictBool = Annotated[bool, STRICT]
NonEmptyStr = Annotated[str, MinLen(1)]
_TOKEN = r"[A-Za-z0-9_.,:/@%+=-]"
# A shell variable name (written bare: export NAME=..., "${NAME}").
Identifier = Annotated[str, _Matches(r"[A-Za-z_][A-Za-z0-9_]*", "a shell variable name")]
# One word that needs no quoting anywhere: queue and module names, commands, resources.
Token = Annotated[str, _Matches(_TOKEN + "+", "a word of letters, digits and _.,:/@%+=-")]
# A scheduler directive's value: such words separated by single spaces.
DirectiveValue = Annotated[str, _Matches(rf"{_TOKEN}+(?: {_TOKEN}+)*",
                                         "words of letters, digits and _.,:/@%+=- "
                                         "separated by single spaces")]
# The script's interpreter line: an absolute path and short options (`/bin/bash -l`).
Shebang = Annotated[str, _Matches(r"/[A-Za-z0-9_./-]+(?: -[A-Za-z]+)*",
                                  "an absolute interpreter path with options like -l")]
# A path whose only expansions are ${NAME} references (rendered double-quoted).
ExpandablePath = Annotated[str, _Matches(
    r'/(?:[^$`"\\\s]|\$\{[A-Za-z_][A-Za-z0-9_]*\})*',
    "an absolute path with only ${NAME} references")]
SITE_NAME = _Matches(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,62}", "a site name (letters, digits, _.-)")
Precision = Literal["fp32", "tf32", "bf16", "fp16"]
Dialect = Literal["pbs", "slurm", "lsf", "cobalt", "none"]
LauncherDialect = Literal["pals", "srun", "jsrun", "mpich", "openmpi", "torchrun", "spawn"]


@dataclass(frozen=True, kw_only=True)
class Sourced:
    """A fact with its reason and its public source."""

    __pydantic_config__ = FORBID
    why: NonEmptyStr
    source: NonEmptyStr
    unconfirmed: str | None = None


# ---------------------------------------------------------------- node topology
@dataclass(frozen=True, kw_only=True)
class NumaDomain:
    __pydantic_config__ = FORBID
    id: NonNegInt
    cores: NonEmptyStr  # physical core list, e.g. "0-51"


@dataclass(frozen=True, kw_only=True)
class Device(Sourced):
    """One device as the framework sees it (a GPU, a FLAT-mode tile, or a GCD)."""

    index: NonNegInt
    gpu: NonNegInt
    subdevice: NonNegInt = 0
    numa: NonNegInt | None = None
    cores: str | None = None  # physical cores nearest this device, e.g. "49-55"
    nic: str | None = None


@dataclass(frozen=True, kw_only=True)
class Gpus(Sourced):
    vendor: Literal["nvidia", "amd", "intel"]
    model: NonEmptyStr
    count: Annotated[int, STRICT, Ge(1), Le(64)]
    subdevices_per_gpu: Annotated[int, STRICT, Ge(1), Le(16)] = 1
    subdevice_name: Literal["tile", "gcd"] | None = None
    memory_gib_per_device: float | None = None
    devices: list[Device] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class Reserved(Sourced):
    cores: list[NonNegInt] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class Nics(Sourced):
    count: NonNegInt
    names: list[str] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class Broadcast(Sourced):
    """A tool that reads a file once from the shared filesystem and broadcasts it to every
    node's local storage (Aurora: mpifileutils' `dbcast SRC DEST`): --stage copies the archive
    with it, then each node unpacks its own copy, instead of every node reading the archive."""

    command: list[Token]
    module: Token | None = None
    # MPI ranks on each node (dbcast: at least two, the same number on every node)
    ranks_per_node: Annotated[int, STRICT, Ge(1), Le(256)] = 2


@dataclass(frozen=True, kw_only=True)
class LocalStorage(Sourced):
    """Storage each node has to itself: where --stage unpacks data, one copy per node."""

    path: ExpandablePath  # may reference ${USER} (Summit's /mnt/bb/${USER})
    # In memory (LUMI /tmp): what is stored there counts against the job's memory.
    memory: StrictBool = False
    # The scheduler allocation flag that makes the storage exist (LSF -alloc_flags NVME).
    alloc_flag: Token | None = None
    # Other flags that make it exist too (Summit's -alloc_flags spectral: the Spectral library
    # uses the NVMe itself)
    alloc_flag_alternatives: list[Token] = field(default_factory=list)
    broadcast: Broadcast | None = None  # how --stage copies its archive to every node


@dataclass(frozen=True, kw_only=True)
class SharedStorage(Sourced):
    """Path prefixes every node of a job sees (parallel filesystems, home): never per node."""

    paths: list[ExpandablePath]
    # Those of them the compute nodes mount read-only (Summit's NFS homes): a job submitted
    # from one could not write its outputs, so the script stops before the launch; `instead`
    # is where to submit from.
    read_only_on_compute: PathsInstead | None = None
    # Filesystems the site has decommissioned (Summit's Alpine, replaced by Alpine2): a path
    # under one names data that is no longer there; `instead` is the one that replaced them.
    retired: PathsInstead | None = None


@dataclass(frozen=True, kw_only=True)
class PathsInstead(Sourced):
    """Plain absolute path prefixes, and what to use instead of them (said in the message)."""

    paths: list[Annotated[str, _Matches(r"/[A-Za-z0-9._/+@-]*", "an absolute plain path")]]
    # What to use instead, said in the finding (or when the script stops).
    instead: NonEmptyStr


@dataclass(frozen=True, kw_only=True)
class Node(Sourced):
    sockets: Annotated[int, STRICT, Ge(1), Le(64)]
    cores_per_socket: Annotated[int, STRICT, Ge(1), Le(4096)]
    threads_per_core: Annotated[int, STRICT, Ge(1), Le(16)] = 1
    # blocked: logical CPU of thread t on core c is c + t*cores (Linux on x86);
    # interleaved: c*threads_per_core + t (POWER9 on Summit).
    smt_numbering: Literal["blocked", "interleaved"] = "blocked"
    reserved: Reserved | None = None
    numa: list[NumaDomain] = field(default_factory=list)
    gpus: Gpus | None = None
    nics: Nics | None = None
    local_storage: LocalStorage | None = None
    shared_storage: SharedStorage | None = None


# ---------------------------------------------------------------- scheduler
@dataclass(frozen=True, kw_only=True)
class Directive(Sourced):
    """A fixed scheduler directive, written verbatim after the dialect's prefix."""

    value: DirectiveValue


@dataclass(frozen=True, kw_only=True)
class WalltimeLimit:
    __pydantic_config__ = FORBID
    max_nodes: PositiveInt
    max_walltime: NonEmptyStr


@dataclass(frozen=True, kw_only=True)
class JobLimit(Sourced):
    """How many jobs a queue holds for one user (or one project) at once, as the site states
    it. `jobgen sweep` warns when a sweep needs more; `jobgen submit` holds back the rest."""

    per: Literal["user", "project"]
    # Jobs queued, waiting and running together: the scheduler refuses more at submission.
    max_jobs: PositiveInt | None = None
    # Jobs running (or accruing priority) at once: more wait in the queue.
    max_running: PositiveInt | None = None


@dataclass(frozen=True, kw_only=True)
class ByResource(Sourced):
    """How a queue allocated by resource binds a job that uses part of a node (what it
    charges: scheduler.billing)."""


@dataclass(frozen=True, kw_only=True)
class Queue(Sourced):
    name: Token
    min_nodes: PositiveInt = 1
    # None where no public source states the limit: jobgen then cannot check it and says so.
    max_nodes: PositiveInt | None
    max_walltime: str | None
    # What the queue is for. production: chosen automatically when it fits; debug: for
    # debugging and tests only, chosen automatically (with a warning) only when no production
    # queue fits; by_request: never chosen automatically (access on request, preemptable...).
    purpose: Literal["production", "debug", "by_request"] = "production"
    walltime_limits: list[WalltimeLimit] = field(default_factory=list)
    # Directives this queue needs beside the partition line (LUMI small-g: --exclusive).
    # On a queue allocated by resource they are for jobs that use every device of their
    # nodes (full-node binding): a job using fewer gets neither them nor CPU masks.
    directives: list[Directive] = field(default_factory=list)
    # Allocated (and billed) by resource rather than by node: a job that uses fewer devices
    # than a node has asks for just those (LUMI small-g, dev-g).
    by_resource: ByResource | None = None
    notes: str = ""
    # The shortest walltime the queue accepts (PBS refuses shorter jobs at qsub); None: no floor.
    min_walltime: str | None = None
    # Per-user and per-project job limits (optional: a queue without them is not checked).
    job_limits: list[JobLimit] = field(default_factory=list)
    # The queue's nodes may run other jobs beside this one (Aurora's debug queue: "64 nodes
    # (non-exclusive)"), so devices a job leaves unused are not held idle for it.
    shared_nodes: bool = False
    # The queue a job goes to when it names none (Summit: bsub "Job <...> is submitted to
    # default queue <batch>"): lint holds a script without a queue to its limits.
    default: StrictBool = False


@dataclass(frozen=True, kw_only=True)
class UnlistedFilesystems(Sourced):
    """Filesystems the guide no longer lists as valid but that qsub has been seen to take
    (Polaris's grand): asking for one is a note, not a refusal."""

    names: list[Token]


@dataclass(frozen=True, kw_only=True)
class Filesystems(Sourced):
    default: list[Token]
    valid: list[Token]
    unlisted: UnlistedFilesystems | None = None


@dataclass(frozen=True, kw_only=True)
class Flag(Sourced):
    value: DirectiveValue


@dataclass(frozen=True, kw_only=True)
class Preemption(Sourced):
    """How the scheduler warns a job before it ends it, and how the job comes back.

    The script traps `signal` (and TERM), forwards it to the ranks so the workload
    checkpoints, and, with --requeue, puts the job back in the queue: `scontrol` requeues it
    from the script (Slurm, counting with SLURM_RESTART_COUNT); `brequeue` requeues it from
    the script (LSF's brequeue, counting in a file beside the job directory, as LSF keeps no
    count) and marks it rerunnable (-r); `rerunnable` only marks it for the scheduler to rerun
    after preemption (PBS -r y).
    """

    signal: Literal["USR1", "USR2", "TERM"] = "USR1"
    # None: the scheduler sends the signal when it preempts or kills the job, without warning.
    lead_seconds: Annotated[int, STRICT, Ge(1), Le(86400)] | None = 120
    requeue: Literal["scontrol", "brequeue", "rerunnable", "none"] = "none"


@dataclass(frozen=True, kw_only=True)
class BillingSlices(Sourced):
    """Partitions allocated by resources and billed by the largest share of a node that a job
    takes (LUMI small-g, dev-g): `rate` units per slice-hour, a slice being
    max(ceil(cores / cores_per_slice), ceil(memory / memory_gb_per_slice), devices)."""

    partitions: list[Token]
    rate: Annotated[float, STRICT, Ge(0), Le(1_000_000)]
    cores_per_slice: PositiveInt
    memory_gb_per_slice: PositiveInt
    # the node's CPU memory, what `--mem=0` (all of it) allocates and so bills
    node_memory_gb: PositiveInt | None = None


@dataclass(frozen=True, kw_only=True)
class Billing(Sourced):
    """How the site charges a job, in its own unit: `per_node_hour` units for every node-hour
    of a whole-node queue (ALCF and OLCF node-hours, LUMI standard-g's 4 GPU-hours), and the
    partitions billed by resources instead (`slices`). The bill jobgen states is the most the
    job can cost: nodes x the walltime asked for."""

    unit: NonEmptyStr
    per_node_hour: Annotated[float, STRICT, Ge(0), Le(1_000_000)]
    slices: BillingSlices | None = None


@dataclass(frozen=True, kw_only=True)
class AccountEnv(Sourced):
    """Variables of the submitting shell that give a job its project instead of the
    directive (LUMI: SBATCH_ACCOUNT in ~/.bashrc): a script without one may still be charged."""

    names: list[Identifier]


@dataclass(frozen=True, kw_only=True)
class Scheduler(Sourced):
    dialect: Dialect
    shell: Shebang = "/bin/bash"  # the script's interpreter line; ALCF documents bash -l
    account_required: StrictBool = False
    account_env: AccountEnv | None = None
    account_directive: StrictBool = True
    system_resource: Token | None = None  # PBS: select=N:system=<name>
    filesystems: Filesystems | None = None
    directives: list[Directive] = field(default_factory=list)
    alloc_flags: list[Flag] = field(default_factory=list)  # LSF: one quoted -alloc_flags
    queues: list[Queue] = field(default_factory=list)
    default_walltime: str = "00:30:00"
    gpus_per_node_directive: StrictBool = False  # Slurm: --gpus-per-node
    preemption: Preemption | None = None
    # What a job costs, in the site's unit (jobgen.plan.billing); None: no public rule.
    billing: Billing | None = None
    # Directives the site's documentation warns against (lint reports them), e.g. PBS -V.
    avoid: list[Directive] = field(default_factory=list)


# ---------------------------------------------------------------- launcher
@dataclass(frozen=True, kw_only=True)
class RankEnv(Sourced):
    """The launcher's own variables the per-rank wrapper maps to torch's names."""

    rank: Identifier
    local_rank: Identifier
    world_size: Identifier | None = None
    local_size: Identifier | None = None


@dataclass(frozen=True, kw_only=True)
class Master(Sourced):
    """Where the rendezvous (MASTER_ADDR) comes from."""

    method: Literal["hostfile", "slurm", "lsf", "localhost"]
    hostfile: Identifier | None = None  # variable holding the host list, e.g. PBS_NODEFILE
    # appended to the short host name (the high-speed network name)
    suffix: Annotated[str, _Matches(_TOKEN + "*", "a host-name suffix")] = ""
    port: Annotated[int, STRICT, Ge(1024), Le(65535)] = 29500


@dataclass(frozen=True, kw_only=True)
class RankSignal(Sourced):
    """How a signal reaches the ranks when signalling the launcher process may not (IBM jskill).

    `command` is the command's words; the word SIGNUM stands for the signal's number.
    """

    command: list[Token]


@dataclass(frozen=True, kw_only=True)
class Launcher(Sourced):
    dialect: LauncherDialect
    command: Token
    rank_env: RankEnv
    master: Master
    args: list[Flag] = field(default_factory=list)
    # None: the launcher passes the signals it gets on to the ranks (srun, mpiexec, mpirun).
    signal_ranks: RankSignal | None = None
    # Where no documented module provides `command`: the script checks that it is on PATH
    # before any rank starts and prints this hint when it is not (JLSE's mpirun).
    check_hint: str | None = None
    # How one-node jobs start their ranks where `command` is not documented (JLSE's mpirun):
    # replaces this launcher when --nodes is 1.
    single_node: Launcher | None = None


# ---------------------------------------------------------------- placement
@dataclass(frozen=True, kw_only=True)
class BindRecipe(Sourced):
    """A documented binding: the physical cores of each local rank, in rank order."""

    ranks_per_node: Annotated[int, STRICT, Ge(1), Le(4096)]
    cpus: list[NonEmptyStr]
    framework: Literal["pytorch", "tensorflow"] | None = None
    extra_env: list[EnvVar] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class TorchrunBinding(Sourced):
    """How the site's guide binds the workers torchrun starts on a node (one launcher task per
    node, which no srun/mpiexec binding can split among its workers): a torchrun option."""

    option: Token  # e.g. --numa-binding=exclusive


@dataclass(frozen=True, kw_only=True)
class CpuBinding(Sourced):
    # list: explicit per-rank lists; depth: contiguous blocks (PALS --depth);
    # mask: hexadecimal masks (srun mask_cpu); jsrun: resource-set packing; none: no binding.
    style: Literal["list", "depth", "mask", "jsrun", "none"]
    include_smt_siblings: StrictBool = False
    recipes: list[BindRecipe] = field(default_factory=list)
    verbose: StrictBool = False
    torchrun: TorchrunBinding | None = None


@dataclass(frozen=True, kw_only=True)
class WholeGpu(Sourced):
    """With no more ranks per node than GPUs, each rank drives a whole GPU (all of its
    sub-devices, "implicit scaling") instead of one sub-device; `env` switches the device
    hierarchy for it and replaces the profile's settings of the same names."""

    env: list[EnvVar] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class GpuAffinity(Sourced):
    # How a rank comes to use its device, as the site documents it.
    # mask: the wrapper narrows visibility to the rank's device, the program uses device 0;
    # all_visible: every rank sees every device of its node and the program selects device
    # LOCAL_RANK // ranks-per-device (ALCF's frameworks examples, Summit resource sets);
    # none: CPU only.
    scheme: Literal["mask", "all_visible", "none"]
    variable: Identifier | None = None
    order: list[NonNegInt] = field(default_factory=list)  # device for local rank i: order[i]
    # the site's own per-rank wrapper that applies `order` (Polaris: set_affinity_gpu_polaris.sh)
    wrapper: Token | None = None
    hierarchy: Literal["FLAT", "COMPOSITE"] | None = None
    whole_gpu: WholeGpu | None = None


@dataclass(frozen=True, kw_only=True)
class DeviceSharing(Sourced):
    """Several processes on one device (--ranks-per-device, --instances-per-device), as the
    site documents it.

    mps: NVIDIA MPS daemon started and stopped once per node around the launch;
    ccs: Intel compute command streamers (ZEX_NUMBER_OF_CCS per device);
    alloc_flag: a scheduler allocation flag turns the sharing service on (LSF gpumps);
    concurrent: the device accepts several processes as they are (AMD GPUs).
    """

    method: Literal["mps", "ccs", "alloc_flag", "concurrent"]
    ranks_per_device: list[Annotated[int, STRICT, Ge(1), Le(64)]]
    alloc_flag: Token | None = None
    # jsrun: with sharing, one resource set per device (-g 1 and that device's share of its
    # socket's cores) instead of one per node, so that jsrun itself keeps the ranks of a GPU
    # on its socket and shows them only that GPU (Summit "Multiple tasks, single GPU per RS").
    resource_set_per_device: StrictBool = False
    env: list[EnvVar] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class FrameworkVariant(Sourced):
    """How a framework module release talks between ranks (first matching `since` wins)."""

    since: str | None = None  # module version from which this applies; None: any older one
    backend: Literal["nccl", "xccl", "ccl", "gloo"]
    ipex: StrictBool = False
    # The documented module versions of this variant; when any variant lists releases, a
    # requested version must be one of them (no guessing from a version that does not exist).
    releases: list[Token] = field(default_factory=list)
    # The release carries TensorFlow beside PyTorch (ALCF's frameworks module before TensorFlow
    # got a module of its own): loading it for a TensorFlow program is right.
    carries_tensorflow: StrictBool = False


@dataclass(frozen=True, kw_only=True)
class FrameworkStack(Sourced):
    module: Token  # the module name whose versions select a variant, e.g. frameworks
    variants: list[FrameworkVariant]


@dataclass(frozen=True, kw_only=True)
class ImageFamily(Sourced):
    """Images under given directories that need their own bindings and Python activation
    (LUMI: LUST's sif-images need singularity-AI-bindings and $WITH_CONDA, the AI Factory's
    images lumi-aif-singularity-bindings)."""

    image_prefixes: list[Token]
    # The profile's module commands (by name) that this family's modules replace.
    replaces: list[Token] = field(default_factory=list)
    modules: list[ModuleCommand] = field(default_factory=list)
    # A variable set inside the image whose value activates its Python (LUMI's WITH_CONDA).
    activate_var: Identifier | None = None
    # Said at render when a bundled app of this framework runs in such an image.
    app_warnings: dict[Literal["pytorch", "tensorflow"], NonEmptyStr] = \
        field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class ContainerRuntime(Sourced):
    """How to run a user's own image (--container)."""

    runtime: Literal["singularity", "apptainer"]
    module: Token | None = None  # loaded before the runtime is used
    binds: list[Token] = field(default_factory=list)
    exec_args: list[Token] = field(default_factory=list)
    python: Token = "python3"
    # What a user's own image must provide to run well here, said once when --container is used.
    hint: str | None = None
    # With --container: module commands after `module` (Polaris: spack-pe-base, apptainer,
    # cray-mpich-abi), the job's environment for the runtime and the image (APPTAINERENV_X sets
    # X inside it only), and scheduler directives (PBS -l singularity_fakeroot=true).
    modules: list[ModuleCommand] = field(default_factory=list)
    env: list[EnvVar] = field(default_factory=list)
    directives: list[Directive] = field(default_factory=list)
    # Images that need other module commands than the profile's (first matching prefix wins).
    families: list[ImageFamily] = field(default_factory=list)


# ---------------------------------------------------------------- software environment
@dataclass(frozen=True, kw_only=True)
class When:
    """Conditions under which an env var applies; all given ones must hold."""

    __pydantic_config__ = FORBID
    min_nodes: PositiveInt | None = None
    max_nodes: PositiveInt | None = None
    precision: list[Precision] = field(default_factory=list)
    framework: Literal["pytorch", "tensorflow"] | None = None
    # true: only where the framework stack imports intel_extension_for_pytorch; false: only
    # where it does not
    ipex: StrictBool | None = None
    # true: only with --container; false: only without (a host stack's setting that Apptainer
    # would pass into the image, where the site's container recipe does not set it)
    container: StrictBool | None = None


@dataclass(frozen=True, kw_only=True)
class EnvVar(Sourced):
    name: Identifier
    value: str | None = None
    # set: NAME=value; prepend: NAME=value:$NAME; unset: unset NAME
    action: Literal["set", "prepend", "unset"] = "set"
    # expand: value may reference ${VAR} (rendered in double quotes); otherwise literal.
    expand: StrictBool = False
    when: When | None = None
    # The value is a directory on node-local storage: the script creates it once on every node
    # before the launch and removes it at exit (MIOpen's caches on LUMI's /tmp).
    node_dir: StrictBool = False
    # The value is a directory the script makes once, on the batch node, before the launch
    # (mkdir -p) and keeps: a cache on shared scratch (LUMI's TORCH_HOME), or where the site's
    # own job script makes it there (Polaris' APPTAINER_TMPDIR).
    make_dir: StrictBool = False
    # The documented set this variable belongs to when the set is essential (e.g. "oneCCL
    # minimal set"): lint reports a script that drops a member.
    required: str | None = None
    # A module that already sets this value: a script loading it need not export it again.
    preset_by: Token | None = None


@dataclass(frozen=True, kw_only=True)
class ModuleCommand(Sourced):
    action: Literal["use", "load", "unload", "purge"]
    name: Token | None = None
    # Only for this --framework (the site ships the frameworks in different modules).
    framework: Literal["pytorch", "tensorflow"] | None = None
    # false: not with --container (the host's framework stack, which the image replaces)
    container: StrictBool | None = None


@dataclass(frozen=True, kw_only=True)
class Container(Sourced):
    runtime: Literal["singularity", "apptainer"]
    image: Token
    binds: list[Token] = field(default_factory=list)
    python: Token = "python"
    # A variable set inside the image whose value activates its Python (LUMI's WITH_CONDA).
    activate_var: Identifier | None = None


@dataclass(frozen=True, kw_only=True)
class Python(Sourced):
    executable: Token = "python3"
    # false: the site provides no framework environment, so a bundled app needs --python
    # (your environment's interpreter) or --container.
    provides_framework: StrictBool = True
    conda_env: Token | None = None
    venv: Token | None = None
    container: Container | None = None


@dataclass(frozen=True, kw_only=True)
class FrameworkSupport(Sourced):
    """What the site's documented software offers one framework's bundled apps. Unavailable:
    `--framework F --app A` is refused (why and source in the message) unless --container
    brings the framework; available: the note shows in `explain`."""

    available: StrictBool = True
    # Where unavailable: the documented way to run this framework here instead, said in the
    # refusal (e.g. the site's own image with it, for --container).
    instead: str | None = None
    # How this framework's ranks start where the profile's launcher does not suit it (a
    # TensorFlow environment has no torchrun): replaces `launcher` for --framework F.
    launcher: Launcher | None = None


@dataclass(frozen=True, kw_only=True)
class Precisions(Sourced):
    default: Precision
    supported: list[Precision]


@dataclass(frozen=True, kw_only=True)
class Copper(Sourced):
    module: Token
    launch: Token
    stop: Token
    mount: ExpandablePath
    service_cores: list[NonNegInt] = field(default_factory=list)


# ---------------------------------------------------------------- machine size
@dataclass(frozen=True, kw_only=True)
class SizeWarning(Sourced):
    """A job size the site's documentation warns about: a job of more than `above_nodes`
    nodes gets `why` as a warning (e.g. Aurora's early-user advice to stay at 2048 or less)."""

    above_nodes: PositiveInt


@dataclass(frozen=True, kw_only=True)
class FullMachineRoute(Sourced):
    """What the site's documentation says to do for a job larger than its queues take, or
    for the whole machine: a reservation, a full-machine slot. `route` is one line."""

    route: NonEmptyStr


@dataclass(frozen=True, kw_only=True)
class Machine(Sourced):
    """How many nodes the machine has: no job can be larger (why/source: where it says so)."""

    nodes: PositiveInt
    size_warnings: list[SizeWarning] = field(default_factory=list)
    full_machine: FullMachineRoute | None = None


# ---------------------------------------------------------------- profiling and monitoring
@dataclass(frozen=True, kw_only=True)
class ProfilerTool(Sourced):
    """A vendor profiler the site documents, wrapped around the chosen ranks' program only
    (`--profile NAME`); the other ranks start unchanged.

    `command`: the tool's words before the program. A word starting with OUTPUT stands for
    the rank's own output path without suffix (the rest of the word is kept), e.g. `-o
    OUTPUT` or `OUTPUT.csv`. The words go after the program's container prefix, so a tool
    that a site ships inside its container image runs there.
    """

    name: Literal["nsys", "rocprof", "rocprofv3", "unitrace", "vtune"]
    command: list[Token]
    # profiler_api: the tool records only between the program's profiler start and stop
    # (nsys -c cudaProfilerApi; the bundled apps call them at the chosen steps); whole: the
    # tool records the whole process of each chosen rank.
    capture: Literal["profiler_api", "whole"] = "whole"
    module: Token | None = None  # loaded before the launch (the tool's module)
    # The tool cannot make its output directory (unitrace up to pti-gpu 0.17.0 exits when
    # it cannot open its files there): the wrapper makes OUTPUT/ before the tool starts.
    # (Every profiled rank gets a short TMPDIR of its own whatever the tool: the wrapper.)
    make_dir: StrictBool = False
    output: NonEmptyStr = "OUTPUT"  # what it writes per rank, in the same OUTPUT notation


@dataclass(frozen=True, kw_only=True)
class GpuMonitor(Sourced):
    """The site's GPU sampler (`--monitor`): `command` prints samples as text; the word
    INTERVAL stands for the seconds between samples."""

    command: list[Token]
    # true: the tool samples every INTERVAL by itself until stopped (nvidia-smi -l, xpu-smi
    # dump -i); false: it prints one sample and the monitor runs it every INTERVAL.
    stream: StrictBool = True
    format: Literal["nvidia-smi", "rocm-smi", "xpu-smi"]
    module: Token | None = None
    in_container: StrictBool = False  # runs inside the site's container (the tool is there)


@dataclass(frozen=True, kw_only=True)
class Monitoring(Sourced):
    """How the per-node monitors run beside the job (`--monitor`)."""

    gpu: GpuMonitor | None = None
    # Words added to the site's per-node launch so that it runs beside the ranks' launch
    # (srun --overlap: Slurm steps do not share CPUs otherwise).
    launch_args: list[Token] = field(default_factory=list)
    # false: the site's per-node launch cannot run beside the ranks' launch (jsrun steps never
    # share cores); --monitor is refused with `why`.
    available: StrictBool = True


@dataclass(frozen=True, kw_only=True)
class EveryRankProfiling(Sourced):
    """How the site's guide names one report per rank (the rank variable in -o)."""

    rank_variables: list[Identifier]


@dataclass(frozen=True, kw_only=True)
class Profiling:
    """The site's documented profilers and monitors (`--profile`, `--monitor`)."""

    __pydantic_config__ = FORBID
    tools: list[ProfilerTool] = field(default_factory=list)
    monitor: Monitoring | None = None
    # the site's guide profiles every rank of a launch, one named report per rank (OLCF
    # Summit: jsrun -n6 ... nsys profile -o name_%q{OMPI_COMM_WORLD_RANK})
    every_rank: EveryRankProfiling | None = None



# ---------------------------------------------------------------- facts lint reads

# Optional facts a profile may carry beyond what render needs; `jobgen lint` reads them to
# decide which of its rules apply to a hand-written script and with which numbers.
@dataclass(frozen=True, kw_only=True)
class FamilyNode:
    """The hardware of a partition family whose nodes differ from the profile's `node`."""

    __pydantic_config__ = FORBID
    sockets: Annotated[int, STRICT, Ge(1), Le(64)]
    cores_per_socket: Annotated[int, STRICT, Ge(1), Le(4096)]
    threads_per_core: Annotated[int, STRICT, Ge(1), Le(16)] = 1
    devices: NonNegInt = 0  # GPU devices a program sees per node; 0: CPU only
    reserved_cores: list[NonNegInt] = field(default_factory=list)
    # GPUs the scheduler can allocate on these nodes although programs do not compute on them
    # (LUMI-D's visualisation A40s); with no devices and none of these, a GPU request is refused.
    gres_gpus: NonNegInt = 0


@dataclass(frozen=True, kw_only=True)
class RamfsCap(Sourced):
    """In-memory /tmp capped on some partitions unless the job takes whole nodes' memory."""

    partitions: list[Token]
    gib: PositiveInt
    unless: list[DirectiveValue]  # directives that lift the cap, all of them (--exclusive)


@dataclass(frozen=True, kw_only=True)
class PartitionFamily(Sourced):
    """Partitions (queues) on one kind of node, each allocated by node (`exclusive`: the job
    has, and is billed for, whole nodes) or by resources (`shared`: nodes shared with other
    jobs, billed for what is asked)."""

    name: Token
    partitions: dict[Token, Literal["exclusive", "shared"]]
    node: FamilyNode | None = None  # None: the profile's node
    # The limits of partitions that scheduler.queues does not list (LUMI-C's for a LUMI-G
    # profile): lint checks scripts against them, render never chooses them.
    queues: list[Queue] = field(default_factory=list)
    ramfs_caps: list[RamfsCap] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class EnvSet(Sourced):
    """Variables the site's documentation asks for together, for the programs that use one
    communication library: `oneccl`, `nccl`, `rccl` (their collectives), `miopen` (AMD's
    deep-learning kernels), or `ai` (any AI framework)."""

    name: NonEmptyStr
    applies_to: Literal["oneccl", "nccl", "rccl", "miopen", "ai"]
    members: list[Identifier]
    min_nodes: PositiveInt | None = None
    # Modules that provide the same settings: a script loading one needs none of the members.
    unless_modules: list[Token] = field(default_factory=list)
    # Programs the site's page exempts from the set (their own launcher word, or the Python
    # module they run as: `vllm serve`, `python -m vllm.entrypoints...`).
    not_for_programs: list[Token] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class HierarchyMode(Sourced):
    name: Literal["FLAT", "COMPOSITE"]
    devices: PositiveInt  # devices a program sees per node in this mode


@dataclass(frozen=True, kw_only=True)
class HierarchyFlag(Sourced):
    """A launcher flag that fails under some device hierarchy modes."""

    flag: Token
    fails_under: list[Literal["FLAT", "COMPOSITE"]]
    error: NonEmptyStr  # what the launch prints


@dataclass(frozen=True, kw_only=True)
class HierarchyWrapper(Sourced):
    """A per-rank device wrapper that needs one hierarchy mode, and the modules with which
    the documentation advises against it."""

    name: Token
    requires: Literal["FLAT", "COMPOSITE"]
    advised_against_with: list[Token] = field(default_factory=list)
    # The device (its index among node.gpus.devices) the wrapper gives local rank
    # LOCAL_RANK, as shell arithmetic: lint pairs it with the rank's CPUs (CPU007).
    device_of_rank: NonEmptyStr | None = None


@dataclass(frozen=True, kw_only=True)
class DeviceHierarchy(Sourced):
    """Intel GPUs: FLAT (every tile a device) or COMPOSITE (every GPU a device)."""

    variable: Identifier
    default: Literal["FLAT", "COMPOSITE"]  # without the variable or a module setting it
    modules: dict[Token, Literal["FLAT", "COMPOSITE"]] = field(default_factory=dict)
    modes: list[HierarchyMode] = field(default_factory=list)
    launcher_flags: list[HierarchyFlag] = field(default_factory=list)
    wrappers: list[HierarchyWrapper] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class Runscript(Sourced):
    """What an image's runscript (`singularity run`, `apptainer run`) does to the
    environment: it copies the variables in `copies` (source -> target) before the program."""

    image_prefix: ExpandablePath
    copies: dict[Identifier, Identifier]


@dataclass(frozen=True, kw_only=True)
class FlagResource(Sourced):
    """A container flag that works only when the job asked the scheduler for a resource
    (Polaris: --fakeroot needs `-l singularity_fakeroot=true`)."""

    flag: Token
    key: NonEmptyStr  # as lint reads directives: `-l singularity_fakeroot`
    value: Token  # true


@dataclass(frozen=True, kw_only=True)
class FilesystemBinds(Sourced):
    """Filesystems a container sees only when bound into it (LUMI: /project, /scratch, /flash,
    /appl; Singularity mounts $HOME and /tmp by itself), and the modules that bind them."""

    prefixes: list[Token]
    modules: list[Token] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class BindingModules(Sourced):
    """Modules, named by a pattern, that set the container bind variables themselves (LUMI's
    EasyBuild-generated container modules, PyTorch/...-singularity-YYYYMMDD): with one loaded,
    the network and the filesystems are bound without -B or a bindings module."""

    pattern: NonEmptyStr  # a Python regular expression searched in the module's name


@dataclass(frozen=True, kw_only=True)
class ContainerFacts(Sourced):
    """How containers must run on the compute nodes."""

    # Flags the container runtime needs on compute nodes (Polaris: exec --fakeroot).
    compute_node_flags: list[Token] = field(default_factory=list)
    # What a multi-node run needs for the high-speed network: one of these modules loaded,
    # or every one of these paths bound into the container.
    multi_node_modules: list[Token] = field(default_factory=list)
    multi_node_binds: list[Token] = field(default_factory=list)
    runscripts: list[Runscript] = field(default_factory=list)
    flag_resources: list[FlagResource] = field(default_factory=list)
    filesystem_binds: FilesystemBinds | None = None
    binding_modules: BindingModules | None = None


@dataclass(frozen=True, kw_only=True)
class RequiredDirective(Sourced):
    """A directive the site's scheduler refuses a job without (Summit: -nnodes)."""

    key: NonEmptyStr  # as lint reads directives: `-nnodes`, `-l walltime`
    example: DirectiveValue
    # What scripts write instead, which another rule reports (LSF001: --nnodes, -n).
    written_as: list[NonEmptyStr] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class SchedulerFacts:
    __pydantic_config__ = FORBID
    required: list[RequiredDirective] = field(default_factory=list)
    array_limits: list[ArrayLimit] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class ArrayLimit(Sourced):
    """How many subjobs of a job array a queue holds queued or running at once: more become
    eligible than that, and the rest never run (Polaris prod)."""

    queue: NonEmptyStr
    subjobs: PositiveInt


@dataclass(frozen=True, kw_only=True)
class BatchHost(Sourced):
    """Where the batch script itself runs when it is not the first compute node: a shared
    launch node (Summit), from which only the launcher reaches the compute nodes."""

    kind: Literal["launch_node"]


@dataclass(frozen=True, kw_only=True)
class DefaultBind(Sourced):
    """The binding the launcher applies when the script gives none (jsrun: packed:1)."""

    flag: Token
    value: Token
    cores_per_task: PositiveInt  # cores each task is bound to under that default


@dataclass(frozen=True, kw_only=True)
class ArgConflict(Sourced):
    """Values of one launcher option that must not be combined."""

    flag: Token  # --smpiargs
    values: list[Token]


@dataclass(frozen=True, kw_only=True)
class DocumentedBinding(Sourced):
    """A binding the site's guide gives on purpose although it puts some ranks on another NUMA
    domain than their device: lint notes it (info) with the list that keeps them together."""

    bind: Token  # the launcher's binding value, e.g. depth
    depth: PositiveInt | None = None
    ranks_per_node: PositiveInt
    instead: Token  # the binding that keeps each rank next to its device


@dataclass(frozen=True, kw_only=True)
class LaunchFacts:
    __pydantic_config__ = FORBID
    batch_host: BatchHost | None = None
    default_bind: DefaultBind | None = None
    conflicts: list[ArgConflict] = field(default_factory=list)
    documented_bindings: list[DocumentedBinding] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class FilesystemNeed(Sourced):
    """A storage service a job reaches only when it names one of `filesystems` in its
    -l filesystems request (Aurora's DAOS: the agent starts in the job's prologue)."""

    service: NonEmptyStr
    filesystems: list[Token]
    signs: list[NonEmptyStr]  # words in a command that show the script uses the service


@dataclass(frozen=True, kw_only=True)
class StorageFacts:
    __pydantic_config__ = FORBID
    filesystem_needs: list[FilesystemNeed] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class UnreadEffect(Sourced):
    """What happens when a library never reads a variable (a misspelt name): `warning` where
    it falls back to a working default, else ENV001 reports an error."""

    name: Identifier
    severity: Literal["warning", "info"]
    effect: NonEmptyStr


@dataclass(frozen=True, kw_only=True)
class ModuleNeed(Sourced):
    """A setting that works only with a module loaded (a default module the script unloads)."""

    variable: Identifier
    value: NonEmptyStr
    module: Token
    error: NonEmptyStr  # what the program prints without it


@dataclass(frozen=True, kw_only=True)
class SocketInterfaces(Sourced):
    """The node's IP interfaces on the high-speed network, which variables such as
    NCCL_SOCKET_IFNAME select by prefix."""

    names: list[Token]
    variables: list[Identifier]


@dataclass(frozen=True, kw_only=True)
class DocumentedModules(Sourced):
    """Module names (without version) the site's guide loads or lists: a name a letter or a
    swap away from one of them is most likely misspelt."""

    names: list[Token]


@dataclass(frozen=True, kw_only=True)
class ModuleStatus(Sourced):
    """Module versions a site removed (a `module load` of one fails) or superseded (they
    still load; the site asks users to move)."""

    status: Literal["removed", "outdated"]
    names: list[NonEmptyStr]  # name/version as `module load` takes it
    instead: NonEmptyStr


@dataclass(frozen=True, kw_only=True)
class ModulePath(Sourced):
    """A module tree outside the default MODULEPATH: its modules load only after
    `module use PATH`."""

    path: NonEmptyStr
    modules: list[NonEmptyStr]  # module names (without version) that live there


@dataclass(frozen=True, kw_only=True)
class InstallTree(Sourced):
    """Where the site installs its modules' software, one directory per name and version
    (Summit: /sw/summit/cuda/10.1.243/...): a path into a removed version is gone with it."""

    root: Token


@dataclass(frozen=True, kw_only=True)
class ModuleFacts:
    __pydantic_config__ = FORBID
    statuses: list[ModuleStatus] = field(default_factory=list)
    paths: list[ModulePath] = field(default_factory=list)
    documented: DocumentedModules | None = None
    install_tree: InstallTree | None = None



@dataclass(frozen=True, kw_only=True)
class EnvFacts:
    __pydantic_config__ = FORBID
    unread: list[UnreadEffect] = field(default_factory=list)
    module_needs: list[ModuleNeed] = field(default_factory=list)
    socket_interfaces: SocketInterfaces | None = None


@dataclass(frozen=True, kw_only=True)
class Profile:
    """A whole site profile, after `extends` is merged."""

    __pydantic_config__ = FORBID
    name: Annotated[str, SITE_NAME]
    description: NonEmptyStr
    status: Literal["production", "test", "decommissioned", "local"]
    # What the site says of that status, quoted in the warning (Summit: decommissioned when).
    status_note: str | None = None
    references: dict[str, str]
    node: Node
    scheduler: Scheduler
    launcher: Launcher
    cpu_binding: CpuBinding
    gpu_affinity: GpuAffinity
    precision: Precisions
    python: Python
    modules: list[ModuleCommand] = field(default_factory=list)
    env: list[EnvVar] = field(default_factory=list)
    copper: Copper | None = None
    profiling: Profiling | None = None
    device_sharing: DeviceSharing | None = None
    framework_stack: FrameworkStack | None = None
    frameworks: dict[Literal["pytorch", "tensorflow"], FrameworkSupport] = field(
        default_factory=dict)
    containers: ContainerRuntime | None = None
    # The machine's size and the documented advice on big jobs; None: not known (no check).
    machine: Machine | None = None
    # Ranks per node when the user gives none; GPU sites default to one rank per device.
    default_ranks_per_node: Annotated[int, STRICT, Ge(1), Le(4096)] | None = None
    extends: Annotated[str, SITE_NAME] | None = None
    # Facts `jobgen lint` reads (render does not): partition families, documented sets of
    # variables, device hierarchy rules, container rules.
    partition_families: list[PartitionFamily] = field(default_factory=list)
    env_sets: list[EnvSet] = field(default_factory=list)
    device_hierarchy: DeviceHierarchy | None = None
    container_facts: ContainerFacts | None = None
    scheduler_facts: SchedulerFacts | None = None
    launch_facts: LaunchFacts | None = None
    storage_facts: StorageFacts | None = None
    env_facts: EnvFacts | None = None
    module_facts: ModuleFacts | None = None

    # Derived values, shared with the render path's light records (jobgen.profiles.records).
    devices_per_node = property(devices_per_node)
    device_kind = property(device_kind)
