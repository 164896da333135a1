"""Rules on the environment the ranks get: misspelt and unexported variables, the sets of
variables a site documents for a communication library, node-local paths, the rendezvous
address, modules, and settings meant for another vendor's GPUs."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...profiles.model import EnvSet, EnvVar, Profile
from ...shell import quote, split
from .context import Context, LaunchView
from .core import Hit, as_int, distance, rule

_ENV = "the site profile's env (each variable's why and source)"


def _env_facts(p: Profile) -> list[str]:
    return [f"{v.name}={v.value or ''}: {v.why} ({v.source})" for v in _profile_env(p)]


def _profile_env(profile: Profile) -> list[EnvVar]:
    """Every variable the profile names: its env, binding recipes and device sharing."""
    out = list(profile.env)
    out += [v for r in profile.cpu_binding.recipes for v in r.extra_env]
    out += list(profile.device_sharing.env) if profile.device_sharing else []
    return out


def _known_names(profile: Profile) -> set[str]:
    names = {v.name for v in _profile_env(profile)}
    names |= {m for s in profile.env_sets for m in s.members}
    names |= {x for x in (profile.gpu_affinity.variable, profile.launcher.rank_env.rank,
                          profile.launcher.rank_env.local_rank,
                          profile.launcher.rank_env.world_size,
                          profile.launcher.rank_env.local_size) if x}
    if profile.device_hierarchy:
        names.add(profile.device_hierarchy.variable)
    return names


#: A known name with one of these endings dropped is the same setting cut short
#: (MIOPEN_USER_DB for MIOPEN_USER_DB_PATH): the library reads only the full name.
_CUT = ("_PATH", "_DIR", "_FILE")


def misspelling(name: str, known: set[str]) -> str | None:
    """The documented name `name` misspells, if it is one."""
    if name in known or len(name) < 8:
        return None
    cut = sorted(k for k in known if any(k == name + end for end in _CUT))
    close = cut or sorted(k for k in known if distance(name, k) <= 2)
    return close[0] if close else None


def _unread_facts(p: Profile) -> list[str]:
    out = _env_facts(p)
    if p.env_facts:
        out += [f"{u.name} unread: {u.severity}, {u.effect} ({u.source})"
                for u in p.env_facts.unread]
    return out


@rule("ENV001", "misspelt-variable", topic="environment", severity="error",
      scope="variables the script sets", source=_ENV, fix="rename it",
      summary="a variable one or two letters (or a _PATH/_DIR ending) away from a documented "
      "one: the library never reads it", facts=_unread_facts, lowers_to=("warning",),
      lowered="where the profile's env_facts.unread say the library falls back to a working "
      "default without it (MIOpen's user database)")
def _misspelt(ctx: Context) -> Iterator[Hit]:
    known = _known_names(ctx.profile)
    by_name = {v.name: v for v in _profile_env(ctx.profile)}
    unread = {u.name: u for u in ctx.profile.env_facts.unread} if ctx.profile.env_facts else {}
    seen = set()
    for s in ctx.script.settings:
        right = misspelling(s.name, known)
        if right is None or (s.name, s.line) in seen:
            continue
        seen.add((s.name, s.line))
        var, effect = by_name.get(right), unread.get(right)
        what = f" ({var.why})" if var else ""
        if effect is not None:
            yield Hit(s.line, f"{s.name} is never read: the library reads {right}{what}; "
                      f"without it, {effect.effect}", f"rename it to {right}",
                      effect.source, effect.severity)
        else:
            yield Hit(s.line, f"{s.name} is never read: the library reads {right}{what}",
                      f"rename it to {right}", var.source if var else None)


def _set_applies(ctx: Context, s: EnvSet, launch: LaunchView) -> bool:
    vendor = ctx.profile.node.gpus.vendor if ctx.profile.node.gpus else None
    if s.applies_to == "ai":
        ok = launch.ai
    elif s.applies_to == "miopen":  # several processes share the cache
        gpus = max([as_int(i.value.split(":")[-1]) or 0 for i in ctx.find("--gpus-per-node")],
                   default=0)
        ok = launch.ai and vendor == "amd" and bool(ctx.node.devices) and \
            max(launch.ranks_per_node or 1, gpus, ctx.nodes or 1) > 1
    else:
        ok = launch.collective == s.applies_to and bool(ctx.node.devices)
    nodes = ctx.nodes
    if s.min_nodes is not None and (nodes is None or nodes < s.min_nodes):
        return False
    return ok and not any(ctx.loads(m, launch.line) for m in s.unless_modules)


def _sets(profile: Profile) -> list[EnvSet]:
    """The profile's documented sets, and one per `required` name no set lists (an essential
    set declared on the variables themselves), applied to AI framework launches."""
    sets = list(profile.env_sets)
    listed = {m for s in sets for m in s.members}
    extra: dict[str, list[EnvVar]] = {}
    for v in profile.env:
        if v.required and v.name not in listed:
            extra.setdefault(v.required, []).append(v)
    for name, members in extra.items():
        sets.append(EnvSet(name=name, applies_to="ai", members=[v.name for v in members],
                           why=members[0].why, source=members[0].source))
    return sets


def _set_facts(p: Profile) -> list[str]:
    return [f"{s.name} (for {s.applies_to} programs"
            f"{f', {s.min_nodes}+ nodes' if s.min_nodes else ''}"
            f"{f', unless {s.unless_modules}' if s.unless_modules else ''}): "
            f"{', '.join(s.members)}: {s.why} ({s.source})" for s in _sets(p)]


@rule("ENV002", "documented-set-incomplete", topic="environment", severity="warning",
      scope="launches of the programs a set is for (oneCCL, NCCL or RCCL collectives, MIOpen, "
      "AI frameworks), from its node count, unless a module provides it",
      source="the site profile's env_sets", fix="export the missing variables",
      summary="a documented set of variables (oneCCL minimal set, NCCL over Slingshot...) "
      "with members missing", facts=_set_facts)
def _dropped(ctx: Context) -> Iterator[Hit]:
    values = {v.name: v.value for v in ctx.profile.env}
    known = _known_names(ctx.profile)
    for s in _sets(ctx.profile):
        launch = next((la for la in ctx.launches if _set_applies(ctx, s, la)), None)
        if launch is None:
            continue
        misspelt = {misspelling(n, known) for n in launch.env}
        missing = [m for m in s.members if m not in launch.env and m not in misspelt and
                   not _preset(ctx, m, launch)]
        if missing:
            shown = ", ".join(f"{m}={values.get(m) or '...'}" for m in missing)
            yield Hit(launch.line, f"{s.name}: {len(missing)} of {len(s.members)} not set "
                      f"({', '.join(missing)}): {s.why}", f"export {shown}", s.source)


def _preset(ctx: Context, name: str, launch: LaunchView) -> bool:
    var = next((v for v in ctx.profile.env if v.name == name), None)
    return bool(var and var.preset_by and ctx.loads(var.preset_by, launch.line))


# /tmp is each compute node's own (in memory on LUMI, the profile says) on every site.
_NODE_LOCAL = ("/tmp",)


def _node_local_paths(profile: Profile) -> dict[str, str]:
    """Variables the profile keeps on node-local storage, with the path it gives them."""
    local = profile.node.local_storage
    roots = (*_NODE_LOCAL, local.path.split("$", 1)[0].rstrip("/")) if local else _NODE_LOCAL
    out: dict[str, str] = {}
    for var in profile.env:
        value = var.value or ""
        ref = re.fullmatch(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?(/.*)?", value)
        if ref and ref.group(1) in out:
            value = out[ref.group(1)] + (ref.group(2) or "")
        if var.action == "set" and value.startswith("/") and (var.node_dir or any(
                value == r or value.startswith(r + "/") for r in roots)):
            out[var.name] = value
    return out


def _leading_path(value: str, variables: dict[str, str]) -> str:
    """`$MIOPEN_DIR/cache` with MIOPEN_DIR=/scratch/${ACCOUNT}/miopen: the path it starts with
    (what follows may stay unexpanded); the value itself when it starts otherwise."""
    m = re.fullmatch(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?(/.*)?", value)
    if m and m.group(1) != "HOME" and variables.get(m.group(1), "").startswith("/"):
        return variables[m.group(1)] + (m.group(2) or "")
    return value


@rule("ENV003", "node-local-path", topic="storage", severity="warning",
      scope="variables the profile keeps on node-local storage", source=_ENV,
      fix="keep it on node-local storage", facts=_env_facts,
      summary="a cache the site keeps node-local moved to a shared filesystem")
def _node_local(ctx: Context) -> Iterator[Hit]:
    exported = ctx.script.exported()
    by_name = {v.name: v for v in ctx.profile.env}
    for name, path in _node_local_paths(ctx.profile).items():
        s = exported.get(name)
        if s is None or not s.value:
            continue
        root = "/" + path.split("/")[1]
        value = _leading_path(s.value, ctx.script.variables)
        if value.startswith(("$HOME", "${HOME}", "~")) or \
                (value.startswith("/") and not value.startswith(root)):
            shown = s.value if value == s.value else f"{s.value} ({value})"
            yield Hit(s.line, f"{name}={shown} leaves node-local {root}: "
                      f"{by_name[name].why}", f"keep it under {root}, e.g. {path}",
                      by_name[name].source)


#: Prefixes of variables a library reads from the environment of the ranks.
_LIBRARY_VARS = re.compile(r"^(CCL_|NCCL_|RCCL_|FI_|MIOPEN_|HOROVOD_|ZE_|ZEX_|MPICH_|MPIR_CVAR_|"
                           r"I_MPI_|OMP_|KMP_|HSA_|HIP_|ROCR_|CUDA_|TORCH_|PYTORCH_|"
                           r"TF_|ITEX_|IPEX_|SYCL_|ONEAPI_)")


_ASSIGNMENT = re.compile(r"^\s*([A-Z][A-Z0-9_]*)=")


@rule("ENV004", "unexported-setting", topic="environment", severity="warning",
      scope="library variables (CCL_, NCCL_, FI_, MIOPEN_, OMP_, ...) assigned before a "
      "launch", source="bash(1): a variable reaches child processes only when exported; "
      "mpiexec and srun pass on the environment, not the shell's variables",
      fix="write `export NAME=value`",
      summary="a library setting assigned without export: the ranks never see it")
def _unexported(ctx: Context) -> Iterator[Hit]:
    if not ctx.launches:
        return
    exported = {s.name for s in ctx.script.settings}
    last = ctx.launches[-1].line
    for number, text in enumerate(ctx.script.lines[:last], 1):
        m = _ASSIGNMENT.match(text) if "=" in text else None
        if not m or number in ctx.script.heredoc_lines or not _LIBRARY_VARS.match(m.group(1)):
            continue
        name = m.group(1)
        if name in exported or re.search(rf"\${{?{name}\b", ctx.script.text) or \
                re.search(rf"\bexport\s+(?:\w+\s+)*{name}\b", ctx.script.text):
            continue  # exported, or a helper the script reads itself
        assignment = _prefix_assignment(text, name)
        if assignment is None:
            continue  # `NAME=value command ...`: bash puts it in that command's environment
        yield Hit(number, f"{name} is assigned but not exported: the launcher passes the "
                  "environment to the ranks, and this shell variable is not in it",
                  f"write `export {assignment}`")


def _prefix_assignment(text: str, name: str) -> str | None:
    """`NAME=value` as the line assigns it, or None where the assignments prefix a command
    (bash(1) SIMPLE COMMAND EXPANSION: they go into that command's environment only)."""
    try:
        words = split(text.split(" #", 1)[0])
    except ValueError:
        words = text.split()
    statement: list[str] = []
    for w in words:  # the first statement of the line (`A=1; srun ...` ends it at `;`)
        statement.append(w.rstrip(";"))
        if w.endswith(";") or w in ("&&", "||"):
            break
    if any(not re.match(r"[A-Za-z_][A-Za-z0-9_]*=", w) for w in statement if w):
        return None
    value = next((w.partition("=")[2] for w in statement if w.startswith(f"{name}=")), "")
    return f"{name}={quote(value)}"


@rule("MASTER001", "foreign-master-suffix", topic="environment", severity="error",
      scope="scripts that set MASTER_ADDR from the node list",
      source="the site profile's launcher.master.suffix", fix="append the site's suffix",
      summary="a rendezvous host name on another site's network",
      facts=lambda p: [f"suffix {p.launcher.master.suffix!r} ({p.launcher.master.source})"])
def _master_suffix(ctx: Context) -> Iterator[Hit]:
    suffix = ctx.profile.launcher.master.suffix
    value = ctx.script.variables.get("MASTER_ADDR")
    if not suffix or not value:
        return
    # the suffix after the short name: `${first%%.*}.hsn...` or `$(... | cut -d. -f1).hsn...`
    m = re.search(r"[)}]((?:\.[A-Za-z0-9-]+)+)[\"']?$", value)
    if not m or m.group(1) == suffix:
        return
    line = next((s.line for s in ctx.script.settings if s.name == "MASTER_ADDR"),
                ctx.launches[-1].line if ctx.launches else ctx.first_line)
    yield Hit(line, f"MASTER_ADDR ends in {m.group(1)}, but {ctx.profile.name}'s nodes are "
              f"{suffix} on the high-speed network: the ranks wait for a host they cannot "
              "reach", f"append {suffix}", ctx.profile.launcher.master.source)


def _tensorflow(ctx: Context) -> bool:
    """The script runs TensorFlow: a TensorFlow-only variable (ITEX_*) or program."""
    if any(s.name.startswith("ITEX_") for s in ctx.script.settings):
        return True
    return any(re.search(r"(?i)tensorflow|(^|[/_])tf[_.]", " ".join(launch.program[:2]))
               for launch in ctx.launches)


@rule("MODULE001", "other-framework-module", topic="environment", severity="warning",
      scope="scripts that run TensorFlow (an ITEX_ variable or a TensorFlow program)",
      source="the site profile's modules (their framework)", fix="load the framework's module",
      summary="the PyTorch stack's module loaded for a TensorFlow job",
      facts=lambda p: [f"module {m.name}: {m.framework} ({m.source})" for m in p.modules
                       if m.framework])
def _framework_module(ctx: Context) -> Iterator[Hit]:
    if not _tensorflow(ctx):
        return
    stacks = [m for m in ctx.profile.modules if m.action == "load" and m.name and m.framework]
    own = [m.name for m in stacks if m.framework == "tensorflow"]
    for line, module in ctx.modules_loaded():
        # the profile's most specific module: open-ce/1.10.0-py311-ibm before open-ce
        named = [m for m in stacks if m.name and (module == m.name or
                                                  module.startswith(m.name + "/"))]
        m = max(named, key=lambda x: len(x.name or ""), default=None)
        if m is None or m.framework == "tensorflow":
            continue
        yield Hit(line, f"`module load {module}` is {ctx.profile.name}'s {m.framework} stack, "
                  f"but this script runs tensorflow: {m.why}",
                  f"load {', '.join(own) or 'the tensorflow module'} instead", m.source)


_VENDOR_VARS = {
    "nvidia": re.compile(r"^(CUDA_|NCCL_|NVIDIA_)"),
    "amd": re.compile(r"^(ROCR_|HIP_|HSA_|MIOPEN_|RCCL_)"),
    "intel": re.compile(r"^(ZE_|ZEX_|CCL_|ONEAPI_|IPEX_|SYCL_|ONEAPI_DEVICE_SELECTOR)"),
}
_VENDOR_MODULES = {
    "nvidia": re.compile(r"\b(cuda|cudatoolkit|nvhpc|nccl|craype-accel-nvidia\w*)\b", re.I),
    "amd": re.compile(r"\b(rocm|amd-mixed|craype-accel-amd\w*)\b", re.I),
    "intel": re.compile(r"\b(oneapi|intel_compute_runtime)\b", re.I),
}
# NCCL_* names are what RCCL reads too; ROCm honours CUDA_VISIBLE_DEVICES.
_ALLOWED_ON = {"amd": {"nvidia"}}


def _vendor_hits(ctx: Context, vendor: str) -> Iterator[Hit]:
    gpus = ctx.profile.node.gpus
    if gpus is None or gpus.vendor == vendor or vendor in _ALLOWED_ON.get(gpus.vendor, set()):
        return
    var = ctx.profile.gpu_affinity.variable
    instead = f" (this site selects devices with {var})" if var else ""
    for s in ctx.script.settings:
        if _VENDOR_VARS[vendor].match(s.name):
            yield Hit(s.line, f"{s.name} is a {vendor.upper()} setting; {ctx.profile.name} has "
                      f"{gpus.vendor.upper()} GPUs ({gpus.model}), so it does nothing or "
                      "misleads", f"remove it{instead}")
    for line, text in ctx.script.modules:
        if _VENDOR_MODULES[vendor].search(text):
            yield Hit(line, f"`{text}` loads {vendor.upper()} software on {ctx.profile.name} "
                      f"({gpus.vendor.upper()} GPUs)", "remove it")


_VENDOR_SOURCE = "the site profile's node.gpus.vendor"


@rule("VENDOR001", "cuda-elsewhere", topic="environment", severity="warning",
      scope="sites without NVIDIA GPUs (AMD sites read NCCL_ and CUDA_ names too)",
      source=_VENDOR_SOURCE, fix="remove it", summary="NVIDIA settings on another vendor's GPUs")
def _cuda_elsewhere(ctx: Context) -> Iterator[Hit]:
    return _vendor_hits(ctx, "nvidia")


@rule("VENDOR002", "rocm-elsewhere", topic="environment", severity="warning",
      scope="sites without AMD GPUs", source=_VENDOR_SOURCE, fix="remove it",
      summary="ROCm settings on another vendor's GPUs")
def _rocm_elsewhere(ctx: Context) -> Iterator[Hit]:
    return _vendor_hits(ctx, "amd")


@rule("VENDOR003", "intel-elsewhere", topic="environment", severity="warning",
      scope="sites without Intel GPUs", source=_VENDOR_SOURCE, fix="remove it",
      summary="oneAPI settings on another vendor's GPUs")
def _intel_elsewhere(ctx: Context) -> Iterator[Hit]:
    return _vendor_hits(ctx, "intel")


def _interface_facts(p: Profile) -> list[str]:
    si = p.env_facts.socket_interfaces if p.env_facts else None
    return [f"{', '.join(si.variables)} select among {', '.join(si.names)} ({si.source})"] \
        if si else ["no interface facts"]


def interfaces_selected(value: str, names: list[str]) -> list[str]:
    """The interfaces a NCCL_SOCKET_IFNAME-style value selects: prefixes separated by ',',
    `=name` for an exact name, a leading `^` to exclude (NCCL's env.html)."""
    text = value.strip().strip("\"'")
    exclude = text.startswith("^")
    items = [x for x in text.lstrip("^").split(",") if x]

    def hit(name: str) -> bool:
        return any(name == x[1:] if x.startswith("=") else name.startswith(x) for x in items)

    return [n for n in names if hit(n) != exclude]


@rule("ENV005", "interface-not-on-node", topic="environment", severity="error",
      scope="scripts that set a variable naming the node's network interfaces "
      "(NCCL_SOCKET_IFNAME) on sites whose profile lists them",
      source="the site profile's env_facts.socket_interfaces", facts=_interface_facts,
      fix="name the high-speed interfaces, e.g. NCCL_SOCKET_IFNAME=hsn0,hsn1,hsn2,hsn3",
      summary="an interface selection that matches none of the node's high-speed interfaces")
def _interfaces(ctx: Context) -> Iterator[Hit]:
    si = ctx.profile.env_facts.socket_interfaces if ctx.profile.env_facts else None
    if si is None:
        return
    for s in ctx.script.settings:
        if s.name not in si.variables or not s.value or "$" in s.value:
            continue
        if not interfaces_selected(s.value, si.names):
            yield Hit(s.line, f"{s.name}={s.value} selects none of {ctx.profile.name}'s "
                      f"high-speed interfaces ({', '.join(si.names)}): {si.why}",
                      f"export {s.name}={','.join(si.names)}", si.source)


def _module_need_facts(p: Profile) -> list[str]:
    needs = p.env_facts.module_needs if p.env_facts else []
    return [f"{n.variable}={n.value} needs module {n.module} ({n.source})" for n in needs] \
        or ["none"]


def _unloaded(ctx: Context, module: str, before: int) -> int | None:
    """The line of the last `module unload M` (or purge, or swap away from M) before a line,
    when no later `module load M` brings it back."""
    gone = None
    for line, text in ctx.script.modules:
        if line >= before:
            break
        words = text.split()[1:]
        verb, names = (words[0], words[1:]) if words else ("", [])
        named = any(n == module or n.startswith(module + "/") for n in names)
        if verb in ("unload", "rm", "del") and named or verb == "purge" or \
                verb in ("swap", "switch") and names[:1] and named and \
                (names[0] == module or names[0].startswith(module + "/")):
            gone = line
        elif verb in ("load", "add") and named:
            gone = None
    return gone


@rule("ENV006", "setting-without-its-module", topic="environment", severity="error",
      scope="scripts that set a variable which works only with a module the site loads by "
      "default, after unloading or purging that module",
      source="the site profile's env_facts.module_needs", facts=_module_need_facts,
      fix="keep the module loaded (or load it again before the launch), or drop the setting",
      summary="a setting whose library the script has unloaded (GPU-aware MPICH without its "
      "GTL module)")
def _module_needs(ctx: Context) -> Iterator[Hit]:
    needs = ctx.profile.env_facts.module_needs if ctx.profile.env_facts else []
    for need in needs:
        for launch in ctx.launches:
            if launch.env.get(need.variable, "").strip("\"'") != need.value:
                continue
            gone = _unloaded(ctx, need.module, launch.line)
            if gone is not None:
                yield Hit(launch.line, f"{need.variable}={need.value} but module {need.module} "
                          f"is unloaded (line {gone}): the program fails at run time "
                          f"(\"{need.error}\"); {need.why}", f"remove the unload, or "
                          f"`module load {need.module}` before the launch", need.source)
                break
