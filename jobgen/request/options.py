"""`render`'s options as data: one table builds the Typer command and the fast parser.

`jobgen render` is what users run most, often in loops and sweeps, so its start-up matters.
The Typer app costs tens of milliseconds to import and build; for a plain command line
(known options, well-formed values) `fast_parse` reads argv from this same table instead.
Anything else (help, completion, an unknown option, a bad value) returns None and the caller
falls back to Typer, so every usage error comes from one place and reads the same.
"""

from __future__ import annotations

import re

from ..frozen import Frozen

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:
    from typing import Any

_DIGITS = re.compile(r"[0-9]+")


class Opt(Frozen):
    """One option of `render` (and of `explain`/`diff`, which copy render's options)."""

    name: str  # the Python parameter (and, via request.parse.RENAMED, the Request field)
    flags: tuple[str, ...]
    kind: str  # str | int | bool | list | choice
    help: str
    default: Any = None
    choices: tuple[str, ...] = ()
    required: bool = False
    complete: str | None = None  # "sites" or "apps": shell completion offers those names


PRECISIONS = ("fp32", "tf32", "bf16", "fp16")
FRAMEWORKS = ("pytorch", "tensorflow")
BACKENDS = ("nccl", "gloo", "xccl", "ccl")
PLACEMENT_CHECKS = ("stop", "warn", "off")

RENDER_OPTIONS: tuple[Opt, ...] = (
    Opt("site", ("--site",), "str", "Site profile name (jobgen sites; default: JOBGEN_SITE or "
        "the config's defaults.site).", complete="sites"),
    Opt("app_name", ("--app",), "str", "Bundled workload (jobgen apps).", complete="apps"),
    Opt("nodes", ("--nodes",), "int", "Nodes (default 1)."),
    Opt("ranks_per_node", ("--ranks-per-node",), "int",
        "Ranks per node (default: one per GPU device)."),
    Opt("ranks_per_device", ("--ranks-per-device",), "int",
        "Ranks of one data-parallel job per GPU device (NVIDIA/AMD: over gloo)."),
    Opt("instances_per_device", ("--instances-per-device",), "int",
        "Independent trainings per GPU device (per node without GPUs), each world size 1; "
        "the job sums their throughput."),
    Opt("dist_backend", ("--dist-backend",), "choice",
        "torch.distributed backend (default: the site's; gloo where ranks share a GPU). For "
        "your own program, a promise exported as JOBGEN_DIST_BACKEND.", choices=BACKENDS),
    Opt("queue", ("--queue",), "str",
        "Queue / partition (default: chosen from nodes and walltime)."),
    Opt("walltime", ("--walltime",), "str", "Minutes (90), HH:MM:SS or D-HH:MM:SS."),
    Opt("account", ("--account", "-A"), "str", "Project to charge."),
    Opt("job_name", ("--job-name",), "str", "Job name."),
    Opt("filesystems", ("--filesystems",), "str", "PBS filesystems, e.g. home:flare."),
    Opt("precision", ("--precision",), "choice", "Default: the site's.", choices=PRECISIONS),
    Opt("env", ("--env",), "list", "KEY=VALUE, repeatable."),
    Opt("app_args", ("--app-args",), "str", "Arguments passed to the app.", default=""),
    Opt("launcher_args", ("--launcher-args",), "str",
        "Options added to the site's launcher, e.g. '-l --line-buffer' for mpiexec; ones the "
        "script sets (ranks, binding, hosts) are refused.", default=""),
    Opt("python", ("--python",), "str", "Python executable on the compute nodes."),
    Opt("framework", ("--framework",), "choice",
        "Framework of the program (bundled apps: pytorch).", default="pytorch",
        choices=FRAMEWORKS),
    Opt("framework_module", ("--framework-module",), "str",
        "Framework module release, e.g. frameworks/2024.2.1_u1."),
    Opt("copper", ("--copper",), "bool", "Serve your Python packages through Copper (Aurora).",
        default=False),
    Opt("copper_path", ("--copper-path",), "list", "Directory to read through Copper, "
        "repeatable."),
    Opt("container", ("--container",), "str", "Run the program in this container image."),
    Opt("stage", ("--stage",), "str", "Tar archive to unpack on every node before the launch."),
    Opt("stage_to", ("--stage-to",), "str",
        "Where --stage unpacks (default: the node-local disk)."),
    Opt("requeue", ("--requeue",), "int",
        "Requeue on the time-limit warning, at most this many times (Slurm, LSF: the script "
        "requeues itself and counts); where a site reruns preempted jobs (PBS -r y, LSF -r), "
        "mark the job rerunnable.", default=0),
    Opt("checkpoint_dir", ("--checkpoint-dir",), "str",
        "Where the app checkpoints (needed with --requeue)."),
    Opt("stop_lead", ("--stop-lead",), "int",
        "Seconds before the walltime's end the program is told to checkpoint and stop: the "
        "scheduler's warning (Slurm, LSF) or a timer in the script (PBS, Cobalt); the bundled "
        "apps stop on their own before it (docs/walltime.md)."),
    Opt("profile", ("--profile",), "choice", "Profile the chosen ranks: torch (the bundled "
        "apps' PyTorch profiler) or the site's profiler (docs/profiling.md).",
        choices=("torch", "nsys", "rocprof", "rocprofv3", "unitrace", "vtune")),
    Opt("profile_ranks", ("--profile-ranks",), "str",
        "Ranks to profile, e.g. 0 or 0,14 or 0-3 (default 0)."),
    Opt("profile_steps", ("--profile-steps",), "str",
        "Steps A:B to profile, the indices A to B-1 (default: 10 steps after the warm-up)."),
    Opt("monitor", ("--monitor",), "bool", "Sample GPU and CPU use on every node for the whole "
        "run.", default=False),
    Opt("tensorboard", ("--tensorboard",), "str",
        "Directory for TensorBoard scalars (loss, throughput, step time) from rank 0."),
    Opt("placement_check", ("--placement-check",), "choice",
        "Before the program starts, every rank compares its CPUs, NUMA node and device with "
        "the plan: stop (default: the job stops with one line, exit 2), warn, or off.",
        default="stop", choices=PLACEMENT_CHECKS),
    Opt("out", ("--out",), "str", "Write the script here instead of stdout."),
    Opt("force", ("--force",), "bool", "Overwrite --out if it exists.", default=False),
)


def _convert(opt: Opt, value: str) -> Any:
    """The value as Typer would give it, or None where Typer might say something else."""
    if opt.kind == "int":
        return int(value) if _DIGITS.fullmatch(value) else None
    if opt.kind == "choice":
        return value if value in opt.choices else None
    return value


def fast_parse(args: list[str]) -> dict[str, Any] | None:
    """render's options from a simple command line, or None to let Typer parse it."""
    try:
        return parse_render_args(args)
    except ValueError:
        return None


def parse_render_args(args: list[str]) -> dict[str, Any]:
    """render's options from its command-line words (no program after `--`); ValueError names
    the first word it cannot take. The script readers (verify) use it without Typer."""
    by_flag = {f: o for o in RENDER_OPTIONS for f in o.flags}
    values: dict[str, Any] = {o.name: ([] if o.kind == "list" else o.default)
                              for o in RENDER_OPTIONS}
    k = 0
    while k < len(args):
        word = args[k]
        flag, eq, attached = word.partition("=") if word.startswith("--") else (word, "", "")
        opt = by_flag.get(flag)
        if opt is None:
            raise ValueError(f"no such option: {word}")
        elif opt.kind == "bool":
            if eq:
                raise ValueError(f"{flag} takes no value")
            values[opt.name] = True
        else:
            if eq:
                raw = attached
            elif k + 1 < len(args):  # like click, the next word is the value whatever it is
                k += 1
                raw = args[k]
            else:
                raise ValueError(f"{flag} needs a value")
            value = _convert(opt, raw)
            if value is None:
                raise ValueError(f"invalid value for {flag}: {raw!r}")
            if opt.kind == "list":
                values[opt.name].append(value)
            else:
                values[opt.name] = value
        k += 1
    missing = [o.flags[0] for o in RENDER_OPTIONS if o.required and values[o.name] is None]
    if missing:
        raise ValueError(f"missing option {missing[0]}")
    return {name: (value or None) if isinstance(value, list) else value
            for name, value in values.items()}
