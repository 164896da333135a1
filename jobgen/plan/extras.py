"""Site extras a request can ask for: device sharing, Copper, containers, data staging and
framework-stack variants. Each function checks the request against the profile and returns
plan pieces; build_plan assembles them. No text here: the templates write the shell."""

from __future__ import annotations

import re

from ..errors import JobgenError
from ..frozen import Frozen, replace
from ..profiles.facts import EnvSetting, Fact
from ..profiles.frameworks import release_key, variant_for
from ..shell import SAFE_EXPANSION, Expand, Word, join, quote
from .placement import resource_set_per_device, visible_devices, whole_gpus
from .schedulers import PREFIX

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:  # the render path reads profiles as records (jobgen.profiles.records)
    from ..profiles.model import EnvVar, Flag, FrameworkStack, ImageFamily, Profile

SAFE_PATH = re.compile(r"/[A-Za-z0-9._/+@-]*")


class CopperStep(Frozen):
    launch: str
    stop: str
    why: str
    source: str
    mount: Expand  # where Copper shows the filesystem on every node, e.g. /tmp/${USER}/copper
    routes: tuple[str, ...] = ()  # the --copper-path environments, routed last to first


class StageStep(Frozen):
    archive: str
    dest: str  # normalised; may reference ${USER} and ${JOBGEN_JOB_ID}; rendered double-quoted
    why: str
    area: str  # the node-local storage it lies under
    warnings: tuple[str, ...] = ()
    alloc_flag: Flag | None = None  # the scheduler flag that provides the storage (LSF NVME)
    # The site's broadcast tool (Aurora: dbcast) copies the archive to `copy` on every node
    # first; each node then unpacks its copy and removes it. () where every node reads it.
    broadcast: tuple[Word, ...] = ()
    copy: str = ""  # node-local path of the copy; references ${JOBGEN_JOB_ID}
    broadcast_fact: Fact | None = None
    module: Fact | None = None  # the broadcast tool's module

    @property
    def source(self) -> Word:
        """What each node unpacks: its broadcast copy, or the archive itself."""
        return Expand(self.copy) if self.copy else self.archive


class FrameworkChoice(Frozen):
    module_line: str | None  # replaces the profile's load of the stack module
    app_args: tuple[str, ...]
    fact: Fact | None
    ipex: bool = False  # the stack imports intel_extension_for_pytorch
    backend: str | None = None  # the stack's collective backend


# ---------------------------------------------------------------- several processes per device
# NCCL and RCCL check, when a communicator is created, that no two of its ranks sit on one GPU.
COLLECTIVE_CHECK = ("NCCL and RCCL src/init.cc: two ranks of one communicator on the same GPU "
                    "make communicator creation fail ('Duplicate GPU detected', invalid usage); "
                    "measured on an H100 (README: Several processes per device)")
BACKENDS = {"cuda": ("nccl", "gloo"), "xpu": ("xccl", "ccl", "gloo"), "cpu": ("gloo",)}


class Backend(Frozen):
    """The torch.distributed backend of the job's ranks, and why."""

    name: str | None  # None: no process group (instances) or the user's program decides
    fact: Fact | None
    app_flag: bool  # a bundled app is told with --dist-backend NAME


def sharing_pieces(profile: Profile, per_dev: int) -> tuple[list[EnvSetting], str | None]:
    """Env for several processes per device, and the sharing method (None when unshared)."""
    sh = profile.device_sharing
    if per_dev == 1 or sh is None:
        return [], None
    env = [EnvSetting(v.name, v.value, v.action, v.expand, v.why, v.source, "command line",
                      v.unconfirmed) for v in sh.env]
    if sh.method == "ccs":
        value = ",".join(f"{i}:{per_dev}" for i in range(profile.devices_per_node))
        env.append(EnvSetting("ZEX_NUMBER_OF_CCS", value, "set", False,
                              f"{per_dev} compute command streamers per device, one per rank "
                              "sharing it", sh.source, "command line", sh.unconfirmed))
    env.append(EnvSetting("JOBGEN_RANKS_PER_DEVICE", str(per_dev), "set", False,
                          f"{per_dev} processes share each device: a program that sees every "
                          f"device selects LOCAL_RANK // {per_dev}; the bundled apps also keep "
                          "NCCL/RCCL off a shared GPU", sh.source, "command line",
                          sh.unconfirmed))
    return env, sh.method


def _refuse_shared_gpu(profile: Profile, per_dev: int, what: str) -> JobgenError:
    lib = "RCCL" if profile.node.gpus and profile.node.gpus.vendor == "amd" else "NCCL"
    return JobgenError(
        f"{what} with {per_dev} ranks per GPU would die at start-up: {lib} refuses two ranks "
        f"of one communicator on one GPU ('Duplicate GPU detected'); use --instances-per-device "
        f"{per_dev} for independent trainings, or --dist-backend gloo if your program "
        "initialises torch.distributed with gloo (the script exports JOBGEN_DIST_BACKEND=gloo)"
    )


def dist_backend(profile: Profile, per_dev: int, instances: bool, requested: str | None,
                 framework: str, bundled_app: bool, stack_backend: str | None) -> Backend:
    """The collective backend: never NCCL/RCCL for ranks that share a GPU (they refuse it at
    init), gloo instead; none for independent instances; otherwise the stack's or the
    app's default, or what the user asked for."""
    kind = profile.device_kind
    if requested is not None:
        if framework != "pytorch" or instances:
            why = ("every instance trains alone (world size 1)" if instances
                   else "it chooses torch.distributed's backend")
            raise JobgenError(f"--dist-backend has no use here: {why}; drop it")
        if requested not in BACKENDS[kind]:
            raise JobgenError(f"--dist-backend {requested} does not drive {kind} devices on "
                              f"{profile.name}: use {' or '.join(BACKENDS[kind])}")
    if instances:
        return Backend(None, Fact("none: every instance trains alone (world size 1), no "
                                  "process group, nothing shared but the device",
                                  "independent trainings (--instances-per-device)", "request",
                                  "command line"), False)
    if kind == "cuda" and per_dev > 1:
        if requested == "nccl" or framework != "pytorch" or not (bundled_app or requested):
            what = ("--dist-backend nccl" if requested else
                    "Horovod's NCCL allreduce" if framework != "pytorch" else "your program")
            raise _refuse_shared_gpu(profile, per_dev, what)
        lib = "RCCL" if profile.node.gpus and profile.node.gpus.vendor == "amd" else "NCCL"
        return Backend("gloo", Fact(
            f"gloo: {per_dev} ranks share each GPU and {lib} refuses two ranks of one "
            "communicator on one GPU; gloo reduces the gradients through host memory",
            "a data-parallel job whose ranks share GPUs must not use NCCL/RCCL; for throughput "
            "from small models prefer --instances-per-device (no communication at all)",
            COLLECTIVE_CHECK, "plan"), True)
    if requested:
        return Backend(requested, Fact(f"{requested}: chosen on the command line",
                                       "--dist-backend", "request", "command line"), True)
    if stack_backend:
        return Backend(stack_backend, None, True)  # the framework variant says why
    if not bundled_app:
        return Backend(None, None, False)
    default = {"cuda": "nccl", "xpu": "xccl", "cpu": "gloo"}[kind]
    return Backend(default, Fact(f"{default}: the bundled apps' default on {kind} devices",
                                 "one rank per device", "workloads/README.md (Backend)",
                                 "plan"), False)


# ---------------------------------------------------------------- device selection
def device_selection(
    profile: Profile, ranks_per_node: int, per_dev: int, mask_variable: str | None
) -> tuple[Fact | None, list[EnvSetting], list[EnvVar]]:
    """How each rank comes to use its device, what the program must do about it, the
    variable that tells it the ranks per device, and the device layout's own settings."""
    aff, gpus = profile.gpu_affinity, profile.node.gpus
    if gpus is None or aff.scheme == "none":
        return None, [], []
    whole = whole_gpus(profile, ranks_per_node, per_dev)
    layout = list(aff.whole_gpu.env) if whole and aff.whole_gpu else []
    kind = profile.device_kind
    if resource_set_per_device(profile, per_dev) and profile.device_sharing:
        sh = profile.device_sharing
        text = f"jsrun gives each resource set one GPU: the program uses device 0 ({kind}:0)"
        return Fact(text, sh.why, sh.source, "profile", sh.unconfirmed), [], layout
    if mask_variable:
        src = aff if aff.scheme == "mask" or profile.device_sharing is None \
            else profile.device_sharing
        text = (f"{mask_variable} narrows each rank to its own device: the program uses "
                f"device 0 ({kind}:0)")
        return Fact(text, src.why, src.source, "profile", src.unconfirmed), [], layout
    count = visible_devices(profile, ranks_per_node, per_dev)
    name = gpus.subdevice_name
    what = (f"{count} GPUs (all {gpus.subdevices_per_gpu} {name}s each)" if whole and name
            else f"{count} {name or 'GPU'}s")
    index = "LOCAL_RANK" + (f" // {per_dev}" if per_dev > 1 else "")
    call = "int(os.environ['LOCAL_RANK'])" + (f" // {per_dev}" if per_dev > 1 else "")
    text = (f"every rank sees the node's {what}: the program selects device {index}, "
            f"e.g. torch.{kind}.set_device({call})")
    src = aff.whole_gpu if whole and aff.whole_gpu else aff
    fact = Fact(text, src.why, src.source, "profile", src.unconfirmed)
    env = EnvSetting("JOBGEN_RANKS_PER_DEVICE", str(per_dev), "set", False,
                     "ranks per device: a program selects device LOCAL_RANK // "
                     "JOBGEN_RANKS_PER_DEVICE (the bundled apps do)", aff.source, "plan",
                     aff.unconfirmed)
    return fact, [env], layout


# ---------------------------------------------------------------- Copper
_NOT_AN_ENV_ROOT = re.compile(r".*/(bin|activate|python[0-9.]*)")


def copper_pieces(profile: Profile, paths: tuple[str, ...]) -> tuple[CopperStep, Fact]:
    """Copper's start and stop, and the environments to route through its mount.

    What each path is can only be seen on the filesystem, so the script decides at job time,
    as copper.md routes each kind: a venv's lib/python3.X/site-packages on PYTHONPATH, a
    conda environment by `conda activate` through the mount, a package directory on
    PYTHONPATH as it is. Here: refuse what can never work."""
    cu = profile.copper
    if cu is None:
        raise JobgenError(f"{profile.name} has no Copper: drop --copper (Copper runs on Aurora)")
    if not paths:
        raise JobgenError(
            "--copper needs --copper-path DIR for each Python environment to serve through "
            "Copper (a venv or conda environment root, or a package directory)"
        )
    parts = re.split(r"\$\{[A-Za-z_][A-Za-z0-9_]*\}", cu.mount.rstrip("/"))
    under_mount = re.compile("[^/]+".join(map(re.escape, parts)) + "(/.*)?")
    for path in paths:
        if not SAFE_PATH.fullmatch(path):
            raise JobgenError(f"--copper-path {path!r} must be an absolute path of plain "
                              "characters (letters, digits, . _ / + @ -)")
        if under_mount.fullmatch(path):
            raise JobgenError(f"--copper-path {path}: give the environment's own path; the "
                              f"script routes it through {cu.mount} itself")
        if _NOT_AN_ENV_ROOT.fullmatch(path.rstrip("/")):
            raise JobgenError(f"--copper-path {path}: give the environment's root directory "
                              "(the one holding bin/ and lib/) or its site-packages, not a "
                              "program in it")
    given = [p.rstrip("/") or "/" for p in paths]
    if len(set(given)) != len(given):
        raise JobgenError("--copper-path: each environment once")
    routes = tuple(reversed(given))
    module = Fact(f"module load {quote(cu.module)}", cu.why, cu.source, "command line",
                  cu.unconfirmed)
    step = CopperStep(cu.launch, cu.stop, cu.why, cu.source, Expand(cu.mount), routes)
    return step, module


# ---------------------------------------------------------------- containers
def container_prefix(
    profile: Profile, image: str | None
) -> tuple[list[str], str | None, Fact | None]:
    """(words before python, python inside, module to load) for the request's container."""
    default = profile.python.container
    if image is None:
        if default is None:
            return [], None, None
        words = [default.runtime, "exec"]
        for bind in default.binds:
            words += ["-B", bind]
        words.append(default.image)
        if default.activate_var:
            words += ["bash", "-c", f'${default.activate_var} && exec "$@"', "bash"]
        return words, default.python, None
    rt = profile.containers
    if rt is None:
        raise JobgenError(f"{profile.name}'s profile has no container runtime: drop --container")
    if not image or image.startswith("-"):
        raise JobgenError(f"--container {image!r} must name an image file")
    words = [rt.runtime, "exec", *rt.exec_args]
    for bind in rt.binds:
        words += ["-B", bind]
    words.append(image)
    family = image_family(profile, image)
    if family and family.activate_var:
        words += ["bash", "-c", f'${family.activate_var} && exec "$@"', "bash"]
    module = None
    if rt.module:
        module = Fact(f"module load {quote(rt.module)}", rt.why, rt.source, "command line",
                      rt.unconfirmed)
    return words, rt.python, module


def image_family(profile: Profile, image: str | None) -> ImageFamily | None:
    """The profile's family of `image` (by directory), which brings its own bindings."""
    rt = profile.containers
    if image is None or rt is None:
        return None
    return next((f for f in rt.families for prefix in f.image_prefixes
                 if image.startswith(prefix.rstrip("/") + "/")), None)


def container_setup(profile: Profile, image: str | None
                    ) -> tuple[list[Fact], list[EnvVar], list[Fact], Fact | None]:
    """(module commands, environment, scheduler directives, the runtime's reason) a user's own
    image needs here, as the site documents running containers; nothing without --container.
    An image of a family gets the family's modules too (the profile's that they replace are
    dropped by `replaced_modules`)."""
    rt = profile.containers
    if image is None or rt is None:
        return [], [], [], None
    words, _, _ = container_prefix(profile, image)
    family = image_family(profile, image)
    why = rt.why + (f"; {family.why}" if family else "")
    source = rt.source + (f"; {family.source}" if family else "")
    unconfirmed = "; ".join(filter(None, (rt.unconfirmed, family and family.unconfirmed))) \
        or None
    runtime = Fact(join(words), why, source, "command line (--container)", unconfirmed)
    modules = [Fact(f"module {m.action}" + (f" {quote(m.name)}" if m.name else ""),
                    f"--container: {m.why}", m.source, "profile", m.unconfirmed)
               for m in (*rt.modules, *(family.modules if family else ()))]
    prefix = PREFIX[profile.scheduler.dialect]
    directives = [Fact(f"{prefix} {d.value}", f"--container: {d.why}", d.source, "profile",
                       d.unconfirmed) for d in rt.directives]
    return modules, list(rt.env), directives, runtime


def replaced_modules(profile: Profile, image: str | None) -> frozenset[str]:
    """The profile's module names that the image's family replaces with its own."""
    family = image_family(profile, image)
    return frozenset(family.replaces) if family else frozenset()


# ---------------------------------------------------------------- data staging
# Where --stage unpacks when the profile names no node-local storage: /tmp is each node's own
# on every Linux cluster jobgen knows, but the profile cannot say how big or whether memory.
FALLBACK_LOCAL = "/tmp"
# Variables a --stage-to path may name: none can hold a '/' or '..' that would move it.
STAGE_VARIABLES = {"USER", "JOBGEN_JOB_ID"}
STAGE_DEFAULT = "jobgen-data-${JOBGEN_JOB_ID}"  # one directory per job, so jobs sharing a
# node never meet in it


def _braced(path: str) -> str:
    """$USER and ${USER} written alike, so paths compare by meaning."""
    return re.sub(r"\$([A-Za-z_][A-Za-z0-9_]*)", r"${\1}", path)


def _under(path: str, prefixes: list[str]) -> str | None:
    """The first prefix `path` is, or lies under."""
    path = _braced(path).rstrip("/") or "/"
    for prefix in prefixes:
        top = _braced(prefix).rstrip("/")
        if path == top or path.startswith(top + "/"):
            return prefix
    return None


def _stage_path(target: str) -> str:
    """--stage-to as a normalised absolute path: no '..', no '.', no empty components; its
    only variables ${USER} and the job id, which cannot move it elsewhere."""
    if not target.startswith("/") or not SAFE_EXPANSION.fullmatch(target):
        raise JobgenError(f"--stage-to {target!r} must be an absolute path with no quote, "
                          "backslash, backtick, control character or $ other than ${USER}")
    parts = [c for c in _braced(target).split("/") if c not in ("", ".")]
    if ".." in parts:
        raise JobgenError(f"--stage-to {target}: '..' is not allowed (the script would unpack "
                          "into, and at exit remove, another directory than the one named): "
                          "name the directory itself")
    names = set(re.findall(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}", "/".join(parts)))
    if names - STAGE_VARIABLES:
        raise JobgenError(f"--stage-to {target}: it may reference only ${{USER}}, not "
                          f"{', '.join(f'${{{n}}}' for n in sorted(names - STAGE_VARIABLES))}")
    return "/" + "/".join(parts)


def stage_step(profile: Profile, archive: str | None, dest: str | None,
               nodes: int = 1) -> StageStep | None:
    """Unpack `archive` once per node, into a new directory strictly under the node-local
    storage: a directory every node sees would be unpacked into by all nodes at once, and the
    exit trap removes the directory, so it must be one the script itself made there."""
    if archive is None:
        if dest is not None:
            raise JobgenError("--stage-to goes with --stage ARCHIVE")
        return None
    if not re.search(r"\.(tar|tar\.gz|tgz|tar\.bz2|tar\.xz|tar\.zst)$", archive):
        raise JobgenError(f"--stage {archive!r} must be a tar archive (.tar, .tar.gz, .tgz, ...)")
    local = profile.node.local_storage
    area = _braced(local.path if local else FALLBACK_LOCAL).rstrip("/")
    target = _stage_path(dest) if dest else f"{area}/{STAGE_DEFAULT}"
    shared = profile.node.shared_storage
    hit = _under(target, shared.paths) if shared else None
    if hit:
        raise JobgenError(
            f"--stage-to {target}: {hit} is shared by every node of the {profile.name} job, so "
            f"all nodes would unpack into the same directory at once; stage to node-local "
            f"{area} instead (or drop --stage-to)")
    if _under(area, [target]):
        what = "the node-local storage itself" if target == area else f"above {area}"
        raise JobgenError(f"--stage-to {target} is {what}: name a new directory under {area}, "
                          f"e.g. {area}/data (the script removes the directory it unpacks "
                          "into at exit)")
    if not _under(target, [area]):
        where = (f"{profile.name}'s node-local storage {area} ({local.why})" if local else
                 f"{area}, the node-local directory jobgen assumes on {profile.name}")
        raise JobgenError(f"--stage-to {target} is outside {where}: stage under it, e.g. "
                          f"{area}/data")
    return _broadcast(profile, _staged_on(profile, archive, target, area), area, nodes)


_ARCHIVE_SUFFIX = re.compile(r"\.(tar|tar\.gz|tgz|tar\.bz2|tar\.xz|tar\.zst)$")


def _broadcast(profile: Profile, step: StageStep, area: str, nodes: int) -> StageStep:
    """Where the site's guide broadcasts archives to the nodes (Aurora's dbcast), the archive
    is read once and copied to each node's storage, then unpacked there."""
    local = profile.node.local_storage
    tool = local.broadcast if local else None
    if tool is None:
        return step
    from .launchers import per_node_ranks

    suffix = _ARCHIVE_SUFFIX.search(step.archive)
    copy = f"{area}/jobgen-stage-${{JOBGEN_JOB_ID}}{suffix.group(0) if suffix else '.tar'}"
    words = (*per_node_ranks(profile, nodes, tool.ranks_per_node), *tool.command)
    fact = Fact(f"{join(words)} ARCHIVE {copy}: the archive read once and broadcast to every "
                "node, then each node unpacks its copy, and the copies are removed", tool.why,
                tool.source, "profile", tool.unconfirmed)
    module = Fact(f"module load {quote(tool.module)}", f"{tool.command[0]}'s module (--stage: "
                  f"{tool.why})", tool.source, "profile", tool.unconfirmed) \
        if tool.module else None
    return replace(step, broadcast=words, copy=copy, broadcast_fact=fact, module=module,
                   why=f"{step.why}; the archive broadcast to each node with "
                   f"{tool.command[0]} first")


def _staged_on(profile: Profile, archive: str, target: str, area: str) -> StageStep:
    local = profile.node.local_storage
    if local is None:
        return StageStep(archive, target, f"untar once per node to {target} before the launch",
                         area, warnings=(f"--stage: {profile.name}'s profile names no node-local "
                                         f"storage; jobgen assumes {area} is each node's own",))
    warnings = [f"--stage: {local.unconfirmed}"] if local.unconfirmed else []
    if local.memory:
        warnings.append(f"--stage: {local.path} on {profile.name} is memory ({local.why}): the "
                        "unpacked data counts against the job's memory; the script removes it "
                        "on every node at exit")
    flag = None
    if local.alloc_flag:
        from ..profiles.model import Flag  # Summit only: other renders read records, not the model

        flag = Flag(value=local.alloc_flag, why=f"{local.path} exists only with it (--stage)",
                    source=local.source, unconfirmed=local.unconfirmed)
    return StageStep(archive, target, f"untar once per node to the node-local {local.path} "
                     f"before the launch ({local.why})", area, warnings=tuple(warnings),
                     alloc_flag=flag)


# ---------------------------------------------------------------- framework stacks
def _known_release(profile: Profile, stack: FrameworkStack, module: str, version: str) -> None:
    """A version the profile does not list is refused, never mapped to a guessed backend."""
    known = sorted({r for v in stack.variants for r in v.releases}, key=release_key)
    if known and version not in known:
        raise JobgenError(
            f"--framework-module {module}: not a documented {stack.module} release on "
            f"{profile.name}; use {stack.module} (the default) or {stack.module}/VERSION "
            f"with VERSION one of {', '.join(known)}"
        )


def framework_choice(
    profile: Profile, module: str | None, bundled_app: bool, framework: str = "pytorch"
) -> FrameworkChoice:
    """The PyTorch stack's variant (backend, IPEX) for the requested module release."""
    stack = profile.framework_stack
    if stack is None or framework != "pytorch":
        if module:
            why = ("it chooses the PyTorch stack" if stack else
                   "it has no framework module to choose")
            raise JobgenError(f"--framework-module on {profile.name} with --framework "
                              f"{framework}: {why}; drop --framework-module")
        return FrameworkChoice(None, (), None)
    if module is not None and not re.fullmatch(rf"{re.escape(stack.module)}(/[A-Za-z0-9._-]+)?",
                                               module):
        raise JobgenError(f"--framework-module {module!r} must be {stack.module} or "
                          f"{stack.module}/VERSION")
    version = module.partition("/")[2] if module else ""
    if version:
        _known_release(profile, stack, module or "", version)
    variant = variant_for(stack, version) if version else stack.variants[0]
    args: tuple[str, ...] = ()
    if bundled_app:
        args = ("--ipex" if variant.ipex else "--no-ipex",)
    label = module or stack.module
    fact = Fact(f"{label}: backend {variant.backend}" + (" with IPEX" if variant.ipex else ""),
                variant.why, variant.source, "command line" if module else "profile",
                variant.unconfirmed)
    return FrameworkChoice(f"module load {quote(module)}" if module else None, args, fact,
                           variant.ipex, variant.backend)
