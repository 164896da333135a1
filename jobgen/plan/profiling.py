"""Profiling and monitoring as the tutorials do it: chosen ranks, chosen steps, the site's tools.

`--profile TOOL [--profile-ranks LIST] [--profile-steps A:B]`, `--monitor` and `--tensorboard
DIR` become plan pieces here; the templates write them (templates/_profiling.j2, the rank
wrapper, the prelaunch and the exit trap). No text here.

- `torch`: the bundled apps' PyTorch profiler on the chosen ranks over the chosen steps (a
  trace TensorBoard and Perfetto open); any site.
- a vendor tool the site's profile documents (`profiling.tools`): the rank wrapper puts the
  tool's words in front of the chosen ranks' program (after the container prefix, so a tool
  shipped in the image runs there); every other rank starts unchanged, as ALCF's
  nsys_wrapper.sh, unitrace_wrapper.sh and LUMI's run-profile.sh do.
- `--monitor`: one sampler per node (the site's GPU tool and a CPU sampler) started through the
  site's per-node launch before the ranks' launch and stopped in the exit trap.

Every output goes to a directory of the run's own: jobgen-runs/<job name>.<job id>/.
"""

from __future__ import annotations

import re

from ..errors import JobgenError
from ..frozen import Frozen
from ..profiles.facts import EnvSetting, Fact
from ..shell import SAFE_EXPANSION, Expand, Word, join, quote
from .program import Check

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:  # the render path reads profiles as records (jobgen.profiles.records)
    from ..profiles.model import Profile
    from .apps import App

VENDOR = {"nsys": "nvidia", "rocprof": "amd", "rocprofv3": "amd", "unitrace": "intel",
          "vtune": "intel"}
VENDOR_NAME = {"nvidia": "NVIDIA", "amd": "AMD", "intel": "Intel"}
TOOLS = ("torch", *VENDOR)
MAX_RANKS = 1024  # chosen ranks: each writes its own trace
MANY_RANKS = 16  # more than this: a warning about the outputs' size
MONITOR_INTERVAL = 5  # seconds between samples
TORCH_SOURCE = ("PyTorch profiler recipe (torch.profiler.schedule, tensorboard_trace_handler); "
                "UG docs/polaris/data-science/profiling_dl.md (PyTorch Profiler, one trace per "
                "rank); LWS 04_Understanding_GPU_activity_and_checking_jobs/README.md (7. Using "
                "Pytorch profiling infrastructure, Perfetto)")
CPU_SOURCE = "Linux proc(5): /proc/stat (cpu line) and /proc/meminfo (MemTotal, MemAvailable)"
# Rough output per profiled step and rank, in MB, and per rank whatever the steps: what a
# small model's trace of these tools weighs (a few hundred kernels a step). jobgen does not
# know the model's kernels, so the estimate is good to a factor of a few.
MB_PER_STEP = {"torch": 2.0, "nsys": 1.0, "rocprof": 2.0, "rocprofv3": 1.5, "unitrace": 3.0,
               "vtune": 5.0}
MB_BASE = {"torch": 0.5, "nsys": 5.0, "rocprof": 1.0, "rocprofv3": 2.0, "unitrace": 2.0,
           "vtune": 50.0}
# Every profiled rank's TMPDIR: short and node-local. A Unix socket's path holds at most 107
# bytes (sun_path is 108 with its NUL), and Python's multiprocessing (PyTorch DataLoader
# workers) binds its sockets at TMPDIR/pymp-XXXXXXXX/listener-XXXXXXXX (32 more): a TMPDIR
# under the run directory (PBS_O_WORKDIR, a 51-character Polaris job id) leaves no room.
PROFILE_TMP = "/tmp/jobgen-${JOBGEN_JOB_ID}"
PROFILE_TMPDIR = "$JOBGEN_PROFILE_TMP/rank-$RANK"
TMPDIR_MAX = 60  # characters: what the tests hold every site's profiled TMPDIR to
TMPDIR_WHY = ("every profiled rank gets a TMPDIR of its own, short and on the node's /tmp: "
              "a profiler needs one it can write (nsys: --env TMPDIR is essential), and a "
              "Unix socket path holds at most 107 bytes, of which Python's multiprocessing "
              "(DataLoader workers) adds 32 under TMPDIR (AF_UNIX path too long otherwise); "
              "made by the wrapper, removed on every node at exit")
TMPDIR_SOURCE = ("man 7 unix (sun_path[108]); CPython Lib/multiprocessing/util.py (get_temp_dir: "
                 "pymp-) and connection.py (arbitrary_address: listener-); UG "
                 "docs/aurora/known-issues.md (7. Set TMPDIR to avoid AF_UNIX path too long "
                 "error); docs/polaris/data-science/profiling_dl.md (--env TMPDIR is essential)")
STACK_FIRST_SOURCE = ("UG docs/aurora/data-science/python.md (the frameworks and tensorflow "
                      "modules may load a different oneAPI compiler SDK than the default module)")
SAMPLE_BYTES = {"gpu": 70, "cpu": 32}  # one CSV line per GPU and sample, one per node
# a rank has at most 9 digits (no job has a billion ranks), a step at most 12; longer numbers
# are refused before int() (which refuses 4300 digits with a traceback)
_RANKS = re.compile(r"[0-9]{1,9}(-[0-9]{1,9})?(,[0-9]{1,9}(-[0-9]{1,9})?)*")
_STEPS = re.compile(r"([0-9]{1,12}):([0-9]{1,12})")
_TB_DIR = re.compile(r"[A-Za-z0-9_./${}+@-]+")


class ProfileStep(Frozen):
    """`--profile`: which tool on which ranks over which steps, and what it writes."""

    tool: str
    ranks: tuple[int, ...]
    steps: tuple[int, int] | None  # 0-based step indices [A, B); None: the whole run
    words: tuple[Word, ...]  # the vendor tool's words before the program (none for torch)
    prefix_len: int  # words of the program's container prefix the tool goes after
    make_dir: bool  # the wrapper makes the rank's output directory (the tool cannot)
    fact: Fact
    output: str  # what each chosen rank writes
    size_mb: float  # all chosen ranks together, estimated

    @property
    def match(self) -> str:
        """' 0 14 ': the wrapper tests whether ' $RANK ' is in it."""
        return " " + " ".join(map(str, self.ranks)) + " "

    @property
    def ranks_text(self) -> str:
        return ",".join(map(str, self.ranks))


class MonitorStep(Frozen):
    """`--monitor`: the per-node sampler and how it runs beside the ranks."""

    launch: tuple[Word, ...]  # the site's per-node launch (and its words to run alongside)
    gpu: tuple[Word, ...]  # the GPU sampler's words, INTERVAL filled in; () without GPUs
    stream: bool  # the GPU tool samples by itself until stopped
    interval: int
    fact: Fact  # how the monitors run beside the ranks
    gpu_fact: Fact | None
    size_mb: float


class Observe(Frozen):
    """What --profile, --monitor and --tensorboard add to the plan."""

    profile: ProfileStep | None = None
    monitor: MonitorStep | None = None
    env: tuple[EnvSetting, ...] = ()  # JOBGEN_PROFILE_*, JOBGEN_MONITOR_DIR, ...
    app_args: tuple[Word, ...] = ()  # the bundled app's own options for them
    modules: tuple[Fact, ...] = ()  # the monitor's module, after the site's own
    # The profiler's module, loaded before the site's framework stack: a stack module may load
    # its own oneAPI SDK (UG docs/aurora/data-science/python.md), which a later `module load
    # oneapi` would swap under it; loaded first, the stack's own wins, and the preflight's
    # `command -v` says so if the tool is gone.
    tool_modules: tuple[Fact, ...] = ()
    checks: tuple[Check, ...] = ()  # the tools exist, before the launch
    facts: tuple[Fact, ...] = ()  # explain: the outputs and their estimated size

    @property
    def active(self) -> bool:
        return bool(self.env)


def parse_ranks(text: str, world: int) -> tuple[int, ...]:
    """'0,14,20-23' -> (0, 14, 20, 21, 22, 23), each inside the job's world."""
    if not _RANKS.fullmatch(text):
        raise JobgenError(f"--profile-ranks {text!r}: give ranks like 0 or 0,14 or 0-3 "
                          "(numbers of at most 9 digits)")
    ranks: set[int] = set()
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        first, last = int(lo), int(hi or lo)
        if last < first:
            raise JobgenError(f"--profile-ranks {part}: the range runs backwards; write "
                              f"{last}-{first}")
        if last >= world:
            raise JobgenError(f"--profile-ranks {text}: rank {last} is outside the job's "
                              f"{world} ranks (0-{world - 1})")
        if last - first + len(ranks) >= MAX_RANKS:
            raise JobgenError(f"--profile-ranks {text}: more than {MAX_RANKS} ranks; profile "
                              "a few (each writes its own trace)")
        ranks.update(range(first, last + 1))
    return tuple(sorted(ranks))


def parse_steps(text: str) -> tuple[int, int]:
    m = _STEPS.fullmatch(text)
    if not m:
        raise JobgenError(f"--profile-steps {text!r}: give A:B, the step indices A to B-1 "
                          "(0-based, like a Python slice, at most 12 digits each), e.g. 10:20")
    first, stop = int(m.group(1)), int(m.group(2))
    if stop <= first:
        raise JobgenError(f"--profile-steps {text}: B must be greater than A (A:B profiles "
                          f"steps A to B-1)")
    return first, stop


def _tool(profile: Profile, name: str):
    """The site's documented tool of that name; refused with what the site has."""
    prof = getattr(profile, "profiling", None)
    tools = list(prof.tools) if prof else []
    for t in tools:
        if t.name == name:
            return t
    gpus = profile.node.gpus
    have = ", ".join(["torch", *(t.name for t in tools)])
    if gpus is None:
        why = f"{profile.name} has no GPUs"
    elif gpus.vendor != VENDOR[name]:
        why = (f"{name} profiles {VENDOR_NAME[VENDOR[name]]} GPUs and {profile.name} has "
               f"{VENDOR_NAME[gpus.vendor]} GPUs")
    else:
        why = f"{profile.name}'s profile documents no {name}"
    raise JobgenError(f"--profile {name} on {profile.name}: {why}; use --profile with one of "
                      f"{have}")


def _output_word(word: str) -> Word:
    if word.startswith("OUTPUT"):
        return Expand("${JOBGEN_PROFILE_DIR}/rank-${RANK}" + word[len("OUTPUT"):])
    return word


def run_steps_of(app: App, app_args: str, framework: str) -> tuple[int, int]:
    """(steps, warm-up steps) of the bundled app's run, from its own parser."""
    from ..shell import split
    from .apps import check_app_args

    try:
        extra = split(app_args)
    except ValueError as exc:
        raise JobgenError(f"--app-args {app_args!r}: {exc}") from None
    args = check_app_args(app, [*app.default_args, *extra], framework)
    return int(args.steps), int(args.warmup)


def _steps(req, run_steps: tuple[int, int] | None) -> tuple[int, int] | None:  # noqa: ANN001
    """The profiled steps: --profile-steps, checked against the run's steps; by default the
    ten steps after the warm-up of a bundled app; None (the whole run) for a program of the
    user's without --profile-steps."""
    if req.profile_steps:
        first, stop = parse_steps(req.profile_steps)
        if run_steps is not None and stop > run_steps[0]:
            raise JobgenError(f"--profile-steps {req.profile_steps}: the run has "
                              f"{run_steps[0]} steps (0-{run_steps[0] - 1}); profile steps "
                              f"inside it or raise --steps in --app-args")
        return first, stop
    if run_steps is None:
        return None
    total, warmup = run_steps
    first = min(warmup, max(total - 1, 0))
    return first, min(first + 10, total)


def _size(tool: str, ranks: int, steps: tuple[int, int] | None, run_steps: int | None,
          whole: bool) -> tuple[float, str]:
    """Estimated MB for all chosen ranks, and what the estimate counts."""
    if whole or steps is None:
        counted = run_steps
        what = f"the whole run ({run_steps} steps)" if run_steps else "the whole run"
    else:
        counted = steps[1] - steps[0]
        what = f"{counted} steps"
    per_rank = MB_BASE[tool] + MB_PER_STEP[tool] * (counted or 100)
    if counted is None:
        what += " (counted as 100 steps)"
    return round(per_rank * ranks, 1), what


def profile_step(profile: Profile, req, app: bool, world: int,  # noqa: ANN001
                 prefix: tuple[Word, ...], run_steps: tuple[int, int] | None
                 ) -> tuple[ProfileStep | None, Check | None, Fact | None]:
    """The --profile request checked against the site and the job: the step, the preflight
    check that the tool is there, and its module."""
    if req.profile is None:
        if req.profile_ranks or req.profile_steps:
            flag = "--profile-ranks" if req.profile_ranks else "--profile-steps"
            raise JobgenError(f"{flag} goes with --profile TOOL (torch, or the site's profiler)")
        return None, None, None
    name = req.profile
    if name not in TOOLS:
        raise JobgenError(f"--profile {name!r}: use one of {', '.join(TOOLS)}")
    if req.instances_per_device:
        raise JobgenError("--profile chooses ranks of one data-parallel job: drop "
                          "--instances-per-device to profile")
    if name == "torch" and not app:
        raise JobgenError("--profile torch runs the bundled apps' PyTorch profiler: your own "
                          "program gets no profiler from it; give a site profiler (--profile "
                          "nsys, rocprof, unitrace, ...) or call torch.profiler yourself, "
                          "reading JOBGEN_PROFILE_RANKS and JOBGEN_PROFILE_STEPS")
    ranks = parse_ranks(req.profile_ranks or "0", world)
    steps = _steps(req, run_steps)
    total = run_steps[0] if run_steps else None
    if name == "torch":
        size, counted = _size(name, len(ranks), steps, total, False)
        fact = Fact(f"torch: the app's PyTorch profiler on rank(s) {','.join(map(str, ranks))}",
                    "a trace of the chosen steps per chosen rank (rank-N.*.pt.trace.json) that "
                    "TensorBoard's profiler plugin and Perfetto open; no other rank profiles",
                    TORCH_SOURCE, "command line (--profile)")
        return ProfileStep(name, ranks, steps, (), len(prefix), False, fact,
                           "rank-N.<time>.pt.trace.json (Chrome trace)", size), None, None
    tool = _tool(profile, name)
    words = tuple(_output_word(w) for w in tool.command)
    whole = tool.capture == "whole"
    size, counted = _size(name, len(ranks), steps, total, whole)
    capture = ("only between the program's profiler start and stop"
               + (f" (the bundled app calls them at steps {steps[0]} and {steps[1]})"
                  if steps and app else "") if not whole else "the whole process")
    where = " inside the container" if prefix else ""
    output = tool.output.replace("OUTPUT", "rank-N")
    fact = Fact(f"{join(tool.command)}{where} around rank(s) {','.join(map(str, ranks))}; it "
                f"records {capture}; each writes {output}", tool.why, tool.source, "profile",
                tool.unconfirmed)
    found = ((*prefix, "sh", "-c", f"command -v {tool.command[0]}") if prefix
             else ("command", "-v", tool.command[0]))
    check = Check(found, f"the profiler {tool.command[0]} is not "
                  "found (--profile " + name + ")", "the profiler exists before any rank "
                  "starts (the script loads its module first)")
    module = Fact(f"module load {quote(tool.module)}", f"{name}'s module, loaded before the "
                  f"site's framework stack so that the stack's own SDK wins ({tool.why})",
                  f"{tool.source}; {STACK_FIRST_SOURCE}", "profile",
                  tool.unconfirmed) if tool.module else None
    return (ProfileStep(name, ranks, steps, words, len(prefix), tool.make_dir, fact, output, size),
            check, module)


def monitor_step(profile: Profile, per_node: tuple[Word, ...], prefix: tuple[Word, ...],
                 nodes: int, walltime: int) -> tuple[MonitorStep, Check | None, Fact | None]:
    """--monitor: the site's GPU sampler (none on a CPU site) and the CPU sampler, on every
    node, through the site's per-node launch run beside the ranks' launch."""
    mon = getattr(getattr(profile, "profiling", None), "monitor", None)
    if mon is not None and not mon.available:
        raise JobgenError(f"--monitor on {profile.name}: {mon.why} ({mon.source})")
    gpu = mon.gpu if mon is not None else None
    if gpu is None and profile.node.gpus is not None:
        raise JobgenError(f"--monitor on {profile.name}: its profile documents no GPU sampler "
                          "(profiling.monitor.gpu)")
    launch = (*per_node, *(mon.launch_args if mon else ()))
    if profile.launcher.dialect == "srun" and "--overlap" not in launch:
        # since Slurm 20.11 a step does not share the CPUs of the job's other steps: without
        # --overlap the ranks' srun would wait for the monitors' to end
        launch = (*launch, "--overlap")
    if mon is not None and per_node:
        how = Fact(f"{join(launch) or 'in the background'}: one monitor per node, beside the "
                   "ranks", mon.why, mon.source, "profile", mon.unconfirmed)
    else:
        how = Fact(f"{join(launch) or 'in the background'}: one monitor per node, beside the "
                   "ranks", "the site's per-node launch, as the staging step uses it",
                   "jobgen (the site's per-node launch)", "plan")
    words: tuple[Word, ...] = ()
    gpu_fact = check = module = None
    if gpu is not None:
        inner = prefix if gpu.in_container else ()
        words = (*inner, *(str(MONITOR_INTERVAL) if w == "INTERVAL" else w
                           for w in gpu.command))
        gpu_fact = Fact(join(words), gpu.why, gpu.source, "profile", gpu.unconfirmed)
        found = ((*inner, "sh", "-c", f"command -v {gpu.command[0]}") if inner
                 else ("command", "-v", gpu.command[0]))
        check = Check(found, f"the GPU sampler {gpu.command[0]} is not found (--monitor)",
                      "the monitor's GPU sampler exists before any rank starts")
        if gpu.module:
            module = Fact(f"module load {quote(gpu.module)}", f"{gpu.command[0]}'s module "
                          "(--monitor)", gpu.source, "profile", gpu.unconfirmed)
    samples = walltime / MONITOR_INTERVAL
    per_node = SAMPLE_BYTES["cpu"] + SAMPLE_BYTES["gpu"] * profile.devices_per_node
    size = round(samples * per_node * nodes / 1e6, 1)
    return (MonitorStep(launch, words, gpu.stream if gpu else True, MONITOR_INTERVAL, how,
                        gpu_fact, size), check, module)


def _env(name: str, value: Word, why: str) -> EnvSetting:
    expand = isinstance(value, Expand)
    text = value.text if isinstance(value, Expand) else str(value)
    return EnvSetting(name, text, "set", expand, why, "jobgen (docs/profiling.md)", "observe")


def _tensorboard_dir(text: str) -> Expand:
    if not _TB_DIR.fullmatch(text) or not SAFE_EXPANSION.fullmatch(text):
        raise JobgenError(f"--tensorboard {text!r}: a directory path of letters, digits and "
                          "_ . / + @ - (${NAME} references allowed)")
    return Expand(text.rstrip("/") + "/${JOBGEN_RUN_ID}")


def observe(profile: Profile, req, app: bool, world: int, nodes: int,  # noqa: ANN001
            per_node: tuple[Word, ...], prefix: tuple[Word, ...], walltime: int,
            run_steps: tuple[int, int] | None) -> Observe:
    """Everything --profile, --monitor and --tensorboard add, checked."""
    prof, check, module = profile_step(profile, req, app, world, prefix, run_steps)
    monitor = mcheck = mmodule = None
    if req.monitor:
        monitor, mcheck, mmodule = monitor_step(profile, per_node, prefix, nodes, walltime)
    env: list[EnvSetting] = []
    args: list[Word] = []
    facts: list[Fact] = []
    if prof is not None:
        env += [_env("JOBGEN_PROFILE_TOOL", prof.tool, "the profiler jobgen was asked for"),
                _env("JOBGEN_PROFILE_RANKS", prof.ranks_text, "the ranks it profiles; the "
                     "wrapper also exports JOBGEN_PROFILE_THIS_RANK=1 on them"),
                _env("JOBGEN_PROFILE_DIR", Expand("${JOBGEN_RUN_DIR}/profile"),
                     "where each profiled rank writes (rank-N...)"),
                EnvSetting("JOBGEN_PROFILE_TMP", PROFILE_TMP, "set", True,
                           "the profiled ranks' TMPDIRs, rank-N each, on every node: "
                           + TMPDIR_WHY, TMPDIR_SOURCE, "observe")]
        if prof.steps:
            env.append(_env("JOBGEN_PROFILE_STEPS", f"{prof.steps[0]}:{prof.steps[1]}",
                            "the step indices A to B-1 to profile (0-based, A:B)"))
        if app:
            args += ["--profile", prof.tool, "--profile-ranks", prof.ranks_text,
                     "--profile-dir", Expand("${JOBGEN_PROFILE_DIR}")]
            if prof.steps:
                args += ["--profile-steps", f"{prof.steps[0]}:{prof.steps[1]}"]
        facts.append(Fact(f"profiled ranks: export TMPDIR={PROFILE_TMPDIR}; mkdir -p "
                          "\"$TMPDIR\" (the wrapper); rm -rf \"$JOBGEN_PROFILE_TMP\" on every "
                          "node at exit", TMPDIR_WHY, TMPDIR_SOURCE, "computed by jobgen"))
        if prof.make_dir:
            facts.append(Fact(f"profiled ranks: mkdir -p \"$JOBGEN_PROFILE_DIR/rank-$RANK\" "
                              f"before {prof.tool} starts (the wrapper)", prof.fact.why,
                              prof.fact.source, "profile", prof.fact.unconfirmed))
        facts.append(Fact(f"profile output: {prof.output} for each of {len(prof.ranks)} "
                          f"rank(s) in $JOBGEN_RUN_DIR/profile, about {prof.size_mb:g} MB in "
                          "all", "an estimate from the tool's typical trace per step of a "
                          "small model; a large model's may be several times larger",
                          "jobgen (jobgen/plan/profiling.py MB_PER_STEP)", "computed by jobgen"))
    if monitor is not None:
        env.append(_env("JOBGEN_MONITOR_DIR", Expand("${JOBGEN_RUN_DIR}/monitor"),
                        "one file per node and sampler: HOST.gpu.csv, HOST.cpu.csv"))
        facts.append(Fact(f"monitor output: about {monitor.size_mb:g} MB for the whole "
                          f"walltime (a sample every {monitor.interval} s on {nodes} node(s))",
                          "one CSV line per GPU and sample plus one CPU line per node and "
                          "sample", CPU_SOURCE, "computed by jobgen"))
    if req.tensorboard is not None:
        tb = _tensorboard_dir(req.tensorboard)
        env.append(_env("JOBGEN_TENSORBOARD_DIR", tb, "TensorBoard scalars of this run "
                        "(loss, throughput, step time), one run directory per job"))
        if app:
            args += ["--tensorboard", Expand("${JOBGEN_TENSORBOARD_DIR}")]
    checks = tuple(c for c in (check, mcheck) if c is not None)
    return Observe(profile=prof, monitor=monitor, env=tuple(env), app_args=tuple(args),
                   modules=(mmodule,) if mmodule is not None else (), checks=checks,
                   facts=tuple(facts), tool_modules=(module,) if module is not None else ())
