"""Per-rank placement: which cores and which device each node-local rank gets.

A documented recipe for the requested ranks per node wins. Otherwise the binding is computed
from the topology: ranks are grouped by the cores nearest their device (its NUMA domain or
L3 region), and each group's usable cores (reserved and excluded cores removed) are split
into equal contiguous blocks in local-rank order. Depth and jsrun styles pack blocks from the
first usable core, because that is what those launchers do; where several ranks share each
device and the site gives every device its own jsrun resource set, each device first gets
its share of its socket's cores and its ranks are packed inside that share, as jsrun does.
"""

from __future__ import annotations

from ..errors import JobgenError
from ..frozen import Frozen
from ..profiles.cpus import logical_cpus, parse_cpu_list

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:  # the render path reads profiles as records (jobgen.profiles.records)
    from ..profiles.model import BindRecipe, Device, Profile


class Slot(Frozen):
    """What one node-local rank gets."""

    local_rank: int
    cores: tuple[int, ...]  # physical cores
    cpus: tuple[int, ...]  # logical CPU ids the launcher binds to
    device: int | None  # device index as the framework sees it (tile / GCD / GPU)
    gpu: int | None
    subdevice: int | None
    mask: str | None  # the value of the GPU mask variable for this rank
    numa: int | None
    nic: str | None
    device_label: str | None = None  # e.g. "GPU 0 tile 1", "GCD 3 (GPU 1)", "GPU 2"


def usable_cores(profile: Profile, exclude: frozenset[int] = frozenset()) -> list[int]:
    node = profile.node
    reserved = set(profile.node.reserved.cores) if node.reserved else set()
    total = node.sockets * node.cores_per_socket
    return [c for c in range(total) if c not in reserved and c not in exclude]


def find_recipe(
    profile: Profile, ranks_per_node: int, framework: str, exclude: frozenset[int]
) -> BindRecipe | None:
    """The documented recipe for this rank count, unless it touches excluded cores."""
    for recipe in profile.cpu_binding.recipes:
        if recipe.ranks_per_node != ranks_per_node:
            continue
        if recipe.framework not in (None, framework):
            continue
        cores = {c for text in recipe.cpus for c in parse_cpu_list(text)}
        if cores & exclude:
            continue
        return recipe
    return None


def whole_gpus(profile: Profile, ranks_per_node: int, ranks_per_device: int) -> bool:
    """Each rank drives a whole GPU (all its sub-devices): the profile documents it and the
    node has no more ranks than GPUs, each rank alone on its device."""
    gpus = profile.node.gpus
    return bool(profile.gpu_affinity.whole_gpu and gpus and gpus.subdevices_per_gpu > 1
                and ranks_per_device == 1 and ranks_per_node <= gpus.count)


def visible_devices(profile: Profile, ranks_per_node: int, ranks_per_device: int) -> int:
    """Devices a program sees on a node before any mask: GPUs when ranks drive whole GPUs."""
    gpus = profile.node.gpus
    if gpus and whole_gpus(profile, ranks_per_node, ranks_per_device):
        return gpus.count
    return profile.devices_per_node


def _device_for(
    profile: Profile, local_rank: int, ranks_per_node: int, ranks_per_device: int
) -> int | None:
    """Device of a local rank, as the program numbers its devices.

    Where every device is visible the program selects LOCAL_RANK // ranks-per-device itself,
    so that is the device (and its cores are the ones bound). Where the wrapper narrows
    visibility, consecutive ranks share a device and, with fewer ranks than devices, the
    used devices are spread evenly (one tile per GPU, both sockets busy)."""
    ndev = visible_devices(profile, ranks_per_node, ranks_per_device)
    if not ndev:
        return None
    if profile.gpu_affinity.scheme == "all_visible" or \
            resource_set_per_device(profile, ranks_per_device):
        # the program selects LOCAL_RANK // N, or jsrun fills one resource set per device
        return local_rank // ranks_per_device
    used = -(-ranks_per_node // ranks_per_device)
    slot = (local_rank // ranks_per_device) * ndev // used
    order = profile.gpu_affinity.order
    return order[slot] if order else slot


def _locality(profile: Profile, index: int | None, whole: bool) -> Device | None:
    """The device-table entry that says where a device sits (a whole GPU: its first one)."""
    gpus = profile.node.gpus
    if index is None or gpus is None:
        return None
    key = (index, 0) if whole else None
    for dev in gpus.devices:
        if (dev.gpu, dev.subdevice) == key or (key is None and dev.index == index):
            return dev
    return None


def resource_set_per_device(profile: Profile, ranks_per_device: int) -> bool:
    """The launcher gives each shared device its own resource set (jsrun on Summit)."""
    sh = profile.device_sharing
    return bool(ranks_per_device > 1 and sh and sh.resource_set_per_device
                and profile.cpu_binding.style == "jsrun")


def device_blocks(profile: Profile, usable: list[int]) -> dict[int, list[int]]:
    """Each device's share of the usable cores nearest it: devices with the same nearest
    cores (the GPUs of one socket) split them into equal contiguous blocks in index order."""
    ndev = profile.devices_per_node
    table = {d.index: d for d in (profile.node.gpus.devices if profile.node.gpus else [])}
    allowed = set(usable)
    groups: dict[tuple[int, ...], list[int]] = {}
    for index in range(ndev):
        dev = table.get(index)
        near = parse_cpu_list(dev.cores) if dev and dev.cores else usable
        groups.setdefault(tuple(c for c in near if c in allowed), []).append(index)
    out: dict[int, list[int]] = {}
    for cores, devices in groups.items():
        label = f"the domain {cores[0]}-{cores[-1]}" if cores else "an empty domain"
        out.update(_split(list(cores), devices, label))
    return out


def _split(cores: list[int], ranks: list[int], what: str) -> dict[int, list[int]]:
    per_rank = len(cores) // len(ranks)
    if per_rank == 0:
        raise JobgenError(
            f"{len(ranks)} ranks cannot get a core each from the {len(cores)} usable cores "
            f"of {what}: use fewer ranks per node"
        )
    return {r: cores[i * per_rank : (i + 1) * per_rank] for i, r in enumerate(ranks)}


def _per_device_cores(profile: Profile, usable: list[int], ranks_per_node: int,
                      ranks_per_device: int) -> dict[int, list[int]]:
    """The ranks of each device packed into that device's block of cores."""
    blocks = device_blocks(profile, usable)
    sharing: dict[int, list[int]] = {}
    for r in range(ranks_per_node):
        dev = _device_for(profile, r, ranks_per_node, ranks_per_device) or 0
        sharing.setdefault(dev, []).append(r)
    out: dict[int, list[int]] = {}
    for dev, members in sharing.items():
        out.update(_split(blocks[dev], members, f"device {dev}'s {len(blocks[dev])} cores"))
    return out


def compute_cores(
    profile: Profile, ranks_per_node: int, ranks_per_device: int, exclude: frozenset[int]
) -> dict[int, list[int]]:
    style = profile.cpu_binding.style
    usable = usable_cores(profile, exclude)
    ranks = list(range(ranks_per_node))
    if style == "none":
        return {r: [] for r in ranks}
    if resource_set_per_device(profile, ranks_per_device):
        return _per_device_cores(profile, usable, ranks_per_node, ranks_per_device)
    if style in ("depth", "jsrun") or not profile.devices_per_node:
        return _split(usable, ranks, "the node")
    whole = whole_gpus(profile, ranks_per_node, ranks_per_device)
    groups: dict[tuple[int, ...], list[int]] = {}
    for r in ranks:
        dev = _locality(profile, _device_for(profile, r, ranks_per_node, ranks_per_device), whole)
        near = parse_cpu_list(dev.cores) if dev and dev.cores else usable
        key = tuple(c for c in near if c in set(usable))
        groups.setdefault(key, []).append(r)
    out: dict[int, list[int]] = {}
    for cores, members in groups.items():
        label = f"the domain {cores[0]}-{cores[-1]}" if cores else "an empty domain"
        out.update(_split(list(cores), members, label))
    return out


def place(
    profile: Profile,
    ranks_per_node: int,
    ranks_per_device: int,
    framework: str = "pytorch",
    exclude: frozenset[int] = frozenset(),
) -> tuple[list[Slot], BindRecipe | None]:
    recipe = find_recipe(profile, ranks_per_node, framework, exclude)
    if recipe is not None and profile.cpu_binding.style != "none":
        cores = {r: parse_cpu_list(text) for r, text in enumerate(recipe.cpus)}
    else:
        recipe = None
        cores = compute_cores(profile, ranks_per_node, ranks_per_device, exclude)
    node = profile.node
    total = node.sockets * node.cores_per_socket
    numa_of = {c: d.id for d in node.numa for c in parse_cpu_list(d.cores)}
    aff = profile.gpu_affinity
    subs = node.gpus.subdevices_per_gpu if node.gpus else 1
    whole = whole_gpus(profile, ranks_per_node, ranks_per_device)
    slots = []
    for r in range(ranks_per_node):
        index = _device_for(profile, r, ranks_per_node, ranks_per_device)
        dev = _locality(profile, index, whole)
        gpu, sub = _gpu_of(index, dev, subs, whole)
        mask = None
        if aff.scheme == "mask" and index is not None:
            composite = aff.hierarchy == "COMPOSITE" and not whole
            mask = f"{gpu}.{sub}" if composite else str(index)
        mine = cores[r]
        cpus = logical_cpus(
            mine, total, node.threads_per_core, node.smt_numbering,
            profile.cpu_binding.include_smt_siblings,
        )
        numa = dev.numa if dev and dev.numa is not None else None
        if numa is None and mine:
            numa = numa_of.get(mine[0])
        slots.append(
            Slot(r, tuple(mine), tuple(cpus), index, gpu, sub, mask, numa,
                 dev.nic if dev else None, _label(profile, gpu, sub, whole))
        )
    return slots, recipe


def _gpu_of(index: int | None, dev: Device | None, subs: int,
            whole: bool) -> tuple[int | None, int | None]:
    """(GPU, sub-device) of a device index; a whole GPU has no single sub-device."""
    if index is None:
        return None, None
    if whole:
        return index, None
    if dev is not None:
        return dev.gpu, dev.subdevice
    return index // subs, index % subs


def _label(profile: Profile, gpu: int | None, sub: int | None, whole: bool) -> str | None:
    gpus = profile.node.gpus
    if gpu is None or gpus is None:
        return None
    name = gpus.subdevice_name
    if whole and name:
        return f"GPU {gpu}, all {gpus.subdevices_per_gpu} {name}s"
    return f"GPU {gpu}" + (f" {name} {sub}" if name else "")
