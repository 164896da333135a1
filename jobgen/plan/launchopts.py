"""The user's program must not be a launcher, and the user's launcher options (`--launcher-args`).

jobgen's script starts the ranks itself (mpiexec, srun, jsrun, mpirun, torchrun): a program
after `--` that is itself a launcher (`-- mpiexec -n 48 python train.py`) would run inside
every rank and start its own copies, each with the same RANK (issue 30: 2 ranks of local-mpich
ran the program 4 times). `nested_launcher` names such a program; render, explain and sweep
refuse it, and lint's LAUNCH005 flags a launch that runs one (jobgen.review.lint.placement).

`--launcher-args '-l --line-buffer'` adds options to the site's launcher, after jobgen's own
and before the rank wrapper, quoted word by word by the one escaping layer. An option that
changes what jobgen sets (the rank count, the ranks per node, the binding, the hosts, the
launch mode) is refused with one line: the script's geometry and wrapper depend on them.
"""

from __future__ import annotations

import re

from ..errors import JobgenError
from ..shell import split

# What starts ranks (or processes per node) by itself: the sites' launchers and the AI
# frameworks' own. `python -m MODULE` forms are in LAUNCHER_MODULES.
LAUNCHER_COMMANDS = frozenset({
    "mpiexec", "mpirun", "orterun", "srun", "jsrun", "aprun", "torchrun", "horovodrun",
    "deepspeed", "ibrun", "mpiexec.hydra", "mpiexec.mpich", "mpirun.openmpi"})
LAUNCHER_MODULES = frozenset({"torch.distributed.run", "torch.distributed.launch",
                              "deepspeed.launcher.runner", "horovod.runner.launch"})
_PYTHON = re.compile(r"python([23](\.[0-9]+)?)?")
_ENV_VALUED = {"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}
_PY_VALUED = {"-W", "-X", "-Q"}
_NAME_VALUE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=.*")


def _after_env(words: list[str]) -> list[str]:
    """The command `env [OPTION]... [NAME=VALUE]... COMMAND` runs (and plain NAME=VALUE
    prefixes): what the launcher's rank actually executes."""
    k = 0
    while k < len(words):
        base = words[k].rsplit("/", 1)[-1]
        if base == "env" or _NAME_VALUE.fullmatch(words[k]):
            k += 1
            while k < len(words) and (words[k].startswith("-") or
                                      _NAME_VALUE.fullmatch(words[k])):
                k += 2 if words[k] in _ENV_VALUED else 1
            continue
        break
    return words[k:]


def nested_launcher(command: list[str] | tuple[str, ...]) -> str | None:
    """The launcher a program starts with (`mpiexec`, `torchrun`, `python -m
    torch.distributed.run`, through `env` or an absolute path), or None."""
    words = _after_env(list(command))
    if not words:
        return None
    base = words[0].rsplit("/", 1)[-1]
    if base in LAUNCHER_COMMANDS:
        return base
    if _PYTHON.fullmatch(base):
        k = 1
        while k < len(words) and words[k].startswith("-"):
            word = words[k]
            if word == "-m" and k + 1 < len(words):
                module = words[k + 1]
                return f"{base} -m {module}" if module in LAUNCHER_MODULES else None
            if word.startswith("-m") and len(word) > 2:
                return f"{base} {word}" if word[2:] in LAUNCHER_MODULES else None
            if word == "-c":
                return None
            k += 2 if word in _PY_VALUED else 1
    return None


def refuse_nested_launcher(command: tuple[str, ...]) -> None:
    name = nested_launcher(command)
    if name is not None:
        raise JobgenError(
            f"your program starts with the launcher `{name}`: the script starts the ranks "
            f"itself, so `{name}` would run inside every rank and start its own copies (with "
            "duplicated RANKs); put only the program after -- (e.g. -- python train.py), set "
            "the ranks with --nodes/--ranks-per-node and pass launcher options with "
            "--launcher-args '...'")


# Options of each launcher dialect that jobgen's script decides: the rank count and ranks per
# node (the wrapper and the geometry check use them), the binding (the wrapper's slots), the
# hosts, and how the launcher runs (torchrun's rendezvous and --no-python). Flags are matched
# by their name before any `=`; `-n4` style attached values by prefix where a launcher takes
# them (jsrun's one-letter flags).
RESERVED: dict[str, dict[str, str]] = {
    "pals": {**dict.fromkeys(("-n", "-np", "--np"), "the rank count"),
             **dict.fromkeys(("--ppn", "-ppn"), "the ranks per node"),
             **dict.fromkeys(("--depth", "-d", "-depth", "--cpu-bind", "-cpu-bind"),
                             "the CPU binding"),
             **dict.fromkeys(("--hostfile", "-hostfile", "--hosts", "-hosts"), "the hosts")},
    "srun": {**dict.fromkeys(("-n", "--ntasks"), "the rank count"),
             **dict.fromkeys(("--ntasks-per-node", "--ntasks-per-socket", "--ntasks-per-gpu"),
                             "the ranks per node"),
             **dict.fromkeys(("-N", "--nodes", "-w", "--nodelist", "-x", "--exclude"),
                             "the hosts"),
             **dict.fromkeys(("-c", "--cpus-per-task", "--cpu-bind", "--cpu_bind", "-m",
                              "--distribution", "-B", "--extra-node-info", "--hint"),
                             "the CPU binding"),
             **dict.fromkeys(("-G", "--gpus", "--gpus-per-node", "--gpus-per-task",
                              "--gpu-bind", "--gpus-per-socket"), "the GPU binding")},
    "jsrun": {**dict.fromkeys(("-n", "--nrs", "-r", "--rs_per_host", "-a", "--tasks_per_rs",
                               "-p", "--np"), "the rank count"),
              **dict.fromkeys(("-g", "--gpu_per_rs"), "the GPU binding"),
              **dict.fromkeys(("-c", "--cpu_per_rs", "-b", "--bind", "-d",
                               "--launch_distribution"), "the CPU binding")},
    "mpich": {**dict.fromkeys(("-n", "-np"), "the rank count"),
              **dict.fromkeys(("-ppn", "-perhost", "--ppn"), "the ranks per node"),
              **dict.fromkeys(("-bind-to", "-map-by", "--bind-to", "--map-by"),
                              "the CPU binding"),
              **dict.fromkeys(("-f", "-hostfile", "-hosts", "-machinefile"), "the hosts")},
    "openmpi": {**dict.fromkeys(("-n", "-np", "-c", "--np", "--n"), "the rank count"),
                **dict.fromkeys(("-npernode", "--npernode", "-N", "--map-by", "-map-by"),
                                "the ranks per node"),
                **dict.fromkeys(("--bind-to", "-bind-to", "--cpu-set", "--rank-by"),
                                "the CPU binding"),
                **dict.fromkeys(("--hostfile", "-hostfile", "--host", "-H", "--machinefile"),
                                "the hosts")},
    "torchrun": {**dict.fromkeys(("--nproc-per-node", "--nproc_per_node"),
                                 "the ranks per node"),
                 **dict.fromkeys(("--nnodes", "--node-rank", "--node_rank", "--standalone",
                                  "--rdzv-backend", "--rdzv_backend", "--rdzv-endpoint",
                                  "--rdzv_endpoint", "--rdzv-id", "--rdzv_id", "--master-addr",
                                  "--master_addr", "--master-port", "--master_port"),
                                 "the rendezvous"),
                 **dict.fromkeys(("--no-python", "--no_python", "-m", "--module"),
                                 "how the rank wrapper starts")},
    "spawn": dict.fromkeys(("--nproc-per-node",), "the ranks per node"),
}
_JSRUN_SHORT = re.compile(r"(-[nragcbdp])[^-].*")
_SAFE_OPTION = re.compile(r"[^\x00-\x1f\x7f]+")


def launcher_args(text: str, dialect: str, own: tuple[str, ...], launcher: str
                  ) -> tuple[str, ...]:
    """`--launcher-args TEXT` as words, checked: shell-split, no option the script decides
    (RESERVED) and none jobgen already passes (`own`: its launch words)."""
    if not text.strip():
        return ()
    try:
        words = tuple(split(text))
    except ValueError as exc:
        raise JobgenError(f"--launcher-args {text!r}: {exc}") from None
    if not words[0].startswith("-"):
        raise JobgenError(f"--launcher-args {text!r}: give {launcher}'s options (words "
                          "starting with -), not a program: the program goes after --")
    if any(not _SAFE_OPTION.fullmatch(w) for w in words):
        raise JobgenError(f"--launcher-args {text!r}: a control character in an option")
    reserved = RESERVED.get(dialect, {})
    own_names = {w.split("=", 1)[0] for w in own if w.startswith("-")}
    for word in words:
        if not word.startswith("-") or word == "-":
            continue
        if word == "--":
            raise JobgenError(f"--launcher-args {text!r}: `--` ends {launcher}'s options; "
                              "the program goes after jobgen's own --")
        name = word.split("=", 1)[0]
        m = _JSRUN_SHORT.fullmatch(word) if dialect == "jsrun" else None
        if m and name not in reserved:
            name = m.group(1)
        if name in reserved:
            raise JobgenError(f"--launcher-args: {word} changes {reserved[name]}, which the "
                              f"script sets for its wrapper and geometry: use --nodes, "
                              "--ranks-per-node or --ranks-per-device (jobgen explain shows "
                              f"the {launcher} line it writes)")
        if name in own_names:
            same = next(w for w in own if w.split("=", 1)[0] == name)
            raise JobgenError(f"--launcher-args: {word}: the script already passes {same} "
                              f"to {launcher} (jobgen explain says why); drop it")
    return words
