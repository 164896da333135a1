"""`jobgen explain`: the plan laid open: per-rank placement, a drawing of one node, and every
directive, module, export and launcher flag with its reason, source and layer.

Builds one report (plain data, so `--format json` is the same content) and formats it.
"""

from __future__ import annotations

from typing import Any

from ..plan.build import Plan, Request
from ..plan.profiling import CPU_SOURCE
from ..plan.program import PREFLIGHT_EXIT
from ..profiles.cpus import format_cpu_list, parse_cpu_list
from ..profiles.facts import Fact
from ..profiles.load import LoadedProfile
from ..profiles.provenance import Provenance
from ..shell import join
from .scriptparse import directive_items

RANK_SYMBOLS = "0123456789abcdefghijklmnopqrstuvwxyz"

# directive option -> (Request field / command-line option, profile key path or None)
_DIRECTIVE_ORIGIN: dict[str, tuple[str, str | None]] = {
    "-A": ("account", None), "--account": ("account", None), "-P": ("account", None),
    "-N": ("job_name", None), "--job-name": ("job_name", None), "-J": ("job_name", None),
    "--jobname": ("job_name", None), "-O": ("job_name", None), "-o": ("job_name", None),
    "-e": ("job_name", None),
    "-q": ("queue", "scheduler.queues"), "--partition": ("queue", "scheduler.queues"),
    "-l select": ("nodes", "scheduler.system_resource"), "--nodes": ("nodes", None),
    "-nnodes": ("nodes", None), "-n": ("nodes", None),
    "-l walltime": ("walltime", "scheduler.default_walltime"),
    "--time": ("walltime", "scheduler.default_walltime"),
    "-W": ("walltime", "scheduler.default_walltime"),
    "-t": ("walltime", "scheduler.default_walltime"),
    "-l filesystems": ("filesystems", "scheduler.filesystems"),
    "-alloc_flags": ("", "scheduler.alloc_flags"),
}


def _option(field: str) -> str:
    return "--" + field.replace("_", "-")


def _fact(text: str, why: str, source: str, layer: str, unconfirmed: str | None,
          **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"text": text, "why": why, "source": source, "layer": layer,
                           "unconfirmed": unconfirmed}
    out.update(extra)
    return out


class _Layers:
    def __init__(self, loaded: LoadedProfile, req: Request, plan: Plan) -> None:
        self.prov = Provenance(loaded)
        self.loaded = loaded
        self.req = req
        self.plan = plan

    def directive(self, text: str, layer: str) -> str:
        profile = self.loaded.profile
        body = text[len(self.plan.directive_prefix):].strip()
        if any(d.value == body for d in profile.scheduler.directives):
            return self.prov.layer("scheduler.directives")
        if layer == "command line":
            return "command line"
        items = directive_items(body)
        key = items[0][0] if items else ""
        field, path = _DIRECTIVE_ORIGIN.get(key, ("", None))
        origins = dict(self.req.origins)
        if field in origins:  # a user default (config file or environment)
            return origins[field]
        if field and getattr(self.req, field, None) is not None:
            return f"command line ({_option(field)})"
        if path:
            return f"{self.prov.layer(path)} ({path})"
        if field == "job_name":
            return "jobgen default (the app's name)"
        if field == "nodes":
            return "jobgen default (1 node)"
        return "computed by jobgen from the request and the node topology"

    def directive_source(self, text: str, source: str, layer: str) -> str:
        """The directive's source, unless a user's profile set its value bare (a walltime of
        their own): then that file, not the site's guide, which never said it."""
        if layer == "command line":
            return source
        items = directive_items(text[len(self.plan.directive_prefix):].strip())
        field, path = _DIRECTIVE_ORIGIN.get(items[0][0] if items else "", ("", None))
        if not path or field in dict(self.req.origins) or (
                field and getattr(self.req, field, None) is not None):
            return source
        own = self.prov.own_value(path)
        return f"your own value: {own} ({path})" if own else source

    def env(self, name: str, layer: str) -> str:
        if layer == "command line":
            user = {e.partition("=")[0] for e in self.req.env}
            return "command line (--env)" if name in user else "command line"
        if layer == "plan":
            return "computed by jobgen"
        if any(v.name == name for v in self.loaded.profile.env):
            return self.prov.layer("env")
        return f"{self.prov.layer('cpu_binding.recipes')} (binding recipe)"

    def simple(self, layer: str, path: str) -> str:
        if layer == "command line":
            return "command line"
        if layer == "plan":
            return f"computed by jobgen from {self.prov.layer(path)} ({path})"
        return self.prov.layer(path)

    def launch(self, layer: str, source: str) -> str:
        if layer == "profile":
            return self.prov.layer("launcher.args")
        if layer == "command line":
            return "command line"
        b = self.loaded.profile.cpu_binding
        path = "cpu_binding" if source == b.source else "launcher"
        return f"computed by jobgen from {self.prov.layer(path)} ({path})"


def build_report(loaded: LoadedProfile, req: Request, plan: Plan,
                 notes: list[str] | None = None) -> dict[str, Any]:
    layers = _Layers(loaded, req, plan)
    report: dict[str, Any] = {
        "site": plan.site,
        "status": plan.status,
        "jobgen": plan.version,
        "request": plan.regenerate,
        "profile": {"digest": plan.profile_digest, "chain": [
            {"name": pf.name, "path": str(pf.path), "layer": layers.prov.describe(pf, i)}
            for i, pf in enumerate(loaded.chain)]},
        "summary": {
            "nodes": plan.nodes, "ranks_per_node": plan.ranks_per_node,
            "ranks_per_device": plan.ranks_per_device, "world_size": plan.world_size,
            "instances": plan.instances, "dist_backend": plan.backend,
            "queue": plan.queue, "walltime_seconds": plan.walltime, "precision": plan.precision,
            "device": plan.device_kind, "framework": plan.framework,
        },
        "notes": [*(notes or []), *plan.notes],
        "defaults": [{"key": key, "value": _default_value(req, key), "layer": layer}
                     for key, layer in req.origins],
        "placement": [
            {"local_rank": s.local_rank, "cpus": format_cpu_list(s.cpus),
             "cores": format_cpu_list(s.cores), "device": s.device, "device_label": s.device_label,
             "mask": s.mask, "numa": s.numa, "nic": s.nic}
            for s in plan.slots
        ],
        "mask_variable": plan.mask_variable,
        "device_selection": _device_selection(plan, layers),
        "node": _node(plan, loaded, layers),
        "drawing": draw_node(plan, loaded),
        "directives": [
            _fact(d.text, d.why, layers.directive_source(d.text, d.source, d.layer),
                  layers.directive(d.text, d.layer), d.unconfirmed)
            for d in plan.directives
        ],
        "modules": [
            _fact(m.text, m.why, m.source, layers.simple(m.layer, "modules"), m.unconfirmed)
            for m in plan.modules
        ] + [
            _fact(f.text, f.why, f.source, layers.simple(f.layer, "python"), f.unconfirmed)
            for f in plan.python_setup
        ],
        "environment": [
            _fact("; ".join(filter(None, (e.shell, e.make_dir_line))), e.why, e.source,
                  layers.env(e.name, e.layer), e.unconfirmed, name=e.name)
            for e in plan.env
        ],
        "rendezvous": _rendezvous(plan, layers),
        "rank_env": _fact(
            f"RANK={plan.rank_env.rank} LOCAL_RANK={plan.rank_env.local_rank}",
            plan.rank_env.why, plan.rank_env.source, layers.prov.layer("launcher.rank_env"),
            plan.rank_env.unconfirmed),
        "prelaunch": _prelaunch(plan, layers),
        "launcher": _launcher(plan, layers),
        "app_command": plan.command_line,
        "program": _program(plan),
        "steps": _steps(plan, layers),
        "profiling": _profiling(plan, layers),
        "warnings": list(plan.warnings),
        "bill": _bill(plan, layers),
    }
    report["unconfirmed"] = _unconfirmed(report)
    report["references"] = _references(report, loaded)
    from ..text.render import render
    from .scriptlines import script_lines

    report["script_lines"] = script_lines(render(plan))
    return report


def _bill(plan: Plan, layers: _Layers) -> dict[str, Any] | None:
    """What the job is charged at most, the rule's arithmetic and its source (billing.py)."""
    bill = plan.bill
    if bill is None:
        return None
    return _fact(bill.line, bill.why, bill.source, layers.prov.layer("scheduler.billing"),
                 bill.unconfirmed, unit=bill.unit, amount=bill.amount, per_hour=bill.per_hour,
                 needed_per_hour=bill.needed_per_hour)


def _sources(item: Any) -> list[str]:
    if isinstance(item, dict):
        own = [item["source"]] if isinstance(item.get("source"), str) else []
        return own + [s for v in item.values() for s in _sources(v)]
    if isinstance(item, list):
        return [s for v in item for s in _sources(v)]
    return []


def _references(report: dict[str, Any], loaded: LoadedProfile) -> dict[str, str]:
    """The source keys the report's sources use (UG, LUG, EZ...), each with what it names:
    the profile's `references`, which say the repository, commit and date."""
    import re

    refs = loaded.profile.references
    used = {w for s in _sources(report) for w in re.findall(r"[A-Za-z][A-Za-z0-9]*", s)}
    return {key: refs[key] for key in sorted(refs) if key in used}


def _rendezvous(plan: Plan, layers: _Layers) -> dict[str, Any]:
    """Where MASTER_ADDR comes from, and how MASTER_PORT is chosen."""
    port = plan.port.text if plan.port and plan.uses_port else "no MASTER_PORT (torchrun's own)"
    return _fact(
        f"MASTER_ADDR from {plan.master.method}"
        + (f" ${plan.master.hostfile}" if plan.master.hostfile else "")
        + (f" + {plan.master.suffix}" if plan.master.suffix else "") + f", {port}",
        plan.master.why, plan.master.source, layers.prov.layer("launcher.master"),
        plan.master.unconfirmed)


# Why the script reads its host list as it does, checked by the tests named.
HOST_LIST_WHY = ("the shell reads the whole host list itself (read, one awk, or scontrol's "
                 "whole output kept): under set -e -o pipefail a writer killed by SIGPIPE "
                 "after its reader stopped early (| head -n 1) would end the job without a "
                 "word, which a large allocation's host list makes likely")
HOST_LIST_SOURCE = ("jobgen tests/test_prelaunch_scale.py (every site's whole-machine "
                    "prelaunch, 20 runs; scontrol writes in 4 KiB blocks)")
PORT_SOURCE = ("jobgen tests/test_e2e.py (two 2-node local-slurm jobs at once on one host: "
               "with one fixed port the second fails with EADDRINUSE)")


def _prelaunch(plan: Plan, layers: _Layers) -> list[dict[str, Any]]:
    """The batch script's own steps before the launch that the request does not name: the
    machine-size check, the job's id, the host list, the port."""
    out = []
    machine = plan.machine_fact
    if machine is not None:
        out.append(_fact(machine.text, machine.why, machine.source,
                         layers.prov.layer("machine"), machine.unconfirmed))
    if plan.uses_job_id:
        uses = "the rendezvous port" if plan.uses_port and not plan.port.fixed else ""
        uses = " and ".join(filter(None, (uses, "the staged data's directory name"
                                          if plan.stage else "", "the profiled ranks' TMPDIRs"
                                          if plan.profile else "")))
        out.append(_fact(f"JOBGEN_JOB_ID={plan.job_id_expr}", f"the job's id: it picks {uses}",
                         f"the scheduler's job environment ({plan.dialect})",
                         "computed by jobgen", None))
    if plan.master.method != "localhost":
        out.append(_fact("MASTER_ADDR: the first compute host, read without a pipeline",
                         HOST_LIST_WHY, HOST_LIST_SOURCE, "computed by jobgen", None))
    if plan.port is not None and plan.uses_port:
        out.append(_fact(plan.port.text, plan.port.why, "command line (--env)"
                         if plan.port.fixed else PORT_SOURCE, "command line" if plan.port.fixed
                         else "computed by jobgen", None))
    return out


def _launcher(plan: Plan, layers: _Layers) -> dict[str, Any]:
    return {
        "command": plan.launcher_name if plan.launcher else "",
        "line": plan.launch_line,
        "binding": _fact(plan.binding.text, plan.binding.why, plan.binding.source,
                         layers.simple(plan.binding.layer, "cpu_binding.recipes"
                                       if plan.binding.layer == "profile" else "cpu_binding"),
                         plan.binding.unconfirmed),
        "args": [
            _fact(join(a.words), a.why, a.source, layers.launch(a.layer, a.source),
                  a.unconfirmed)
            for a in plan.launch_args
        ],
        "source": layers.loaded.profile.launcher.source,
        "placement_check": _placement_check(plan),
    }


def _placement_check(plan: Plan) -> dict[str, Any] | None:
    """--placement-check: what every rank compares with the plan before its program starts."""
    f = getattr(plan, "placement_fact", None)
    return None if f is None else _fact(f.text, f.why, f.source, f.layer, f.unconfirmed)


def _device_selection(plan: Plan, layers: _Layers) -> dict[str, Any] | None:
    """How each rank comes to use its device, and what the program must do for it."""
    sel = getattr(plan, "device_selection", None)
    if sel is None:
        return None
    return _fact(sel.text, sel.why, sel.source, layers.prov.layer("gpu_affinity"),
                 sel.unconfirmed)

def _default_value(req: Request, key: str) -> str:
    value = req.queue_preference if key == "queue" else getattr(req, key)
    return ", ".join(value) if isinstance(value, tuple) else str(value)


def _program(plan: Plan) -> list[dict[str, Any]]:
    """How the ranks' program starts: launcher command, bundled package, the checks before the
    launch, and the app's defaults with the measurement behind each."""
    facts = [f for f in (plan.launcher_fact,) if f is not None]
    if plan.program is not None:
        facts += plan.program.facts
    facts += plan.app_defaults
    return [_fact(f.text, f.why, f.source, f.layer, f.unconfirmed) for f in facts]


def _steps(plan: Plan, layers: _Layers) -> list[dict[str, Any]]:
    """Device sharing and collectives, framework variant, Copper and staging, where the plan
    has them."""
    out = []
    for f, path in ((plan.sharing_fact, "device_sharing"), (plan.backend_fact, "")):
        if f is not None:
            layer = layers.simple(f.layer, path) if path else "computed by jobgen"
            out.append(_fact(f.text, f.why, f.source, layer, f.unconfirmed))
    if plan.summary:
        out.append(_fact(f"after the run: {join(plan.summary)}", "sums the instances' "
                         "result lines into the job's total throughput (samples/s)",
                         "workloads/summarize.py", "computed by jobgen", None))
    fv = getattr(plan, "framework_variant", None)
    if fv is not None:
        out.append(_fact(fv.text, fv.why, fv.source, layers.simple(fv.layer, "framework_stack"),
                         fv.unconfirmed))
    fs = getattr(plan, "framework_support", None)
    if fs is not None:
        out.append(_fact(fs.text, fs.why, fs.source, layers.simple(fs.layer, "frameworks"),
                         fs.unconfirmed))
    copper = getattr(plan, "copper", None)
    if copper is not None:
        routes = ", ".join(reversed(copper.routes))
        out.append(_fact(f"{copper.launch}, then {routes} read through {copper.mount.text} "
                         "(a venv's site-packages or a package directory on PYTHONPATH, a conda "
                         "environment activated through the mount)", copper.why, copper.source,
                         "command line (--copper)", None))
        if plan.program is not None and plan.program.package:
            out.append(_fact(f"$JOBGEN_DIR/python (the bundled package) read through "
                             f"{copper.mount.text} by every rank",
                             "every rank imports the bundled app's package: its PYTHONPATH "
                             "entry is prefixed with the mount, as copper.md routes a custom "
                             "package directory",
                             "UG docs/aurora/data-management/copper/copper.md (Routing paths "
                             "through Copper: Custom package directory)",
                             "command line (--copper)", None))
    image = getattr(plan, "container", None)
    if image is not None:
        out.append(_fact(image.text, image.why, image.source, image.layer, image.unconfirmed))
    stage = getattr(plan, "stage", None)
    if stage is not None:
        out.append(_fact(f"unpack {stage.archive} to {stage.dest} on every node; each node "
                         "marks the directory it makes, and the exit trap removes it only "
                         "where it carries this job's mark", f"{stage.why}; --stage-to must "
                         f"lie under {stage.area} (no '..', not the storage itself), and the "
                         "trap never removes a directory the job did not make",
                         "request", "command line (--stage)", None))
        bf = stage.broadcast_fact
        if bf is not None:
            out.append(_fact(bf.text, bf.why, bf.source, layers.simple(
                bf.layer, "node.local_storage.broadcast"), bf.unconfirmed))
    if plan.node_dirs:
        out.append(_fact(f"mkdir -p {join(plan.node_dirs)} on every node (removed at exit)",
                         "node-local directories the environment names (node_dir)",
                         "profile env", layers.prov.layer("env"), None))
    pre = plan.preemption
    if pre is not None:
        out.append(_fact(pre.text, pre.why, pre.source, layers.simple(pre.layer,
                         "scheduler.preemption"), pre.unconfirmed))
    stop = getattr(plan, "stop_fact", None)
    if stop is not None:
        out.append(_fact(stop.text, stop.why, stop.source, layers.simple(
            stop.layer, "scheduler.preemption"), stop.unconfirmed))
    rs = plan.rank_signal_fact
    if rs is not None:
        out.append(_fact(f"signals reach the ranks with: {rs.text}", rs.why, rs.source,
                         layers.prov.layer("launcher.signal_ranks"), rs.unconfirmed))
    out.append(_provenance(plan))
    return out


def _provenance(plan: Plan) -> dict[str, Any]:
    """The record the batch script writes once per job (templates/_provenance.j2)."""
    rec = plan.record
    program = f"the git commit and dirty state of {rec.program}" if rec.program else \
        "no git commit (the program is a command found on PATH)"
    return _fact(
        f"provenance: $PWD/jobgen-runs/{plan.job_name}.<job id>/provenance.json, once per job",
        f"jobgen {plan.version}; sha256 of this script as run ($0) and of the {plan.site} "
        f"profile ({plan.profile_digest[:12]}); LOADEDMODULES and `module --terse list`; "
        f"`{join(rec.python)}`'s packages as pip freeze lists them (importlib.metadata; "
        f"`conda list --export` in a conda environment); {program}; the hosts "
        f"(${rec.hosts_name}); the values of the "
        f"{len(rec.exports)} variables jobgen sets. Bash only, each command under `timeout`, "
        "a missing tool recorded as absent, never fatal; jobgen collect shows the digests",
        "jobgen (docs/study.md, Provenance)", "computed by jobgen", None)


def _profiling(plan: Plan, layers: _Layers) -> list[dict[str, Any]]:
    """--profile, --monitor and --tensorboard: the wrapped ranks' tool, the monitors, every
    exported variable, and the outputs with their estimated size."""
    facts: list[Any] = []
    prof = getattr(plan, "profile", None)
    if prof is not None:
        facts.append(prof.fact)
        if prof.steps:
            first, stop = prof.steps
            facts.append(Fact(f"steps {first}-{stop - 1} ({stop - first} steps)",
                              "the chosen steps (--profile-steps A:B: the indices A to B-1)",
                              "request", "command line (--profile-steps)"))
    mon = getattr(plan, "monitor", None)
    if mon is not None:
        facts.append(mon.fact)
        if mon.gpu_fact is not None:
            facts.append(mon.gpu_fact)
        facts.append(Fact(f"CPU sampler every {mon.interval} s: CPU busy %, memory used",
                          "read by the monitor script itself on every node", CPU_SOURCE,
                          "computed by jobgen"))
    if getattr(plan, "observe_env", ()):
        facts.append(Fact(f"export JOBGEN_RUN_ID={plan.job_name}.<job id>; export "
                          "JOBGEN_RUN_DIR=$PWD/jobgen-runs/$JOBGEN_RUN_ID",
                          "the run's own output directory, named after the job and its id so "
                          "that runs never write into each other's",
                          "jobgen (docs/profiling.md)", "computed by jobgen"))
    for e in getattr(plan, "observe_env", ()):
        facts.append(Fact(e.shell, e.why, e.source, "computed by jobgen"))
    facts += getattr(plan, "observe_facts", ())
    return [_fact(f.text, f.why, f.source, layers.simple(f.layer, "profiling")
                  if f.layer in ("profile", "plan") else f.layer, f.unconfirmed)
            for f in facts]


def _node(plan: Plan, loaded: LoadedProfile, layers: _Layers) -> dict[str, Any]:
    node = loaded.profile.node
    out: dict[str, Any] = {
        "sockets": node.sockets, "cores_per_socket": node.cores_per_socket,
        "threads_per_core": node.threads_per_core, "smt_numbering": node.smt_numbering,
        "topology": _fact(f"{node.sockets} x {node.cores_per_socket} cores, "
                          f"{node.threads_per_core} threads per core", node.why, node.source,
                          layers.prov.layer("node"), node.unconfirmed),
    }
    if node.reserved is not None:
        r = node.reserved
        out["reserved"] = _fact(f"reserved cores {format_cpu_list(r.cores) or 'none'}", r.why,
                                r.source, layers.prov.layer("node.reserved"), r.unconfirmed,
                                cores=list(r.cores))
    if node.gpus is not None:
        g = node.gpus
        sub = f" x {g.subdevices_per_gpu} {g.subdevice_name}s" if g.subdevice_name else ""
        out["gpus"] = _fact(f"{g.count} x {g.model}{sub}", g.why, g.source,
                            layers.prov.layer("node.gpus"), g.unconfirmed)
    if node.nics is not None:
        n = node.nics
        out["nics"] = _fact(f"{n.count} NICs" + (f" ({', '.join(n.names)})" if n.names else ""),
                            n.why, n.source, layers.prov.layer("node.nics"), n.unconfirmed)
    aff = loaded.profile.gpu_affinity
    out["gpu_affinity"] = _fact(
        f"{aff.scheme}" + (f" via {aff.variable}" if aff.variable and aff.scheme == "mask"
                           else "")
        + (f", {aff.hierarchy} hierarchy" if aff.hierarchy else "")
        + (f", order {aff.order}" if aff.order else ""),
        aff.why, aff.source, layers.prov.layer("gpu_affinity"), aff.unconfirmed)
    return out


def _unconfirmed(report: dict[str, Any]) -> list[str]:
    out = []

    def visit(item: Any) -> None:
        if isinstance(item, dict):
            if item.get("unconfirmed") and "text" in item:
                out.append(f"{item['text']}: {item['unconfirmed']}")
            for value in item.values():
                visit(value)
        elif isinstance(item, list):
            for value in item:
                visit(value)

    for key in ("node", "device_selection", "directives", "modules", "environment",
                "rendezvous", "rank_env", "prelaunch", "launcher", "program", "steps",
                "profiling"):
        visit(report[key])
    return out


# ---------------------------------------------------------------- drawing
def draw_node(plan: Plan, loaded: LoadedProfile) -> list[str]:
    """One node: a row of cores per NUMA domain (or socket), each marked with its owner."""
    profile = loaded.profile
    node = profile.node
    total = node.sockets * node.cores_per_socket
    owner: dict[int, str] = {}
    for s in plan.slots:
        sym = RANK_SYMBOLS[s.local_rank] if s.local_rank < len(RANK_SYMBOLS) else "#"
        for c in s.cores:
            owner[c] = "*" if c in owner else sym
    reserved = set(node.reserved.cores) if node.reserved else set()
    service = set()
    if getattr(plan, "copper", None) is not None and profile.copper:
        service = set(profile.copper.service_cores)
    if node.numa:
        rows = [(f"NUMA {d.id}", parse_cpu_list(d.cores)) for d in node.numa]
    else:
        rows = [(f"socket {k}", list(range(k * node.cores_per_socket,
                                            (k + 1) * node.cores_per_socket)))
                for k in range(node.sockets)]
    lines = [f"one node: {node.sockets} socket(s) x {node.cores_per_socket} cores"
             f" ({total} cores, {total * node.threads_per_core} logical CPUs)"]
    width = max(len(label) for label, _ in rows)
    for label, cores in rows:
        sockets = sorted({c // node.cores_per_socket for c in cores})
        where = "/".join(f"socket {k}" for k in sockets)
        cells = "".join(
            "R" if c in reserved else "C" if c in service else owner.get(c, ".") for c in cores
        )
        span = format_cpu_list(cores)
        lines.append(f"  {label:<{width}}  {where:<9} cores {span:<9} {cells}")
    lines.append("  legend: 0-9a-z local rank owning the core, R reserved, "
                 + ("C Copper service core, " if service else "") + ". not bound")
    if node.gpus and plan.partial_devices:
        name = node.gpus.subdevice_name or "device"
        ranks = "; ".join(f"{name} {s.device} -> rank {s.local_rank}" for s in plan.slots
                          if s.device is not None)
        lines.append(f"  the job's {plan.partial_devices} of {profile.devices_per_node} "
                     f"{name}s, which the scheduler picks on the shared node (numbered from 0 "
                     f"in the job): {ranks}")
    elif node.gpus:
        by_device: dict[int, list[int]] = {}
        for s in plan.slots:
            if s.device is not None:
                by_device.setdefault(s.device, []).append(s.local_rank)
        devices = {d.index: d for d in node.gpus.devices}
        subs = node.gpus.subdevices_per_gpu
        name = node.gpus.subdevice_name
        for g in range(node.gpus.count):
            parts = []
            numa = nic = None
            for k in range(subs):
                index = g * subs + k
                dev = devices.get(index)
                if dev is not None:
                    numa = dev.numa if dev.numa is not None else numa
                    nic = dev.nic or nic
                ranks = by_device.get(index, [])
                who = ", ".join(f"rank {r}" for r in ranks) or "idle"
                parts.append(f"{name} {k} -> {who}" if name else who)
            near = (f" NUMA {numa}" if numa is not None else "") + (f" NIC {nic}" if nic else "")
            lines.append(f"  GPU {g}{near}: " + "; ".join(parts))
    return lines


# ---------------------------------------------------------------- text
def _fmt_fact(f: dict[str, Any], indent: str = "  ") -> list[str]:
    out = [f"{indent}{f['text']}"]
    out.append(f"{indent}    why: {f['why']}")
    out.append(f"{indent}    source: {f['source']}   layer: {f['layer']}")
    if f.get("unconfirmed"):
        out.append(f"{indent}    UNCONFIRMED: {f['unconfirmed']}")
    return out


def format_text(report: dict[str, Any], width: int | None = None) -> str:
    """The report as text; WIDTH (a terminal's) wraps every long line at spaces, never inside
    a word, the placement table and the node drawing excepted (they are fixed columns)."""
    s = report["summary"]
    from ..profiles.walltime import hms

    lines = [
        f"jobgen explain: {report['site']} ({report['status']}), jobgen {report['jobgen']}",
        f"request: {report['request']}",
        "profile: " + " <- ".join(f"{c['name']} ({c['layer']})" for c in report["profile"]["chain"])
        + f"  sha256:{report['profile']['digest'][:16]}",
        (f"job: {s['nodes']} node(s) x {s['ranks_per_node']} instance(s) = {s['instances']} "
         "independent trainings (world size 1 each), " if s["instances"] else
         f"job: {s['nodes']} node(s) x {s['ranks_per_node']} rank(s) = {s['world_size']} ranks, ")
        + f"collectives {s['dist_backend'] or '-'}, "
        f"queue {s['queue'] or '-'}, walltime {hms(s['walltime_seconds'])}, "
        f"{s['precision']} on {s['device']}",
    ]
    fixed: set[int] = {1}  # the request: a command to copy, whole; and the fixed columns below
    lines += [f"note: {n}" for n in report["notes"]]
    lines += [f"default: {d['key']}={d['value']}   layer: {d['layer']}"
              for d in report["defaults"]]
    lines += [f"WARNING: {w}" for w in report["warnings"]]
    lines += ["", "== bill (the most the job is charged: nodes x the walltime asked for)"]
    lines += _fmt_fact(report["bill"]) if report.get("bill") else [
        f"  {report['site']} states no public rule for what a job is charged"]

    lines += ["", "== placement (per node-local rank)"]
    header = ["rank", "cpus", "device", report["mask_variable"] or "mask", "NUMA", "NIC"]
    rows = [[str(p["local_rank"]), p["cpus"] or "-",
             f"{p['device']} ({p['device_label']})" if p["device"] is not None else "-",
             p["mask"] if p["mask"] is not None else "-",
             str(p["numa"]) if p["numa"] is not None else "-", p["nic"] or "-"]
            for p in report["placement"]]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for r in [header, *rows]:
        lines.append("  " + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())

    lines += ["", "== node"] + report["drawing"]
    fixed.update(range(lines.index("== placement (per node-local rank)"), len(lines)))
    node = report["node"]
    for key in ("topology", "reserved", "gpus", "nics", "gpu_affinity"):
        if key in node:
            lines += _fmt_fact(node[key])
    if report.get("device_selection"):
        lines += ["", "== device selection (what the program must do)"]
        lines += _fmt_fact(report["device_selection"])

    def section(title: str, facts: list[dict[str, Any]]) -> None:
        lines.extend(["", f"== {title}"])
        if not facts:
            lines.append("  (none)")
        for f in facts:
            lines.extend(_fmt_fact(f))

    section("directives", report["directives"])
    section("modules", report["modules"])
    section("environment", report["environment"])
    section("rendezvous and rank variables", [report["rendezvous"], report["rank_env"]])
    if report["prelaunch"]:
        section("the batch script before the launch", report["prelaunch"])
    la = report["launcher"]
    lines += ["", f"== launcher: {la['command']}"]
    lines += _fmt_fact(la["binding"])
    if la.get("placement_check"):
        lines += _fmt_fact(la["placement_check"])
    for a in la["args"]:
        lines += _fmt_fact(a)
    if report["steps"]:
        section("device sharing, collectives, framework and job steps", report["steps"])
    if report.get("profiling"):
        section("profiling and monitoring (outputs in jobgen-runs/<job name>.<job id>/)",
                report["profiling"])
    if report["program"]:
        section(f"program: starts once checked (exit {PREFLIGHT_EXIT} before any rank if "
                "not); the app's defaults", report["program"])
    lines += ["", "== app command", f"  {report['app_command']}"]
    fixed.add(len(lines) - 1)  # a command to copy: whole
    own = [r for r in report.get("script_lines", []) if r["from"] == "skeleton"]
    if own:
        lines += ["", "== the script's own lines (every other line: a fact above, or the "
                  "comment above it in the script)"]
        k = 0
        while k < len(own):
            j = k
            while j + 1 < len(own) and own[j + 1]["why"] == own[k]["why"]:
                j += 1
            where = (f"line {own[k]['line']}" if j == k else
                     f"lines {own[k]['line']}-{own[j]['line']}")
            lines += [f"  {where}: {own[k]['text'].strip()}", f"      why: {own[k]['why']}"]
            k = j + 1
    if report["unconfirmed"]:
        lines += ["", f"== unconfirmed values used ({len(report['unconfirmed'])})"]
        lines += [f"  - {u}" for u in report["unconfirmed"]]
    if report.get("references"):
        lines += ["", "== sources: the keys above, and the documents they name"]
        lines += [f"  {key}: {what}" for key, what in report["references"].items()]
    if width is None:
        return "\n".join(lines) + "\n"
    out: list[str] = []
    for i, line in enumerate(lines):
        out += [line] if i in fixed else _wrap(line, width)
    return "\n".join(out) + "\n"


def _wrap(line: str, width: int) -> list[str]:
    """One line as lines of WIDTH at most, broken at spaces only (a word longer than the
    width stays whole); continuations indented under the text. A fact's source and layer
    go on lines of their own when they do not fit on one."""
    import textwrap

    if len(line) <= width:
        return [line]
    indent = line[: len(line) - len(line.lstrip())]
    body = line.lstrip()
    if body.startswith("source: ") and "   layer: " in body:
        source, layer = body.split("   layer: ", 1)
        return _wrap(indent + source, width) + _wrap(f"{indent}layer: {layer}", width)
    label = body.split(" ", 1)[0] if body.split(" ", 1)[0].endswith(":") else ""
    more = indent + " " * (len(label) + 1 if label and len(label) < 14 else 4)
    return textwrap.wrap(line, width, subsequent_indent=more, break_long_words=False,
                         break_on_hyphens=False, drop_whitespace=True) or [line]
