"""Rules on containers run by the launcher: flags a site requires on its compute nodes, the
bindings a multi-node run needs, and image runscripts that change the ranks' environment."""

from __future__ import annotations

from collections.abc import Iterator

from ...errors import nodes_word
from ...profiles.model import Profile
from .context import Context, LaunchView
from .core import Hit, as_int, rule

_FACTS = "the site profile's container_facts"


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
      scope="container launches on two or more nodes", source=_FACTS, facts=_facts,
      fix="load the site's bindings module, or bind its paths into the container",
      summary="a multi-node container run without the bindings for the high-speed network")
def _network(ctx: Context) -> Iterator[Hit]:
    facts = ctx.profile.container_facts
    if facts is None or not (facts.multi_node_modules or facts.multi_node_binds):
        return
    for launch in _containers(ctx):
        nodes = as_int(launch.flag("--nodes", "-N")) or ctx.nodes
        if not nodes or nodes < 2:
            continue
        c = launch.container
        assert c is not None
        modules, why = _network_modules(ctx.profile, c.image)
        if any(ctx.loads(m, launch.line) for m in modules):
            continue
        bound = set(c.binds()) | {b.split(":", 1)[0] for name in ("SINGULARITY_BIND",
                                                                   "APPTAINER_BIND")
                                  for b in launch.env.get(name, "").split(",") if b}
        missing = [b for b in facts.multi_node_binds if b.rstrip("/") not in
                   {x.rstrip("/") for x in bound}]
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
