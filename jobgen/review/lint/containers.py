"""Rules on containers run by the launcher: flags a site requires on its compute nodes, the
bindings a multi-node run needs, and image runscripts that change the ranks' environment."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...errors import nodes_word
from ...profiles.model import Profile
from .context import Context, LaunchView
from .core import Hit, rule

_FACTS = "the site profile's container_facts"
# Where Apptainer/Singularity read binds from the environment (the -B list, and its older
# name *_BINDPATH: Apptainer user guide, Bind Paths and Mounts)
_BIND_VARIABLES = ("SINGULARITY_BIND", "APPTAINER_BIND", "SINGULARITY_BINDPATH",
                   "APPTAINER_BINDPATH")


def _facts(p: Profile) -> list[str]:
    c = p.container_facts
    if c is None:
        return ["no container rules"]
    out = [f"{c.why} ({c.source})"]
    if c.compute_node_flags:
        out.append(f"compute-node flags: {' '.join(c.compute_node_flags)}")
    if c.multi_node_modules or c.multi_node_binds:
        out.append(f"multi-node: a module of {c.multi_node_modules} or binds of "
                   f"{c.multi_node_binds}")
    out += [f"runscript of {r.image_prefix}*: copies {r.copies}: {r.why} ({r.source})"
            for r in c.runscripts]
    if c.binding_modules:
        b = c.binding_modules
        out.append(f"modules matching {b.pattern!r} bind the paths themselves: {b.why} "
                   f"({b.source})")
    return out


def _containers(ctx: Context) -> Iterator[LaunchView]:
    for launch in ctx.launches:
        if launch.container is not None and launch.container.verb in ("exec", "run", "shell"):
            yield launch


@rule("CONT001", "runscript-overrides-mask", topic="containers", severity="error",
      scope="`singularity run` of an image whose runscript the site documents, with a "
      "per-rank device mask set outside the container", source=_FACTS, facts=_facts,
      fix="start the image with `singularity exec`, or set the mask inside the container",
      summary="an image runscript that turns a per-rank device mask into no device")
def _runscript(ctx: Context) -> Iterator[Hit]:
    facts = ctx.profile.container_facts
    if facts is None:
        return
    var = ctx.profile.gpu_affinity.variable
    for launch in _containers(ctx):
        c = launch.container
        assert c is not None
        if c.verb != "run" or not launch.wrappers:
            continue
        masked = var is not None and any(st.name == var for st in ctx.script.settings
                                         if st.in_heredoc)
        for r in facts.runscripts:
            prefix = r.image_prefix.rstrip("/")
            if not (c.image.startswith(prefix + "/") and masked and var in r.copies):
                continue
            target = r.copies[var]
            if target not in launch.env:
                yield Hit(launch.line, f"`{c.runtime} run` starts the image's runscript, which "
                          f"sets {target}=${var}; the wrapper {launch.wrappers[0]} narrows "
                          f"each rank to one device with {var}, so {target} then names a "
                          f"device the rank cannot see: {r.why}",
                          f"use `{c.runtime} exec`, or export {target}=0 in the wrapper",
                          r.source)


@rule("CONT002", "multi-node-container-network", topic="containers", severity="warning",
      scope="container launches on two or more nodes, unless a bindings module or a module "
      "that binds the paths itself (LUMI's EasyBuild container modules) is loaded",
      source=_FACTS, facts=_facts,
      fix="load the site's bindings module, or bind its paths into the container",
      summary="a multi-node container run without the bindings for the high-speed network")
def _network(ctx: Context) -> Iterator[Hit]:
    facts = ctx.profile.container_facts
    if facts is None or not (facts.multi_node_modules or facts.multi_node_binds):
        return
    for launch in _containers(ctx):
        nodes = launch.nodes
        if not nodes or nodes < 2:
            continue
        c = launch.container
        assert c is not None
        modules, why = _network_modules(ctx.profile, c.image)
        if any(ctx.loads(m, launch.at) for m in modules) or ctx.binding_module(launch.at):
            continue
        # every value the script gives a bind variable before the launch: a later one often
        # keeps the earlier (`SINGULARITY_BIND=...,${SINGULARITY_BIND}`, or `$(echo
        # $SINGULARITY_BIND | sed ...)` dropping one path: heldout-2026-11-27h), so the last
        # alone may show none of the paths
        values = [launch.env.get(name, "") for name in _BIND_VARIABLES] + [
            st.value or "" for st in ctx.script.settings
            if st.name in _BIND_VARIABLES and st.line < launch.at and not st.in_heredoc]
        bound = set(c.binds()) | {b.split(":", 1)[0] for v in values for b in v.split(",")
                                  if b}
        missing = [b for b in facts.multi_node_binds if not _covered(b, bound)]
        if missing and _hand_made_network(bound, _libcxi_copies(ctx)):
            continue  # the Slingshot stack bound by hand: /opt/cray and libcxi
        if missing or not facts.multi_node_binds:
            how = " or ".join(filter(None, [
                f"module load {modules[0]}" if modules else "",
                f"-B {','.join(missing)}" if missing else ""]))
            yield Hit(launch.line, f"{c.runtime} on {nodes_word(nodes)} without the bindings the "
                      f"high-speed network needs: {why}", how)


def _network_modules(p: Profile, image: str) -> tuple[list[str], str]:
    """The bindings modules that serve `image` and why: an image family's own (LUMI's
    sif-images need singularity-AI-bindings, the AI Factory's module binds no /opt/cray),
    else any of the site's."""
    facts = p.container_facts
    assert facts is not None
    rt = p.containers
    for family in rt.families if rt else ():
        if any(image.startswith(prefix.rstrip("/") + "/") for prefix in family.image_prefixes):
            return ([m.name for m in family.modules if m.action == "load" and m.name],
                    f"{family.why} ({family.source})")
    return list(facts.multi_node_modules), facts.why


@rule("CONT003", "required-container-flag", topic="containers", severity="error",
      scope="container launches on sites that require flags on compute nodes", source=_FACTS,
      facts=_facts, fix="add the flag", summary="a container run without a flag the site "
      "requires on its compute nodes")
def _required(ctx: Context) -> Iterator[Hit]:
    facts = ctx.profile.container_facts
    if facts is None or not facts.compute_node_flags:
        return
    for launch in _containers(ctx):
        c = launch.container
        assert c is not None
        missing = [f for f in facts.compute_node_flags if f not in c.flags]
        if missing:
            yield Hit(launch.line, f"`{c.runtime} {c.verb}` without {' '.join(missing)}: "
                      f"{facts.why}", f"write `{c.runtime} {c.verb} {' '.join(missing)} ...`")


def _hand_made_network(bound: set[str], copies: frozenset[str] | set[str] = frozenset()) -> bool:
    """The high-speed network's libraries bound by hand, as LUMI's workshop reference solution
    and OLMo's LUMI scripts do: /opt/cray (or parts of it) and libcxi (LWS 05 reference
    solution: -B /var/spool/slurmd,/opt/cray,/usr/lib64/libcxi.so.1), also from a directory
    the script copies libcxi into and binds (`cp /usr/lib64/libcxi* $wd/cray-deps`,
    `-B $wd/cray-deps:/opt/cray-deps`)."""
    return _covered("/opt/cray", bound) and any("libcxi" in b or b in copies for b in bound)


def _libcxi_copies(ctx: Context) -> set[str]:
    """Directories the script copies the host's libcxi into (as written, quotes dropped)."""
    return {m.group(1).strip("\"'").rstrip("/") for m in re.finditer(
        r"\bcp\s+(?:-\w+\s+)*\S*libcxi\S*\s+(\S+)", ctx.script.text)}


def _covered(path: str, bound: set[str]) -> bool:
    """A path the network needs is in the container: bound itself, under a bound parent, or
    bound piece by piece by hand (`-B /opt/cray/pe,/opt/cray/libfabric,/usr/lib64/libcxi.so.1`
    for /opt/cray, as the LUMI workshop's reference solution does)."""
    want = path.rstrip("/")
    have = {b.rstrip("/") for b in bound if b}
    return any(want == b or want.startswith(b + "/") or b.startswith(want + "/")
               for b in have)


def _resource_facts(p: Profile) -> list[str]:
    c = p.container_facts
    return [f"{r.flag} needs {r.key}={r.value}: {r.why} ({r.source})"
            for r in (c.flag_resources if c else [])] or ["none"]


@rule("CONT004", "container-flag-without-resource", topic="containers", severity="warning",
      scope="whole PBS batch scripts that run a container with a flag the job must ask the "
      "scheduler for (Polaris: --fakeroot)", source="the site profile's "
      "container_facts.flag_resources", facts=_resource_facts,
      fix="add the resource to the job's directives",
      summary="a container flag used without the job resource that enables it (Polaris "
      "--fakeroot without -l singularity_fakeroot=true)")
def _flag_resource(ctx: Context) -> Iterator[Hit]:
    facts = ctx.profile.container_facts
    if facts is None or not facts.flag_resources or not ctx.whole:
        return
    for r in facts.flag_resources:
        if any(i.value.lower() == r.value.lower() for i in ctx.find(r.key)):
            continue
        for launch in _containers(ctx):
            c = launch.container
            assert c is not None
            if r.flag in c.flags:
                yield Hit(launch.line, f"`{c.runtime} {c.verb} {r.flag}` but the job does not "
                          f"ask for {r.key}={r.value}: {r.why}",
                          f"add `{ctx.prefix} {r.key}={r.value}`", r.source)
                break
