"""The bundled apps' fast defaults: a measured configuration per device class, from the app's
manifest (`tuned:`), carried into the rendered command and shown by `explain` with the
measurement behind each choice.

A configuration was measured as a whole (precision, memory format and compile together, on one
GPU model), so it is applied as a whole or not at all: on the GPU vendor it was measured on,
when the site runs its precision, and when the request does not ask for another precision.
Where it is not applied, or nothing was measured, the facts say why and the runtime's own
defaults hold. Data-loader workers follow from the cores each rank gets (resource arithmetic,
not a measured choice).
"""

from __future__ import annotations

from ..frozen import Frozen
from ..profiles.facts import Fact
from .apps import App
from .placement import Slot

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:  # the render path reads profiles as records (jobgen.profiles.records)
    from typing import Any

    from ..profiles.model import Profile

MEASUREMENTS = "jobgen H100 measurements 2026-11-23 (docs/measurements/h100-2026-11-23.md)"
# The H100 runs used AdamW's default implementation, which is foreach for GPU tensors.
OPTIMIZER_EVIDENCE = ("the measured runs used AdamW's default implementation, foreach on CUDA "
                      "(fused: not measured)")
MAX_WORKERS = 8


class Tuning(Frozen):
    """What the app's defaults add to the command, and why (or why not)."""

    device_class: str
    precision: str | None  # the configuration's precision when it applies
    args: tuple[str, ...]
    facts: tuple[Fact, ...]


def _layer(app: App) -> str:
    return f"app manifest (workloads/{app.name}/manifest.yaml)"


def _not_applied(app: App, device_class: str, reason: str) -> Tuning:
    fact = Fact(f"tuned defaults for {device_class}: not applied", reason, MEASUREMENTS,
                _layer(app))
    return Tuning(device_class, None, (), (fact,))


def tune(app: App, profile: Profile, requested_precision: str | None) -> Tuning:
    """The app's measured configuration for the profile's device class, if it applies."""
    cls = profile.device_kind
    entry = app.tuned.get(cls)
    if not isinstance(entry, dict):
        return _not_applied(app, cls, str(entry or "not measured"))
    gpus = profile.node.gpus
    vendor = gpus.vendor if gpus else None
    if entry.get("vendor") and entry["vendor"] != vendor:
        return _not_applied(app, cls, f"measured on {entry['measured_on']}; not measured on "
                                      f"{vendor or 'this'} devices")
    precision = str(entry["precision"])
    if precision not in profile.precision.supported:
        return _not_applied(app, cls, f"the measured configuration runs {precision}, which "
                                      f"{profile.name} does not support")
    if requested_precision not in (None, precision):
        return _not_applied(app, cls, f"--precision {requested_precision} differs from the "
                                      f"measured {precision}; the other settings were measured "
                                      "only with it (add them with --app-args)")
    return _applied(app, cls, entry, precision)


def _applied(app: App, cls: str, entry: dict[str, Any], precision: str) -> Tuning:
    evidence = entry.get("evidence") or {}
    source = f"{MEASUREMENTS}: {entry['measured_on']}"
    layer = _layer(app)
    facts = [Fact(f"--precision {precision}", f"precision: {evidence.get('precision')}",
                  source, layer)]
    args: list[str] = []
    for key, flag in (("channels_last", "--channels-last"), ("compile", "--compile")):
        on = bool(entry.get(key))
        if on:
            args.append(flag)
        text = flag if on else f"{flag} not used"
        facts.append(Fact(text, f"{key}: {evidence.get(key, 'not measured')}", source, layer))
    args += ["--optimizer-impl", "foreach"]
    facts.append(Fact("--optimizer-impl foreach", OPTIMIZER_EVIDENCE, source, layer))
    return Tuning(cls, precision, tuple(args), tuple(facts))


def loader_workers(profile: Profile, slots: tuple[Slot, ...] | list[Slot],
                   ranks_per_node: int) -> tuple[tuple[str, ...], Fact]:
    """`--workers N`: the rank's cores minus the one its training loop runs on (at most
    :data:`MAX_WORKERS`); the cores come from the binding, or the node shared evenly."""
    cores = min((len(s.cores) for s in slots if s.cores), default=0)
    if not cores:
        node = profile.node
        cores = node.sockets * node.cores_per_socket // max(ranks_per_node, 1)
    workers = max(0, min(MAX_WORKERS, cores - 1))
    fact = Fact(f"--workers {workers}",
                f"data-loader workers for on-disk data: {cores} core(s) per rank, one for the "
                "training loop; throughput effect not measured (the H100 runs used synthetic "
                "data made on the device; pinned host memory on CUDA is the runtime's default)",
                "the plan's placement", "computed by jobgen")
    return ("--workers", str(workers)), fact
