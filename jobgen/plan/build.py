"""Request -> plan: all resource arithmetic and all validation of a render request.

Pure Python, no I/O beyond reading an app manifest, no templates. The plan is what tests
assert on, `explain` prints and `diff` compares; the templates only turn it into text.
"""

from __future__ import annotations

import re

from .. import __version__
from ..errors import JobgenError
from ..frozen import Frozen, field_names, replace
from ..profiles.facts import EnvSetting, Fact, with_site_refs
from ..profiles.load import LoadedProfile
from ..profiles.walltime import hms, parse_walltime
from ..shell import NAME, Expand, Var, Word, join, quote, split
from .apps import App, check_app_args, load_app
from .billing import Bill, bill_for
from .extras import (
    Backend,
    CopperStep,
    FrameworkChoice,
    StageStep,
    container_prefix,
    container_setup,
    copper_pieces,
    device_selection,
    dist_backend,
    framework_choice,
    image_family,
    replaced_modules,
    sharing_pieces,
    stage_step,
)
from .launchers import (
    LAUNCHERS,
    PER_NODE,
    LaunchArg,
    LaunchShape,
    cpus_per_rank,
    framework_launcher,
    single_node_launcher,
)
from .launchopts import launcher_args, refuse_nested_launcher
from .placecheck import (
    PLACEMENT_EXIT,
    TABLE_AWK,
    PlaceRow,
    placement_fields,
)
from .placement import (
    Slot,
    device_blocks,
    place,
    resource_set_per_device,
    usable_cores,
    visible_devices,
    whole_gpus,
)
from .profiling import MonitorStep, Observe, ProfileStep, observe, run_steps_of
from .program import PREFLIGHT_EXIT, Check, ProgramSetup, launcher_words, program_setup
from .runrecord import RunRecord, run_record
from .schedulers import DIALECTS, JOB_ID, PREFIX, JobShape, QueueChoice, choose_queue
from .tuning import Tuning, loader_workers, tune

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:  # the render path reads profiles as records (jobgen.profiles.records)
    from ..profiles.model import EnvVar, Flag, Master, Profile, Queue, RankEnv

SAFE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,62}")
SAFE_ACCOUNT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
MAX_NODES_ANY = 100_000
HOROVOD_AFFINITY_SOURCE = ("horovod/horovod docs/oneccl.rst (Advanced settings: Affinity, "
                           "HOROVOD_THREAD_AFFINITY); the cores from the site's binding")
MAX_RANKS_PER_THREAD = 64  # oversubscription a machine without a scheduler may be asked for
MAX_REQUEUE = 1000
PORT_SPAN = 1000  # a site's rendezvous ports: the profile's port and the 999 above it


class Request(Frozen):
    """What the user asked for; every field as typed on the command line."""

    site: str
    app: str | None = None
    command: tuple[str, ...] = ()
    app_args: str = ""
    launcher_args: str = ""  # options added to the site's launcher (jobgen.plan.launchopts)
    nodes: int | None = None
    ranks_per_node: int | None = None
    ranks_per_device: int | None = None
    instances_per_device: int | None = None
    dist_backend: str | None = None
    queue: str | None = None
    walltime: str | None = None
    account: str | None = None
    job_name: str | None = None
    filesystems: str | None = None
    precision: str | None = None
    env: tuple[str, ...] = ()
    python: str | None = None
    framework: str = "pytorch"
    framework_module: str | None = None
    copper: bool = False
    copper_paths: tuple[str, ...] = ()
    container: str | None = None
    stage: str | None = None
    stage_to: str | None = None
    requeue: int = 0
    checkpoint_dir: str | None = None
    stop_lead: int | None = None  # seconds before the walltime's end the program is told to stop
    profile: str | None = None  # torch or the site's profiler (jobgen.plan.profiling)
    profile_ranks: str | None = None
    profile_steps: str | None = None
    monitor: bool = False
    tensorboard: str | None = None
    placement_check: str = "stop"  # the run-time placement check (jobgen.plan.placecheck)
    # From the user's defaults (jobgen.request.defaults), not the command line: queues to try in
    # order before the automatic choice, and where each defaulted field came from.
    queue_preference: tuple[str, ...] = ()
    origins: tuple[tuple[str, str], ...] = ()

    def command_line(self) -> str:
        """The canonical `jobgen render` command that regenerates this plan."""
        words = ["jobgen", "render", "--site", self.site]
        if self.app:
            words += ["--app", self.app]
        opts = [
            ("--nodes", self.nodes), ("--ranks-per-node", self.ranks_per_node),
            ("--ranks-per-device", self.ranks_per_device),
            ("--instances-per-device", self.instances_per_device),
            ("--dist-backend", self.dist_backend), ("--queue", self.queue),
            ("--walltime", self.walltime), ("--account", self.account),
            ("--job-name", self.job_name), ("--filesystems", self.filesystems),
            ("--precision", self.precision), ("--python", self.python),
            ("--framework", None if self.framework == "pytorch" else self.framework),
            ("--framework-module", self.framework_module), ("--container", self.container),
            ("--stage", self.stage), ("--stage-to", self.stage_to),
            ("--requeue", self.requeue or None), ("--checkpoint-dir", self.checkpoint_dir),
            ("--stop-lead", self.stop_lead),
            ("--profile", self.profile), ("--profile-ranks", self.profile_ranks),
            ("--profile-steps", self.profile_steps), ("--tensorboard", self.tensorboard),
            ("--placement-check", None if self.placement_check == "stop"
             else self.placement_check),
        ]
        # --opt=value keeps values that start with '-' (app arguments) attached to their option.
        words += [f"{k}={v}" for k, v in opts if v is not None]
        words += [f"--env={e}" for e in self.env]
        if self.copper:
            words += ["--copper", *(f"--copper-path={p}" for p in self.copper_paths)]
        if self.monitor:
            words += ["--monitor"]
        if self.launcher_args:
            words += [f"--launcher-args={self.launcher_args}"]
        if self.app_args:
            words += [f"--app-args={self.app_args}"]
        if self.command:
            words += ["--", *self.command]
        return join(words)


class Plan(Frozen):
    version: str
    site: str
    profile_digest: str
    profile_layer: str
    status: str
    regenerate: str
    dialect: str
    directive_prefix: str
    shell: str
    nodes: int
    ranks_per_node: int
    ranks_per_device: int
    world_size: int
    queue: str | None
    walltime: int
    account: str | None
    job_name: str
    precision: str
    device_kind: str
    framework: str
    directives: tuple[Fact, ...]
    modules: tuple[Fact, ...]
    python_setup: tuple[Fact, ...]
    env: tuple[EnvSetting, ...]
    slots: tuple[Slot, ...]
    binding: Fact
    mask_variable: str | None
    rank_env: RankEnv
    master: Master
    launcher: tuple[Word, ...]
    launch_args: tuple[LaunchArg, ...]
    command: tuple[Word, ...]
    app: str | None
    sharing: str | None = None  # mps, ccs, alloc_flag, concurrent when ranks share a device
    # Independent trainings (--instances-per-device): how many in the whole job; 0 for one
    # data-parallel job. Each instance is one process with world size 1.
    instances: int = 0
    backend: str | None = None  # torch.distributed backend; None: no group or the program's
    backend_fact: Fact | None = None
    sharing_fact: Fact | None = None  # how the processes share a device, and the source
    summary: tuple[Word, ...] = ()  # command that sums the instances' results after the run
    threads_per_process: int = 1  # OMP_NUM_THREADS default of an instance
    per_node: tuple[Word, ...] = ()  # launcher prefix that runs one task on each node
    copper: CopperStep | None = None
    stage: StageStep | None = None
    framework_variant: Fact | None = None
    framework_support: Fact | None = None  # the site's note on --framework (profile.frameworks)
    device_selection: Fact | None = None  # how each rank comes to use its device
    devices_per_node: int = 0
    # On a queue allocated by resource, the job asks for just the devices it uses (the
    # scheduler picks which; the job numbers them from 0): their count, else 0.
    partial_devices: int = 0
    signals: tuple[str, ...] = ()  # trapped and forwarded to the ranks
    preemption: Fact | None = None
    requeue: int = 0
    requeue_method: str = "none"
    # The walltime's end exported as JOBGEN_DEADLINE (a scheduler's job); the stop signal's
    # lead in seconds (the scheduler's warning, or the script's timer where the scheduler has
    # no warning: PBS, Cobalt), and where that lead comes from (docs/walltime.md)
    deadline: bool = False
    stop_lead: int = 0
    stop_timer: bool = False
    stop_fact: Fact | None = None
    master_port: int = 29500  # the base of the job's port range (or the fixed port)
    port: PortChoice | None = None  # how MASTER_PORT is chosen at run time
    machine_fact: Fact | None = None  # the machine's size, against which --nodes was checked
    launcher_dialect: str = ""
    # How a signal reaches the ranks when the launcher may not pass it on (jskill); the
    # launcher process is signalled when empty. With its reason and source.
    rank_signal: tuple[Word, ...] = ()
    rank_signal_fact: Fact | None = None
    node_dirs: tuple[Word, ...] = ()  # node-local directories made before the launch
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # how jobgen chose (the queue), for stderr
    launcher_fact: Fact | None = None  # the launcher command and why (--python's torchrun)
    program: ProgramSetup | None = None  # package copy and the checks before the launch
    app_defaults: tuple[Fact, ...] = ()  # the app's tuned defaults and loader workers, why
    container: Fact | None = None  # --container: the runtime's exec words, why and source
    preflight_exit: int = PREFLIGHT_EXIT
    # --profile, --monitor, --tensorboard (jobgen.plan.profiling): the chosen ranks' tool, the
    # per-node monitors, and the variables of the run's output directory
    profile: ProfileStep | None = None
    monitor: MonitorStep | None = None
    observe_env: tuple[EnvSetting, ...] = ()
    observe_facts: tuple[Fact, ...] = ()
    bill: Bill | None = None  # what the job is charged at most (jobgen.plan.billing)
    # the run-time placement check (jobgen.plan.placecheck): stop, warn or off, and why
    placement_check: str = "stop"
    placement_fact: Fact | None = None
    place_rows: tuple[PlaceRow, ...] = ()  # what each local rank should see at run time

    @property
    def placement_exit(self) -> int:
        return PLACEMENT_EXIT

    @property
    def placement_world(self) -> int:
        """Ranks that report to the placement check (each instance is one)."""
        return self.instances or self.world_size

    @property
    def placement_awk(self) -> str:
        return TABLE_AWK

    @property
    def placement_in_app(self) -> bool:
        """The bundled PyTorch app checks its placement itself and prints the job's table
        (with the device it opened); the wrapper checks each rank and leaves the table to it."""
        return bool(self.app) and self.framework == "pytorch" and not self.instances

    @property
    def launch_line(self) -> str:
        return join(self.launcher)

    @property
    def command_line(self) -> str:
        return join(self.command)

    @property
    def sharing_env(self) -> tuple[str, ...]:
        """NAME=value words handing the sharing daemon's settings to per-node commands."""
        if self.sharing is None:
            return ()
        return ("env", *(f"{e.name}={e.value}" for e in self.env
                         if e.name.startswith("CUDA_MPS_") and e.action == "set"))

    @property
    def launcher_name(self) -> str:
        """The launcher as a user knows it (`python -m torch.distributed.run` is torchrun)."""
        if self.launcher_dialect == "spawn":  # python -m workloads.spawn
            return str(self.launcher[2])
        return "torchrun" if self.launcher_dialect == "torchrun" else str(self.launcher[0])

    @property
    def local_rendezvous(self) -> bool:
        """Ranks meet on this machine and no torchrun sets MASTER_ADDR for them."""
        return self.master.method == "localhost" and self.launcher_dialect != "torchrun"

    @property
    def all_devices(self) -> str:
        return ",".join(str(i) for i in range(self.devices_per_node))

    @property
    def stage_dest(self) -> Word:
        return Expand(self.stage.dest) if self.stage else ""

    @property
    def node_cleanup(self) -> tuple[Word, ...]:
        """The node directories the script removes on every node at exit (the staged data's
        directory is removed apart, only where this job made it), and the profiled ranks'
        TMPDIRs' parent (the wrapper makes them)."""
        return (*self.node_dirs, *((Var("JOBGEN_PROFILE_TMP"),) if self.profile else ()),
                *((Var("JOBGEN_STAGE_COPY"),) if self.stage and self.stage.copy else ()))

    @property
    def uses_port(self) -> bool:
        """The script chooses a rendezvous port: ranks meet across nodes, on this machine
        without torchrun, or each instance takes its own."""
        return self.master.method != "localhost" or self.local_rendezvous or bool(self.instances)

    @property
    def job_id_expr(self) -> str:
        """How the script reads its job's id (JOBGEN_JOB_ID=...)."""
        return JOB_ID[self.dialect]

    @property
    def uses_job_id(self) -> bool:
        """The script needs its job's id: to derive the port, name the staged data or the
        profiled ranks' TMPDIRs."""
        return (bool(self.stage) or self.profile is not None
                or (self.uses_port and not (self.port and self.port.fixed)))

    @property
    def record(self) -> RunRecord:
        """What the script records of the job in its run directory (provenance.json)."""
        return run_record(self)

    @property
    def literal_dollar(self) -> bool:
        """A single-quoted word carries a $ meant for a later shell (inside a container)."""
        return any(isinstance(w, str) and "$" in w for w in (*self.launcher, *self.command))


def _no_empty_values(req: Request) -> None:
    """An option given as '' (or blanks) is a mistake, not a request for the default."""
    for name in field_names(Request):
        value = getattr(req, name)
        if name in ("command", "app_args", "launcher_args", "env"):  # checked where read
            continue
        if any(isinstance(v, str) and not v.strip()
               for v in (value if isinstance(value, tuple) else (value,))):
            flag = "--" + {"copper_paths": "copper_path"}.get(name, name).replace("_", "-")
            raise JobgenError(f"{flag} is empty: give a value or leave the option out")
    if req.command and not req.command[0].strip():
        raise JobgenError("the program after `--` is an empty word: name the program to run")


def _positive(value: int | None, flag: str) -> None:
    if value is not None and value < 1:
        raise JobgenError(f"{flag} must be at least 1, not {value}")


def _ranks(profile: Profile, req: Request) -> tuple[int, int, str | None]:
    """(ranks per node, ranks per device, a warning), checked against devices and cores."""
    _positive(req.ranks_per_node, "--ranks-per-node")
    _positive(req.ranks_per_device, "--ranks-per-device")
    _positive(req.instances_per_device, "--instances-per-device")
    if req.ranks_per_device and req.instances_per_device:
        raise JobgenError("give --ranks-per-device (one data-parallel job) or "
                          "--instances-per-device (independent trainings), not both")
    flag = "--instances-per-device" if req.instances_per_device else "--ranks-per-device"
    ndev = profile.devices_per_node
    if not ndev and req.instances_per_device:
        if req.ranks_per_node is not None:
            raise JobgenError(f"{profile.name} has no GPUs: --instances-per-device N runs N "
                              "instances on the node; drop --ranks-per-node")
        return (req.instances_per_device, 1,
                _cpu_room(profile, req.instances_per_device))
    asked = req.ranks_per_device or req.instances_per_device
    per_dev = asked or 1
    allowed = [1, *(profile.device_sharing.ranks_per_device if profile.device_sharing else [])]
    if ndev and per_dev not in allowed:
        raise JobgenError(
            f"{flag} {per_dev} is not supported on {profile.name} "
            f"(it allows {', '.join(map(str, allowed))})"
        )
    if not ndev and req.ranks_per_device:
        raise JobgenError(
            f"{profile.name} has no GPUs: use --ranks-per-node, not --ranks-per-device"
        )
    if req.ranks_per_node is not None:
        rpn = req.ranks_per_node
    else:
        rpn = ndev * per_dev if ndev else (profile.default_ranks_per_node or 1)
    if ndev and rpn > ndev * per_dev:
        kind = profile.node.gpus.subdevice_name or "GPU" if profile.node.gpus else "device"
        raise JobgenError(
            f"{rpn} ranks per node exceed the {ndev} devices ({kind}s) of one {profile.name} node "
            f"at {per_dev} rank per device: use --ranks-per-node {ndev * per_dev} or less"
        )
    if ndev and asked and req.ranks_per_node and rpn % per_dev:
        raise JobgenError(f"--ranks-per-node {rpn} is not a multiple of {flag} {per_dev}")
    return rpn, per_dev, _cpu_room(profile, rpn)


def _cpu_room(profile: Profile, rpn: int) -> str | None:
    """Refuse more ranks than a node can hold; a warning when they share physical cores.

    A batch node holds one rank per hardware thread. A site without a scheduler is this
    machine, whose OS time-shares: more ranks than threads only warn, up to
    MAX_RANKS_PER_THREAD each, so a typo like 10000000 cannot write a 500 MB script.
    """
    node = profile.node
    cores = node.sockets * node.cores_per_socket
    threads = cores * node.threads_per_core
    shared = profile.scheduler.dialect == "none"
    limit = threads * MAX_RANKS_PER_THREAD if shared else threads
    if rpn > limit:
        what = (f"{MAX_RANKS_PER_THREAD} per hardware thread of this machine's {threads}" if
                shared else f"the {threads} hardware threads of one {profile.name} node")
        raise JobgenError(f"--ranks-per-node {rpn} is more than {what} ({cores} cores, "
                          f"{node.threads_per_core} thread(s) per core): use "
                          f"--ranks-per-node {limit} or less")
    if rpn > cores:
        return (f"{rpn} ranks per node share the {cores} physical cores of one {profile.name} "
                "node: they compete for the cores and run slower than fewer ranks would")
    return None


def _nodes(profile: Profile, req: Request) -> int:
    nodes = 1 if req.nodes is None else req.nodes
    if nodes < 1:
        raise JobgenError(f"--nodes must be at least 1, not {nodes}")
    if nodes > MAX_NODES_ANY:
        raise JobgenError(f"--nodes {nodes} is more than any machine has")
    if profile.scheduler.dialect == "none" and nodes != 1:
        raise JobgenError(f"{profile.name} runs on this machine only: use --nodes 1")
    machine = profile.machine
    if machine and nodes > machine.nodes:
        raise JobgenError(f"--nodes {nodes}: {profile.name} has {machine.nodes} nodes "
                          f"({machine.why}; {machine.source}): use --nodes {machine.nodes} "
                          "or less")
    return nodes


def _machine_fact(profile: Profile, nodes: int) -> Fact | None:
    machine = profile.machine
    if not machine:
        return None
    return Fact(f"{profile.name} has {machine.nodes} nodes; this job takes {nodes}",
                f"{machine.why}: a larger request is refused", machine.source, "profile",
                machine.unconfirmed)


def _size_warnings(profile: Profile, nodes: int) -> list[str]:
    """The documented advice on a job this big, and the route to the whole machine."""
    machine = profile.machine
    if not machine:
        return []
    out = [f"--nodes {nodes}: {w.why} ({w.source})" for w in machine.size_warnings
           if nodes > w.above_nodes]
    route = machine.full_machine
    if route and nodes == machine.nodes:
        out.append(f"--nodes {nodes} is the whole of {profile.name}: {route.route} "
                   f"({route.why}; {route.source})")
    return out


def _precision(profile: Profile, req: Request, tuned: str | None) -> str:
    prec = req.precision or tuned or profile.precision.default
    if prec not in profile.precision.supported:
        device = profile.node.gpus.model if profile.node.gpus else "the CPU"
        raise JobgenError(
            f"precision {prec} is not available on {profile.name}: {device} supports "
            f"{', '.join(profile.precision.supported)}"
        )
    return prec


def _account(profile: Profile, req: Request) -> str | None:
    s = profile.scheduler
    if req.account is None:
        if s.account_required:
            raise JobgenError(
                f"{profile.name} needs a project to charge: add -A/--account PROJECT"
            )
        return None
    if not SAFE_ACCOUNT.fullmatch(req.account):
        raise JobgenError(
            f"account {req.account!r} has characters a scheduler directive cannot carry: "
            "use letters, digits, '_', '.', '-'"
        )
    return req.account


def _job_name(req: Request, app: App | None) -> str:
    name = req.job_name or (app.name if app else "jobgen")
    if not SAFE_NAME.fullmatch(name):
        raise JobgenError(
            f"job name {name!r} is not allowed: start with a letter, then up to 62 letters, "
            "digits, '_', '.', '-'"
        )
    return name


def _filesystems(profile: Profile, req: Request) -> tuple[str, ...]:
    fs = profile.scheduler.filesystems
    if fs is None:
        if req.filesystems:
            raise JobgenError(f"{profile.name} has no filesystems resource: drop --filesystems")
        return ()
    if not req.filesystems:
        return tuple(fs.default)
    wanted = tuple(x for x in re.split(r"[:,]", req.filesystems) if x)
    bad = [x for x in wanted if x not in fs.valid]
    if bad or not wanted:
        raise JobgenError(
            f"unknown filesystem {', '.join(bad) or repr(req.filesystems)} on {profile.name}: "
            f"use any of {', '.join(fs.valid)} joined by ':'"
        )
    return wanted


def _env(profile: Profile, req: Request, nodes: int, precision: str, framework: str,
         ipex: bool, recipe_env: list[EnvVar], extra: list[EnvSetting]) -> tuple[EnvSetting, ...]:
    """The job's environment: the profile's settings that apply, where `recipe_env` (from the
    binding recipe or the device layout) replaces settings of the same name, then the plan's
    and the command line's."""
    user: dict[str, str] = {}
    for item in req.env:
        name, sep, value = item.partition("=")
        if not sep or not NAME.fullmatch(name):
            raise JobgenError(f"--env {item!r} must be NAME=VALUE with NAME a variable name")
        user[name] = value

    def applies(var: EnvVar) -> bool:
        w = var.when
        if w is None:
            return True
        return (
            (w.min_nodes is None or nodes >= w.min_nodes)
            and (w.max_nodes is None or nodes <= w.max_nodes)
            and (not w.precision or precision in w.precision)
            and (w.framework is None or w.framework == framework)
            and (w.ipex is None or w.ipex == ipex)
            and (w.container is None or w.container == bool(req.container))
        )

    replaced = {v.name: v for v in recipe_env}
    merged = [replaced.pop(v.name, v) for v in profile.env] + list(replaced.values())
    out = [
        EnvSetting(v.name, v.value, v.action, v.expand, v.why, v.source,
                   "profile", v.unconfirmed, v.node_dir, v.make_dir)
        for v in merged
        if applies(v) and v.name not in user
    ]
    out += [p for p in extra if p.name not in user]
    out += [
        EnvSetting(k, v, "set", False, "set on the command line (--env)", "user", "command line")
        for k, v in user.items()
    ]
    return tuple(out)


def _modules(profile: Profile, stack_line: str | None, framework: str,
             container: bool = False, replaced: frozenset[str] = frozenset()
             ) -> tuple[Fact, ...]:
    """The profile's module commands for this framework (and for --container or not);
    --framework-module replaces the stack's own load, and an image family's modules the ones
    it names (`replaced`)."""
    stack = profile.framework_stack
    out = []
    for m in profile.modules:
        if m.framework not in (None, framework) or m.container not in (None, container) \
                or (m.name and m.name in replaced):
            continue
        text = f"module {m.action}" + (f" {quote(m.name)}" if m.name else "")
        layer = "profile"
        if stack_line and stack and m.action == "load" and m.name == stack.module:
            text, layer = stack_line, "command line"
        out.append(Fact(text, m.why, m.source, layer, m.unconfirmed))
    return tuple(out)


_STAGED_FOLDER = re.compile(r"[A-Za-z0-9_+-][A-Za-z0-9_.+-]*(/[A-Za-z0-9_+-][A-Za-z0-9_.+-]*)*/?")


def _staged_folder(extra: tuple[str, ...]) -> tuple[tuple[str, ...], str]:
    """With --stage, an app's `--data SUB` names a folder inside the unpacked archive (one
    app's folder of a `make-data --app all` tree): the arguments without it, and SUB."""
    out: list[str] = []
    inside = ""
    words = iter(extra)
    for word in words:
        if word == "--data" or word.startswith("--data="):
            value = word.partition("=")[2] if "=" in word else next(words, "")
            if not _STAGED_FOLDER.fullmatch(value) or ".." in value.split("/"):
                raise JobgenError(f"--data {value!r} with --stage: the app reads the staged "
                                  "data, so --data names a folder inside the archive (e.g. "
                                  "--data cosmictagger for a make-data --app all tree), a "
                                  "relative path without '..'; or drop it")
            inside = value.rstrip("/")
            continue
        out.append(word)
    return tuple(out), inside


def _program_argv(profile: Profile, req: Request, app: App | None, precision: str,
                  stack_args: tuple[str, ...], stage: StageStep | None
                  ) -> tuple[Word, ...]:
    """The user's command, or the bundled app's arguments after `-m MODULE`, checked by the
    app's own parser (without importing its framework)."""
    try:
        extra = tuple(split(req.app_args))
    except ValueError as exc:
        raise JobgenError(f"--app-args {req.app_args!r}: {exc}") from None
    if app is None:
        if extra:
            raise JobgenError("--app-args goes with --app; put your program's arguments after --")
        return tuple(req.command)
    data: list[Word] = []
    if stage:
        extra, inside = _staged_folder(extra)
        data = ["--data", Expand(stage.dest + (f"/{inside}" if inside else ""))]
    # the apps' own flag picks their TensorFlow version (workloads/launch.py)
    flavour = ["--framework", req.framework] if req.framework != "pytorch" else []
    argv: list[Word] = [*flavour, "--device", profile.device_kind, "--precision", precision,
                        *stack_args, *data, *app.default_args, *extra]
    if not extra:
        # only jobgen's own arguments, which tests/test_apps_program.py parses for every site
        # and app: the app's parser (argparse, ~10 ms of imports) is left for --app-args
        return tuple(argv)
    parsed = check_app_args(app, [w if isinstance(w, str) else "X" for w in argv],
                            req.framework)
    if parsed.precision != precision:
        raise JobgenError(f"--app-args sets --precision {parsed.precision}, but the script's "
                          f"environment is planned for {precision}: use jobgen's --precision")
    if parsed.device != profile.device_kind:
        raise JobgenError(f"--app-args sets --device {parsed.device}, but {profile.name} gives "
                          f"its ranks {profile.device_kind} devices")
    return tuple(argv)


def _python(profile: Profile, req: Request, inner_python: str | None) -> str:
    return req.python or inner_python or profile.python.executable


class _Sharing(Frozen):
    """Several processes per device: the plan pieces of --ranks/--instances-per-device."""

    instances: int  # independent trainings in the job; 0: one data-parallel job
    method: str | None  # the site's sharing method (mps, ccs, ...) when processes share
    env: list[EnvSetting]
    backend: Backend
    fact: Fact | None


def _sharing(profile: Profile, req: Request, bundled_app: bool, nodes: int, rpn: int,
             per_dev: int, stack_backend: str | None) -> _Sharing:
    instances = nodes * rpn if req.instances_per_device else 0
    env, method = sharing_pieces(profile, per_dev)
    backend = dist_backend(profile, per_dev, bool(instances), req.dist_backend, req.framework,
                           bundled_app, stack_backend)
    if req.dist_backend and not bundled_app and backend.name:
        env.append(EnvSetting("JOBGEN_DIST_BACKEND", backend.name, "set", False,
                              "your program initialises torch.distributed with this backend "
                              "(--dist-backend)", "request", "command line"))
    sh = profile.device_sharing
    what = (f"{per_dev} instances" if instances else f"{per_dev} ranks") + " per device"
    fact = None
    if method and sh:
        fact = Fact(f"{method}: {what}", sh.why, sh.source, "profile", sh.unconfirmed)
    elif instances and not profile.devices_per_node:
        fact = Fact(f"{rpn} instances on the node (no GPUs)", "independent trainings share "
                    "the node's cores", "request", "command line")
    return _Sharing(instances, method, env, backend, fact)


def _threads(profile: Profile, slots: list[Slot], rpn: int, exclude: frozenset[int]) -> int:
    """Threads per process: its own cores where it is bound, else a share of the node's."""
    bound = [len(s.cores) for s in slots if s.cores]
    if bound:
        return max(1, min(bound))
    return max(1, len(usable_cores(profile, exclude)) // max(rpn, 1))


def _framework_support(profile: Profile, req: Request, app: App | None) -> Fact | None:
    """The site's note on the requested framework; a bundled app is refused where the site's
    software lacks it (unless --container brings it)."""
    support = profile.frameworks.get(req.framework)
    if support is None:
        return None
    if not support.available and req.container is None:
        instead = f"; instead: {support.instead}" if getattr(support, "instead", None) else ""
        if app:
            raise JobgenError(f"--framework {req.framework} --app {app.name} on {profile.name}: "
                              f"{support.why} ({support.source}); use --framework pytorch, "
                              f"--container IMAGE, or your own program after --{instead}")
        raise JobgenError(f"--framework {req.framework} on {profile.name}: your program would run "
                          f"without {req.framework}: {support.why} ({support.source}); run it "
                          f"in an image that has it with --container IMAGE{instead}")
    return Fact(f"{req.framework}: " + ("available" if support.available else "not provided"),
                support.why, support.source, "profile", support.unconfirmed)


def _preemption(profile: Profile, req: Request, app: App | None
                ) -> tuple[tuple[str, ...], Fact | None, bool]:
    """Signals the script forwards to the ranks, the requeue request checked, and whether to
    ask for the scheduler's warning signal (only when the program handles it: a bundled app,
    or --requeue/--checkpoint-dir given; otherwise it only ends the run early)."""
    pre = profile.scheduler.preemption
    if not 0 <= req.requeue <= MAX_REQUEUE:
        raise JobgenError(f"--requeue must be 0 to {MAX_REQUEUE}, not {req.requeue}")
    if req.requeue and (pre is None or pre.requeue == "none"):
        raise JobgenError(f"{profile.name} has no documented way to requeue a job: drop --requeue")
    if req.requeue and app and not req.checkpoint_dir:
        raise JobgenError("--requeue needs --checkpoint-dir DIR so the requeued run resumes "
                          "where it stopped")
    if pre is None:
        return ("TERM", "INT"), None, False
    handled = app is not None or bool(req.requeue) or req.checkpoint_dir is not None \
        or req.stop_lead is not None
    if pre.lead_seconds and not handled:
        text = (f"no SIG{pre.signal} warning before the time limit: the program after -- is not "
                f"known to checkpoint on it, and unhandled it would end the run "
                f"{pre.lead_seconds} s early (give --checkpoint-dir, --requeue or --stop-lead "
                "if it does); "
                "TERM and INT are still forwarded to the ranks")
        return ("TERM", "INT"), Fact(text, pre.why, pre.source, "plan", pre.unconfirmed), False
    signals = tuple(dict.fromkeys([pre.signal, "TERM", "INT"]))
    when = (f"sent {req.stop_lead or pre.lead_seconds} s before the end" if pre.lead_seconds
            else "sent when the job is preempted or killed")
    text = f"forward {pre.signal} ({when}) to the ranks"
    if req.requeue:
        how = {"scontrol": "scontrol requeue, counted by SLURM_RESTART_COUNT",
               "brequeue": "brequeue $LSB_JOBID, counted in .jobgen/$LSB_JOBID.requeues "
                           "beside the job directory (LSF keeps no count)",
               "rerunnable": "the scheduler reruns it after preemption"}.get(pre.requeue,
                                                                              pre.requeue)
        text += f"; requeue up to {req.requeue} times ({how})"
    return signals, Fact(text, pre.why, pre.source, "profile", pre.unconfirmed), \
        bool(pre.lead_seconds)


#: the stop timer's lead where neither the profile nor --stop-lead gives one (PBS, Cobalt): the
#: warning lead the Slurm and LSF profiles use (lumi.yaml, summit.yaml)
DEFAULT_STOP_LEAD = 120


class _Stop(Frozen):
    signals: tuple[str, ...] = ()  # trapped and forwarded to the ranks (_preemption)
    preemption: Fact | None = None
    warn: bool = False  # ask for the scheduler's warning signal
    deadline: bool = False
    stop_lead: int = 0
    stop_timer: bool = False
    fact: Fact | None = None

    @property
    def app_lead(self) -> int:
        """The bundled app's --stop-lead: the signal's lead where the app has a deadline."""
        return self.stop_lead if self.deadline else 0

    @property
    def warn_lead(self) -> int:
        """The scheduler's warning lead (no timer: Slurm, LSF), else 0."""
        return 0 if self.stop_timer else self.stop_lead

    def plan_fields(self) -> dict[str, object]:
        return {"signals": self.signals, "preemption": self.preemption,
                "deadline": self.deadline, "stop_lead": self.stop_lead,
                "stop_timer": self.stop_timer, "stop_fact": self.fact}


def _stop(profile: Profile, req: Request, app: App | None, walltime: int) -> _Stop:
    """JOBGEN_DEADLINE, the lead of the stop signal and where it comes from: the scheduler's
    warning (Slurm --signal, LSF -wa/-wt) where the profile has one, else (PBS, Cobalt) a
    timer in the script that sends the signal the script forwards to the ranks at walltime -
    lead; only for a program known to checkpoint on it (a bundled app, --checkpoint-dir,
    --requeue or --stop-lead), as for the warning (docs/walltime.md)."""
    signals, preempt_fact, warn = _preemption(profile, req, app)
    base = {"signals": signals, "preemption": preempt_fact, "warn": warn}
    dialect = profile.scheduler.dialect
    lead = req.stop_lead
    if dialect == "none":
        if lead is not None:
            raise JobgenError(f"--stop-lead: site {profile.name} has no scheduler and no "
                              "walltime to stop before: drop --stop-lead")
        return _Stop(**base)
    if lead is not None and not 1 <= lead < walltime:
        raise JobgenError(f"--stop-lead {lead}: the lead must be 1 to {walltime - 1} seconds, "
                          f"under the walltime ({hms(walltime)}): lower it or raise --walltime")
    pre = profile.scheduler.preemption
    given = "command line (--stop-lead)"
    if warn and pre is not None and pre.lead_seconds:
        seconds = lead or pre.lead_seconds
        text = (f"stop signal: the scheduler's SIG{pre.signal} {seconds} s before the "
                f"walltime's end ({hms(walltime)}), forwarded to the ranks")
        why = (f"--stop-lead {lead}" if lead else f"the profile's warning lead ({pre.why})")
        # --requeue: the script requeues itself on the warning, so the apps must not stop
        # before it on their own (no JOBGEN_DEADLINE); a chain needs no requeue
        return _Stop(**base, deadline=not req.requeue, stop_lead=seconds, fact=Fact(
            text, f"{why}; the program checkpoints and exits on it"
            + ("; --requeue: the script then requeues itself" if req.requeue else "")
            + " (docs/walltime.md)",
            given if lead else pre.source, "command line" if lead else "profile",
            None if lead else pre.unconfirmed))
    handled = app is not None or bool(req.requeue) or req.checkpoint_dir is not None \
        or lead is not None
    if dialect not in ("pbs", "cobalt") or not handled:
        return _Stop(**base, deadline=True)
    seconds = lead or DEFAULT_STOP_LEAD
    if seconds >= walltime:
        return _Stop(**base, deadline=True)  # a walltime shorter than the default lead: no timer
    text = (f"stop timer: the script sends SIG{signals[0]} to the ranks at "
            f"{hms(walltime - seconds)}, {seconds} s before the walltime's end ({hms(walltime)})")
    why = (f"--stop-lead {lead}" if lead else
           f"jobgen's default lead, {DEFAULT_STOP_LEAD} s (the Slurm and LSF profiles' warning "
           "lead)")
    return _Stop(**base, deadline=True, stop_lead=seconds, stop_timer=True, fact=Fact(
        text, f"{why}; {dialect.upper()} sends no warning before the walltime's end, so the "
        "script times it itself, and the program checkpoints and exits on the signal "
        "(docs/walltime.md)", given if lead else "jobgen (docs/walltime.md)",
        "command line" if lead else "plan",
        "that PBS and Cobalt send no warning signal of their own is not stated in the sites' "
        "guides; they document only the walltime limit"))


def _queue(profile: Profile, nodes: int, walltime: int, req: Request) -> QueueChoice:
    """The named queue, else the first preferred one that takes the job, else the automatic
    choice; a preferred queue the site does not have is a mistake in the user's defaults."""
    if req.queue or not req.queue_preference or profile.scheduler.dialect == "none":
        return choose_queue(profile, nodes, walltime, req.queue)
    names = [q.name for q in profile.scheduler.queues]
    origin = dict(req.origins).get("queue", "the queue preference")
    for name in req.queue_preference:
        if name not in names:
            raise JobgenError(f"{origin}: unknown queue {name!r} on {profile.name}: use any of "
                              f"{', '.join(names)}")
        try:
            return choose_queue(profile, nodes, walltime, name)
        except JobgenError:
            continue  # too small or too short for this job: try the next preference
    return choose_queue(profile, nodes, walltime, None)


class PortChoice(Frozen):
    """The rendezvous port (MASTER_PORT) of the job, and why.

    A fixed port fails the second of two jobs whose rank 0 share a node (EADDRINUSE: two
    2-node local-slurm jobs on one host, jobs sharing a node anywhere), so the port is derived
    from the job id: base + (id mod slots) x width, inside [base, base + PORT_SPAN), where base
    is the profile's port and width the ports one job takes on a node (one per instance with
    --instances-per-device). Jobs whose ids are less than `slots` apart never share a port;
    the span stays below Linux's ephemeral ports (32768-60999) for the profiles' bases.
    """

    base: int
    width: int = 1
    fixed: bool = False  # --env MASTER_PORT=N: that port, as given

    @property
    def slots(self) -> int:
        return PORT_SPAN // self.width

    @property
    def text(self) -> str:
        if self.fixed:
            return f"MASTER_PORT={self.base} (--env MASTER_PORT)"
        per = f" x {self.width} (one port per instance on a node)" if self.width > 1 else ""
        return (f"MASTER_PORT={self.base} + (job id mod {self.slots}){per}, within "
                f"{self.base}-{self.base + PORT_SPAN - 1}")

    @property
    def why(self) -> str:
        if self.fixed:
            return "set on the command line (--env MASTER_PORT)"
        return ("derived from the job id, so two jobs whose first ranks share a node do not "
                "both bind one port (a fixed port fails the second with EADDRINUSE)")


def _master_port(profile: Profile, env: tuple[EnvSetting, ...], instances_per_node: int
                 ) -> PortChoice:
    """The profile's port as the base of the job's range, unless the user set MASTER_PORT
    with --env."""
    for e in env:
        if e.name == "MASTER_PORT" and e.layer == "command line":
            if not (e.value or "").isdigit() or not 1024 <= int(e.value or 0) <= 65535:
                raise JobgenError(f"--env MASTER_PORT={e.value}: use a port from 1024 to 65535")
            if instances_per_node and int(e.value or 0) + instances_per_node > 65536:
                raise JobgenError(f"--env MASTER_PORT={e.value}: the instances take "
                                  f"{instances_per_node} ports from it; use a lower port")
            return PortChoice(int(e.value or 0), max(instances_per_node, 1), fixed=True)
    base = profile.launcher.master.port
    if base + PORT_SPAN > 65536:
        raise JobgenError(f"{profile.name}: launcher.master.port {base} leaves no room for "
                          f"its {PORT_SPAN} ports: use a port up to {65536 - PORT_SPAN}")
    return PortChoice(base, max(instances_per_node, 1))


def _python_setup(profile: Profile, container: bool = False) -> tuple[Fact, ...]:
    """The host Python environment's activation; none with --container, whose image brings
    its own (an activated host environment's library paths would reach into the image)."""
    py = profile.python
    out: list[Fact] = []
    if container:
        return ()
    if py.conda_env:
        out.append(Fact(f"conda activate {quote(py.conda_env)}", py.why, py.source,
                        "profile", py.unconfirmed))
    if py.venv:
        out.append(Fact(f"source {quote(py.venv)}/bin/activate", py.why, py.source,
                        "profile", py.unconfirmed))
    return tuple(out)


def _alloc_flags(profile: Profile, sharing: str | None, stage: StageStep | None
                 ) -> tuple[Flag, ...]:
    """Allocation flags the request adds (LSF): MPS for shared GPUs, NVMe for staged data."""
    out = []
    sh = profile.device_sharing
    if sharing == "alloc_flag" and sh and sh.alloc_flag:
        from ..profiles.model import Flag  # Summit only: other renders read records, not the model

        out.append(Flag(value=sh.alloc_flag, why="several ranks share a GPU", source=sh.source,
                        unconfirmed=sh.unconfirmed))
    if stage and stage.alloc_flag:
        out.append(stage.alloc_flag)
    return tuple(out)


def _environment_warnings(profile: Profile, req: Request, app: App | None) -> list[str]:
    """Refuse a bundled app where the site provides no framework and none was named; say what
    a user's own program or image must bring."""
    py = profile.python
    warnings = []
    if not py.provides_framework and not (req.python or req.container or py.container):
        if app:
            raise JobgenError(f"{profile.name} provides no PyTorch environment ({py.why}): "
                              "give --python /path/to/your/env/bin/python or --container IMAGE")
        if req.command and req.command[0] in ("python", "python3"):
            warnings.append(f"{profile.name} provides no PyTorch environment and jobgen loads "
                            f"none: start your program with your environment's interpreter "
                            f"(-- /path/to/env/bin/python ...) ({py.why})")
    rt = profile.containers
    if req.container and rt and rt.hint:
        warnings.append(f"--container: {rt.hint}")
    family = image_family(profile, req.container)
    if app and family and req.framework in family.app_warnings:
        warnings.append(f"--container {req.container}: "
                        f"{family.app_warnings[req.framework]}")
    return warnings


def _rank_signal(profile: Profile) -> dict[str, object]:
    """Plan fields for the launcher's documented way to signal its ranks, if it needs one."""
    rs = profile.launcher.signal_ranks
    if rs is None:
        return {}
    words = tuple(Var("jobgen_signum") if w == "SIGNUM" else w for w in rs.command)
    return {"rank_signal": words,
            "rank_signal_fact": Fact(join(words), rs.why, rs.source, "profile", rs.unconfirmed)}


def _what_runs(req: Request) -> tuple[App | None, str]:
    """The bundled app or the user's program, and the framework it runs on."""
    if req.app and req.command:
        raise JobgenError("give either --app APP or your own program after `--`, not both")
    if not req.app and not req.command:
        raise JobgenError("nothing to run: give --app APP or your program after -- (for "
                          "example: -- python train.py); `jobgen apps` lists the apps")
    if req.command:
        refuse_nested_launcher(req.command)
    app = load_app(req.app) if req.app else None
    framework = req.framework
    if framework not in ("pytorch", "tensorflow"):
        raise JobgenError(f"--framework {framework!r}: use pytorch or tensorflow")
    if app and framework not in app.frameworks:
        raise JobgenError(f"app {app.name} runs on {', '.join(app.frameworks)}, not {framework}: "
                          "launch your own program after --")
    _no_empty_values(req)
    return app, framework


class _Size(Frozen):
    """How big the job is: nodes, ranks per node and per device."""

    nodes: int
    rpn: int
    per_dev: int
    warning: str | None  # ranks share physical cores


def _job_size(profile: Profile, req: Request) -> _Size:
    nodes = _nodes(profile, req)
    rpn, per_dev, warning = _ranks(profile, req)
    return _Size(nodes, rpn, per_dev, warning)


class _Schedule(Frozen):
    """Where and for how long the scheduler runs the job, and as whom."""

    req: Request  # with a preferred queue made explicit, so the header regenerates without it
    walltime: int
    queue: QueueChoice
    account: str | None
    job_name: str
    filesystems: tuple[str, ...]


def _schedule(profile: Profile, req: Request, app: App | None, nodes: int) -> _Schedule:
    walltime = parse_walltime(req.walltime or profile.scheduler.default_walltime)
    if profile.scheduler.dialect == "none" and req.walltime:
        raise JobgenError(f"{profile.name} has no scheduler to enforce --walltime: drop it")
    choice = _queue(profile, nodes, walltime, req)
    queue = choice.queue
    if queue is not None and req.queue is None and queue.name in req.queue_preference:
        req = replace(req, queue=queue.name)  # the header regenerates without it
    return _Schedule(req, walltime, choice, _account(profile, req), _job_name(req, app),
                     _filesystems(profile, req))


class _Extras(Frozen):
    """What the request adds to the site's setup: Copper, a framework variant, device
    sharing, staged data."""

    copper: CopperStep | None
    modules: tuple[Fact, ...]  # loaded for them (Copper's module)
    exclude: frozenset[int]  # cores no rank may use (Copper's service cores)
    choice: FrameworkChoice
    shared: _Sharing
    stage: StageStep | None


def _extras(profile: Profile, req: Request, app: App | None, framework: str,
            size: _Size) -> _Extras:
    copper, modules, exclude = None, (), frozenset()
    if req.copper:
        copper, copper_module = copper_pieces(profile, req.copper_paths)
        modules = (copper_module,)
        exclude = frozenset(profile.copper.service_cores) if profile.copper else exclude
    elif req.copper_paths:
        raise JobgenError("--copper-path goes with --copper")
    choice = framework_choice(profile, req.framework_module, app is not None, framework)
    shared = _sharing(profile, req, app is not None, size.nodes, size.rpn, size.per_dev,
                      choice.backend)
    stage = stage_step(profile, req.stage, req.stage_to, size.nodes)
    if stage is not None and stage.module is not None:
        modules = (*modules, stage.module)
    return _Extras(copper, modules, exclude, choice, shared, stage)


class _Placement(Frozen):
    """Which cores and device each local rank gets, and how it is told."""

    slots: tuple[Slot, ...]
    binding: Fact
    mask_variable: str | None
    selection: Fact | None  # how each rank comes to use its device
    env: tuple[EnvSetting, ...]  # the variables the device layout and sharing need
    recipe_env: tuple[EnvVar, ...]  # the layout's and binding recipe's profile settings


def _devices_used(profile: Profile, size: _Size) -> int:
    """Devices per node the ranks use: one each, or one per --ranks-per-device ranks."""
    ndev = profile.devices_per_node
    if not ndev or whole_gpus(profile, size.rpn, size.per_dev):
        return ndev
    return min(ndev, -(-size.rpn // size.per_dev))


def _partial_node(queue: Queue | None, used: int, ndev: int) -> bool:
    """The job uses fewer devices than its nodes have, on a queue allocated by resource
    (LUMI small-g, dev-g): it asks for those only, not the whole node."""
    return getattr(queue, "by_resource", None) is not None and 0 < used < ndev


def _partial_cpus(profile: Profile, size: _Size, used: int) -> int:
    """CPUs per rank on part of a node: each used device's share of the usable cores (LUMI:
    56 / 8 = 7 per GCD, as the AI guide asks), split among the ranks on it."""
    share = len(usable_cores(profile)) // profile.devices_per_node
    return max(1, share * used // size.rpn)


def _unbound(profile: Profile, queue: Queue, used: int) -> Profile:
    """The profile as a job on part of a node shared by resource sees it: Slurm picks the
    job's GCDs and cores, numbers its `used` GCDs from 0 (the wrapper's ROCR_VISIBLE_DEVICES
    counts in that numbering), and the documented GCD-near CPU masks, which need the whole
    node, do not apply."""
    by = queue.by_resource
    binding = {"style": "none", "why": f"part of a node on {queue.name}: {by.why}",
               "source": by.source, "unconfirmed": by.unconfirmed, "recipes": []}
    gpus = {"count": used, "subdevices_per_gpu": 1, "devices": [],
            "why": f"the {used} devices Slurm grants the job on {queue.name}, numbered from 0 "
                   f"({profile.node.gpus.why})"}
    if isinstance(profile, dict):  # the render path's records
        from ..profiles.records import ProfileRecord, Record

        node = Record({**profile.node, "gpus": Record({**profile.node.gpus, **gpus})})
        return ProfileRecord({**profile, "node": node, "cpu_binding": Record(
            {**profile.cpu_binding, **binding})})
    import dataclasses

    node = dataclasses.replace(profile.node, gpus=dataclasses.replace(profile.node.gpus,
                                                                      **gpus))
    return dataclasses.replace(profile, node=node, cpu_binding=dataclasses.replace(
        profile.cpu_binding, **binding))


def _placement(profile: Profile, size: _Size, framework: str, extras: _Extras) -> _Placement:
    rpn, per_dev, exclude = size.rpn, size.per_dev, extras.exclude
    slots, recipe = place(profile, rpn, per_dev, framework, exclude)
    mask_variable = (
        profile.gpu_affinity.variable if profile.gpu_affinity.scheme == "mask" else None)
    selection, selection_env, layout_env = device_selection(profile, rpn, per_dev,
                                                            mask_variable)
    selected = {v.name for v in selection_env}
    # JOBGEN_RANKS_PER_DEVICE where every device is visible, then the sharing settings
    env = (*selection_env, *(e for e in extras.shared.env if e.name not in selected))
    b = profile.cpu_binding
    if recipe is not None:
        binding = Fact(f"{b.style}: documented recipe for {rpn} ranks per node", recipe.why,
                       recipe.source, "profile", recipe.unconfirmed)
    else:
        how = "no binding" if b.style == "none" else "computed from the node topology"
        if exclude:
            how += f", clear of Copper's service cores {sorted(exclude)}"
        binding = Fact(f"{b.style}: {how}", b.why, b.source, "plan", b.unconfirmed)
    recipe_env = (*layout_env, *(recipe.extra_env if recipe else ()))
    return _Placement(tuple(slots), binding, mask_variable, selection, env, recipe_env)


def _environment(profile: Profile, req: Request, size: _Size, precision: str, framework: str,
                 extras: _Extras, placed: _Placement, image_env: list[EnvVar]
                 ) -> tuple[EnvSetting, ...]:
    """The job's variables (a container's after the layout's); for TensorFlow, Horovod's
    thread pinned beside each rank."""
    env = _env(profile, req, size.nodes, precision, framework, extras.choice.ipex,
               [*placed.recipe_env, *image_env], list(placed.env))
    slots = placed.slots
    if framework == "tensorflow" and not any(e.name == "HOROVOD_THREAD_AFFINITY" for e in env) \
            and all(s.cpus for s in slots):
        env += (EnvSetting("HOROVOD_THREAD_AFFINITY", ",".join(str(s.cpus[0]) for s in slots),
                           "set", False, "Horovod's background thread of each local rank on the "
                           "first core of that rank (one core per local rank, comma-separated); "
                           "read by Horovod only, which the bundled TensorFlow apps use when it "
                           "is importable (else MultiWorkerMirroredStrategy): unused, and "
                           "harmless, where the environment has none (Polaris' conda/2025-09-25 "
                           "base: UG docs/polaris/system-updates.md)",
                           HOROVOD_AFFINITY_SOURCE, "plan", profile.cpu_binding.unconfirmed),)
    return env


class _Launch(Frozen):
    """The launcher line that starts every rank through the wrapper."""

    shape: LaunchShape
    args: tuple[LaunchArg, ...]
    words: tuple[Word, ...]
    fact: Fact | None  # the launcher command and why (--python's torchrun)


def _launch(profile: Profile, req: Request, app: App | None, size: _Size, extras: _Extras,
            slots: tuple[Slot, ...], env: tuple[EnvSetting, ...], cpus: int = 0) -> _Launch:
    forwarded: tuple[str, ...] = ()
    if profile.launcher.master.method != "localhost":
        names = ["MASTER_ADDR", "MASTER_PORT"] + [e.name for e in env if e.action != "unset"]
        # each instance's port is JOBGEN_PORT + its local rank (the wrapper)
        names += ["JOBGEN_PORT"] if extras.shared.instances else []
        # --profile/--monitor/--tensorboard: the run's output directory and its variables
        names += ["JOBGEN_RUN_DIR", "JOBGEN_RUN_ID"] if any(
            e.name.startswith("JOBGEN_") and e.layer == "observe" for e in env) else []
        # the bundled app's package, put on PYTHONPATH by the script
        names += ["PYTHONPATH"] if app else []
        # the walltime's end (JOBGEN_DEADLINE): the bundled apps stop before it
        # and the link of a `jobgen chain` (base.sh.j2 exports it, empty outside a chain)
        names += ["JOBGEN_DEADLINE", "JOBGEN_CHAIN_LINK"] \
            if profile.scheduler.dialect != "none" else []
        forwarded = tuple(dict.fromkeys(names))
    rs_cores = len(device_blocks(profile, usable_cores(profile, extras.exclude))[0]) \
        if resource_set_per_device(profile, size.per_dev) else 0
    shape = LaunchShape(size.nodes, size.rpn, slots, profile.devices_per_node, forwarded,
                        rs_cores, cpus)
    args = tuple(LAUNCHERS[profile.launcher.dialect](profile, shape))
    command, fact = launcher_words(profile, req.python)
    words: list[Word] = [*command]
    for arg in args:
        words += arg.words
    own = tuple(w for w in words if isinstance(w, str))
    user = launcher_args(req.launcher_args, profile.launcher.dialect, own,
                         str(profile.launcher.command))
    if user:
        args += (LaunchArg(user, "your option (--launcher-args), passed to the launcher as "
                           "given", "command line (--launcher-args)", "command line"),)
        words += user
    words.append(Var("JOBGEN_WRAPPER"))
    return _Launch(shape, args, tuple(words), fact)


# What a one-task launch needs besides the site's per-node words to see the batch shell's
# environment (the bundled package on PYTHONPATH): Open MPI forwards only what -x names;
# Cray PALS takes --envall (the site profiles' own launch passes it too).
_ONE_NODE_ENV: dict[str, tuple[str, ...]] = {
    "openmpi": ("-x", "PATH", "-x", "LD_LIBRARY_PATH", "-x", "PYTHONPATH"),
    "pals": ("--envall",)}


def _one_node(profile: Profile) -> tuple[Word, ...]:
    """The launch that runs one task on one node (the staged data's check)."""
    dialect = profile.launcher.dialect
    return (*PER_NODE[dialect](profile, 1), *_ONE_NODE_ENV.get(dialect, ()))


def _writable_check(profile: Profile) -> Check | None:
    """The submit directory, where the job's outputs go, is not one the compute nodes mount
    read-only (Summit's homes): checked before any rank starts."""
    shared = profile.node.shared_storage
    ro = getattr(shared, "read_only_on_compute", None) if shared else None
    if ro is None:
        return None
    # one branch a path (no `|`, which a reader takes for a pipeline)
    branches = " ".join(f'{p.rstrip("/")}/*) echo "$PWD"; exit 1;;' for p in ro.paths)
    words = ("bash", "-c", f'case "$PWD/" in {branches} esac')
    return Check(words, f"the submit directory is read-only on {profile.name}'s compute nodes, "
                 f"where the ranks write their outputs: {ro.instead}",
                 f"the submit directory is writable from the compute nodes: {ro.why} "
                 f"({ro.source})")


class _Program(Frozen):
    """What every rank runs, its checks before the launch, and the instances' summary."""

    command: tuple[Word, ...]
    setup: ProgramSetup | None
    summary: tuple[Word, ...]
    app_defaults: tuple[Fact, ...]  # the app's tuned defaults and loader workers, why
    modules: tuple[Fact, ...]  # the container runtime's module, if the program needs one


def _program(profile: Profile, req: Request, app: App | None, tuning: Tuning | None,
             precision: str, extras: _Extras, slots: tuple[Slot, ...], rpn: int,
             observed: Observe, stop_lead: int = 0) -> _Program:
    shared = extras.shared
    prefix, inner_python, container_module = container_prefix(profile, req.container)
    ckpt: tuple[str, ...] = ("--checkpoint-dir", req.checkpoint_dir) \
        if req.checkpoint_dir and app else ()
    if ckpt and stop_lead:
        # the app stops on its own at least this long (plus its margin) before the walltime's
        # end, so the scheduler's warning or the script's timer stays a backstop
        ckpt += ("--stop-lead", str(stop_lead))
    backend_args = ("--dist-backend", shared.backend.name) \
        if shared.backend.app_flag and shared.backend.name else ()
    stack_args = backend_args + extras.choice.app_args + ckpt
    app_defaults: tuple[Fact, ...] = ()
    if app is not None and tuning is not None:
        workers, workers_fact = loader_workers(profile, list(slots), rpn)
        stack_args += tuning.args + workers
        app_defaults = (*tuning.facts, workers_fact)
    argv = (*_program_argv(profile, req, app, precision, stack_args, extras.stage),
            *observed.app_args)
    python = _python(profile, req, inner_python)
    command: tuple[Word, ...] = (*prefix, *((python, "-m", app.module) if app else ()), *argv)
    hint = getattr(profile.launcher, "check_hint", None)
    setup = program_setup(app, python, bool(req.python), tuple(prefix), argv,
                          profile.launcher.dialect == "spawn",
                          (profile.launcher.command, hint) if hint else None,
                          _one_node(profile) if extras.stage and app else None)
    if observed.checks:  # the profiler and the GPU sampler exist
        setup = replace(setup, checks=(*setup.checks, *observed.checks))
    writable = _writable_check(profile)
    if writable is not None:
        setup = replace(setup, checks=(writable, *setup.checks))
    summary: tuple[Word, ...] = ()
    if shared.instances and app:
        summary = (*prefix, python, "-m", "workloads.summarize",
                   "--expect", str(shared.instances), Expand("${JOBGEN_DIR}/results"))
    return _Program(command, setup, summary, app_defaults,
                    (container_module,) if container_module else ())


def _observe(profile: Profile, req: Request, app: App | None, size: _Size, extras: _Extras,
             sched: _Schedule) -> Observe:
    """--profile, --monitor and --tensorboard, checked against the job (profiling.py)."""
    if not (req.profile or req.profile_ranks or req.profile_steps or req.monitor
            or req.tensorboard is not None):
        return Observe()
    world = 1 if extras.shared.instances else size.nodes * size.rpn
    prefix, _, _ = container_prefix(profile, req.container)
    per_node = tuple(PER_NODE[profile.launcher.dialect](profile, size.nodes))
    if app and req.framework != "pytorch" and (req.profile == "torch" or req.tensorboard):
        flag = "--profile torch" if req.profile == "torch" else "--tensorboard"
        raise JobgenError(f"{flag}: the bundled apps' PyTorch runtime does it; their "
                          f"{req.framework} versions do not (drop it, or use the site's "
                          "profiler with --profile)")
    steps = run_steps_of(app, req.app_args, req.framework) if app else None
    torch_app = app is not None and req.framework == "pytorch"
    return observe(profile, req, torch_app, world, size.nodes, per_node, tuple(prefix),
                   sched.walltime, steps)


# The scheduler's own command that prints a queue's current limits (each scheduler's manual):
# what to run when a profile's queue limits are unconfirmed.
QUEUE_QUERY = {"slurm": "scontrol show partition {queue}", "pbs": "qstat -Qf {queue}",
               "lsf": "bqueues -l {queue}", "cobalt": "qstat -Q"}


def _warnings(profile: Profile, req: Request, app: App | None, size: _Size,
              sched: _Schedule, extras: _Extras) -> tuple[str, ...]:
    """What the user should know before submitting: each one line in the script's header."""
    warnings = [*_environment_warnings(profile, req, app), *_size_warnings(profile, size.nodes)]
    if size.warning:
        warnings.append(size.warning)
    if profile.status == "decommissioned":
        note = getattr(profile, "status_note", None)
        warnings.append(f"{profile.name} is decommissioned: the script documents a past setup"
                        + (f" ({note})" if note else ""))
    queue = sched.queue.queue
    if sched.queue.warning:
        warnings.append(sched.queue.warning)
    if queue is not None and queue.unconfirmed:
        look = QUEUE_QUERY.get(profile.scheduler.dialect, "").format(queue=queue.name)
        warnings.append(f"queue {queue.name}: {queue.unconfirmed}" + (
            f"; to see its limits today, run `{look}` on a login node" if look else ""))
    if extras.stage:
        warnings += extras.stage.warnings
    elif app is not None:
        warnings += _relative_data(req.app_args)
    if sched.account and profile.scheduler.dialect == "none":
        warnings.append(f"{profile.name} has no scheduler: --account is not used")
    shared = extras.shared
    if shared.method and profile.device_sharing and profile.device_sharing.unconfirmed:
        flag = "--instances-per-device" if shared.instances else "--ranks-per-device"
        warnings.append(f"{flag}: {profile.device_sharing.unconfirmed}")
    return tuple(warnings)


def _relative_data(app_args: str) -> list[str]:
    """A relative `--data` resolves where the job starts (the submit directory the script
    cds to), not where it was rendered: say so (issue 30, ALCF review N3)."""
    words = split(app_args)  # already checked by _program_argv
    for k, word in enumerate(words):
        value = word.partition("=")[2] if word.startswith("--data=") else \
            words[k + 1] if word == "--data" and k + 1 < len(words) else None
        if value and value != "synthetic" and not value.startswith(("/", "$", "~")):
            return [f"--data {value} is relative: the ranks read it from the directory the job "
                    "is submitted from (the script cds there), not from where you rendered "
                    "it; give an absolute path if you submit from elsewhere"]
    return []


def _site_fields(loaded: LoadedProfile, profile: Profile, req: Request) -> dict[str, object]:
    """Plan fields that come from the site alone: the header's, the scheduler's and
    launcher's dialects, the rank variables and where the rendezvous address comes from
    (`profile`: the loaded one with the framework's own launcher, if it has one)."""
    return dict(
        version=__version__, site=profile.name, profile_digest=loaded.digest,
        profile_layer=loaded.file.layer, status=profile.status,
        regenerate=req.command_line(), dialect=profile.scheduler.dialect,
        directive_prefix=PREFIX[profile.scheduler.dialect], shell=profile.scheduler.shell,
        device_kind=profile.device_kind, launcher_dialect=profile.launcher.dialect,
        rank_env=profile.launcher.rank_env, master=profile.launcher.master)


def _extras_fields(extras: _Extras) -> dict[str, object]:
    """Plan fields of the request's extras: sharing, backend, Copper, staging, variant."""
    shared = extras.shared
    return dict(
        sharing=shared.method, instances=shared.instances, backend=shared.backend.name,
        backend_fact=shared.backend.fact, sharing_fact=shared.fact, copper=extras.copper,
        stage=extras.stage, framework_variant=extras.choice.fact)


def _size_fields(size: _Size, extras: _Extras) -> dict[str, object]:
    """Plan fields of the job's size (independent instances each have a world of one)."""
    return dict(nodes=size.nodes, ranks_per_node=size.rpn, ranks_per_device=size.per_dev,
                world_size=1 if extras.shared.instances else size.nodes * size.rpn)


def build_plan(loaded: LoadedProfile, req: Request) -> Plan:
    """Decide, step by step, everything the script does; each step checks its part of the
    request and refuses, with one line, what the site cannot run."""
    profile = loaded.profile
    app, framework = _what_runs(req)
    support = _framework_support(profile, req, app)
    profile = framework_launcher(profile, framework)  # e.g. no torchrun for TensorFlow
    size = _job_size(profile, req)
    profile = single_node_launcher(profile, size.nodes)  # e.g. no documented mpirun
    # the measured configurations are PyTorch's (workloads/*/manifest.yaml `tuned:`)
    tuning = tune(app, profile, req.precision) if app and framework == "pytorch" else None
    precision = _precision(profile, req, tuning.precision if tuning else None)
    sched = _schedule(profile, req, app, size.nodes)
    req = sched.req
    profile, used, partial, partial_cpus = _partial(profile, sched, size)
    extras = _extras(profile, req, app, framework, size)
    placed = _placement(profile, size, framework, extras)
    image_modules, image_env, image_directives, image_fact = container_setup(profile,
                                                                             req.container)
    env = _environment(profile, req, size, precision, framework, extras, placed, image_env)
    observed = _observe(profile, req, app, size, extras, sched)
    launch = _launch(profile, req, app, size, extras, placed.slots, (*env, *observed.env),
                     partial_cpus)
    stop = _stop(profile, req, app, sched.walltime)  # signals, lead, timer: docs/walltime.md
    port = _master_port(profile, env, size.rpn if extras.shared.instances else 0)
    env = tuple(e for e in env if not (e.name == "MASTER_PORT" and e.layer == "command line"))
    job = _job_shape(profile, req, size, sched, extras, launch, used if partial else 0, stop)
    program = _program(profile, req, app, tuning, precision, extras, placed.slots, size.rpn,
                       observed, stop.app_lead)
    modules = (*observed.tool_modules, *_modules(
        profile, extras.choice.module_line, framework, bool(req.container),
        replaced_modules(profile, req.container)), *extras.modules, *program.modules,
        *image_modules, *observed.modules)
    pre = profile.scheduler.preemption
    return _with_bill(profile, Plan(
        **_site_fields(loaded, profile, req),
        **_size_fields(size, extras),
        queue=sched.queue.queue.name if sched.queue.queue else None,
        walltime=sched.walltime,
        account=sched.account,
        job_name=sched.job_name,
        precision=precision,
        framework=framework,
        directives=(*DIALECTS[profile.scheduler.dialect](profile, job), *image_directives),
        modules=modules,
        python_setup=_python_setup(profile, bool(req.container)),
        env=with_site_refs(env),
        slots=placed.slots,
        binding=placed.binding,
        mask_variable=placed.mask_variable,
        device_selection=placed.selection,
        launcher=launch.words,
        launch_args=launch.args,
        command=program.command,
        app=app.name if app else None,
        **_extras_fields(extras),
        summary=program.summary,
        threads_per_process=_threads(profile, list(placed.slots), size.rpn, extras.exclude),
        per_node=tuple(PER_NODE[profile.launcher.dialect](profile, size.nodes)),
        framework_support=support,
        devices_per_node=visible_devices(profile, size.rpn, size.per_dev),
        partial_devices=used if partial else 0,
        requeue=req.requeue,
        requeue_method=pre.requeue if pre else "none",
        **stop.plan_fields(),
        master_port=port.base,
        port=port,
        machine_fact=_machine_fact(profile, size.nodes),
        **_rank_signal(profile),
        node_dirs=tuple(Var(e.name) for e in env if e.node_dir),
        warnings=_warnings(profile, req, app, size, sched, extras),
        notes=(sched.queue.reason,) if sched.queue.reason else (),
        launcher_fact=launch.fact,
        program=program.setup,
        app_defaults=program.app_defaults,
        container=image_fact,
        **_observe_fields(observed),
        **placement_fields(req.placement_check, req.origins, profile, placed.slots),
    ))


def _job_shape(profile: Profile, req: Request, size: _Size, sched: _Schedule, extras: _Extras,
               launch: _Launch, partial_devices: int, stop: _Stop) -> JobShape:
    """The scheduler-facing part of the plan (partial_devices: the GPUs of part of a node)."""
    return JobShape(size.nodes, size.rpn, cpus_per_rank(profile, launch.shape),
                    partial_devices or profile.devices_per_node, sched.walltime,
                    sched.queue.queue, sched.account, sched.job_name, sched.filesystems,
                    _alloc_flags(profile, extras.shared.method, extras.stage), req.requeue,
                    sched.queue.reason, stop.warn, bool(partial_devices), stop.warn_lead)


def _partial(profile: Profile, sched: _Schedule, size: _Size) -> tuple[Profile, int, bool, int]:
    """(profile, devices used per node, part of a node?, its cores per rank): on a partition
    allocated by resources a job that uses part of a node asks for only that part."""
    used = _devices_used(profile, size)
    if not _partial_node(sched.queue.queue, used, profile.devices_per_node):
        return profile, used, False, 0
    cpus = _partial_cpus(profile, size, used)
    return _unbound(profile, sched.queue.queue, used), used, True, cpus


def _with_bill(profile: Profile, plan: Plan) -> Plan:
    """The plan with its bill (billing.py), and a warning when it is more than the work needs."""
    bill = bill_for(profile, plan)
    if bill is None:
        return plan
    warnings = (*plan.warnings, f"bill: {bill.waste}") if bill.waste else plan.warnings
    return replace(plan, bill=bill, warnings=warnings)


def _observe_fields(observed: Observe) -> dict[str, object]:
    """Plan fields of --profile, --monitor and --tensorboard."""
    return dict(profile=observed.profile, monitor=observed.monitor, observe_env=observed.env,
                observe_facts=observed.facts)
