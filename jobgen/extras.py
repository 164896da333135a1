"""Site extras a request can ask for: device sharing, Copper, containers, data staging and
framework-stack variants. Each function checks the request against the profile and returns
plan pieces; build_plan assembles them. No text here: the templates write the shell."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import JobgenError
from .facts import EnvSetting, Fact
from .model import Profile
from .placement import Slot
from .shell import SAFE_EXPANSION, quote

SAFE_PATH = re.compile(r"/[A-Za-z0-9._/+@-]*")


@dataclass(frozen=True)
class CopperStep:
    launch: str
    stop: str
    why: str
    source: str


@dataclass(frozen=True)
class StageStep:
    archive: str
    dest: str  # may reference ${USER}; rendered double-quoted
    why: str


@dataclass(frozen=True)
class FrameworkChoice:
    module_line: str | None  # replaces the profile's load of the stack module
    app_args: tuple[str, ...]
    fact: Fact | None


# ---------------------------------------------------------------- device sharing
def sharing_pieces(profile: Profile, per_dev: int) -> tuple[list[EnvSetting], str | None]:
    """Env for several ranks per device, and the sharing method (None when unshared)."""
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
    return env, sh.method


def shared_masks(
    profile: Profile, slots: list[Slot], per_dev: int
) -> tuple[list[Slot], str | None]:
    """Where sharing narrows visibility although the site's scheme does not (Summit)."""
    from dataclasses import replace

    sh = profile.device_sharing
    if per_dev == 1 or sh is None or not sh.mask_variable:
        return slots, None
    return [replace(s, mask=str(s.device)) for s in slots], sh.mask_variable


# ---------------------------------------------------------------- Copper
def copper_pieces(profile: Profile, paths: tuple[str, ...]) -> tuple[CopperStep, EnvSetting, Fact]:
    cu = profile.copper
    if cu is None:
        raise JobgenError(f"{profile.name} has no Copper: drop --copper (Copper runs on Aurora)")
    if not paths:
        raise JobgenError(
            "--copper needs --copper-path DIR for each directory of your Python environment to "
            "serve through Copper (your venv's site-packages or your conda env)"
        )
    for path in paths:
        if not SAFE_PATH.fullmatch(path):
            raise JobgenError(f"--copper-path {path!r} must be an absolute path of plain "
                              "characters (letters, digits, . _ / + @ -)")
    value = ":".join(f"{cu.mount}{p.rstrip('/')}" for p in paths)
    env = EnvSetting("PYTHONPATH", value, "prepend", True,
                     "your Python packages read through the Copper cache (read-only; outputs "
                     "and checkpoints stay on the real paths)", cu.source, "command line",
                     cu.unconfirmed)
    module = Fact(f"module load {quote(cu.module)}", cu.why, cu.source, "command line",
                  cu.unconfirmed)
    step = CopperStep(cu.launch, cu.stop, cu.why, cu.source)
    return step, env, module


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
    module = None
    if rt.module:
        module = Fact(f"module load {quote(rt.module)}", rt.why, rt.source, "command line",
                      rt.unconfirmed)
    return words, rt.python, module


# ---------------------------------------------------------------- data staging
def stage_step(profile: Profile, archive: str | None, dest: str | None) -> StageStep | None:
    if archive is None:
        if dest is not None:
            raise JobgenError("--stage-to goes with --stage ARCHIVE")
        return None
    if not re.search(r"\.(tar|tar\.gz|tgz|tar\.bz2|tar\.xz|tar\.zst)$", archive):
        raise JobgenError(f"--stage {archive!r} must be a tar archive (.tar, .tar.gz, .tgz, ...)")
    local = profile.node.local_storage or "/tmp"
    target = dest or f"{local}/jobgen-data"
    if not target.startswith("/") or not SAFE_EXPANSION.fullmatch(target):
        raise JobgenError(f"--stage-to {target!r} must be an absolute path (${{USER}} allowed)")
    where = (f"the node-local {local}" if profile.node.local_storage
             else "/tmp on each node")
    return StageStep(archive, target, f"untar once per node to {where} before the launch")


# ---------------------------------------------------------------- framework stacks
def _version(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", text))


def framework_choice(
    profile: Profile, module: str | None, bundled_app: bool
) -> FrameworkChoice:
    stack = profile.framework_stack
    if stack is None:
        if module:
            raise JobgenError(f"{profile.name} has no framework module to choose: drop "
                              "--framework-module")
        return FrameworkChoice(None, (), None)
    if module is not None and not re.fullmatch(rf"{re.escape(stack.module)}(/[A-Za-z0-9._-]+)?",
                                               module):
        raise JobgenError(f"--framework-module {module!r} must be {stack.module} or "
                          f"{stack.module}/VERSION")
    version = module.partition("/")[2] if module else ""
    variant = stack.variants[0]
    if version:
        for v in stack.variants:
            if v.since is None or _version(version) >= _version(v.since):
                variant = v
                break
    args: tuple[str, ...] = ()
    if bundled_app:
        args = ("--dist-backend", variant.backend, "--ipex" if variant.ipex else "--no-ipex")
    label = module or stack.module
    fact = Fact(f"{label}: backend {variant.backend}" + (" with IPEX" if variant.ipex else ""),
                variant.why, variant.source, "command line" if module else "profile",
                variant.unconfirmed)
    return FrameworkChoice(f"module load {quote(module)}" if module else None, args, fact)
