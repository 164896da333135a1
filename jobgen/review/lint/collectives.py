"""What a launch's program is, for the environment rules (ENV002, MODULE001): whether it is one
rank with no one to talk to, a program that starts ranks of its own, an MPI program, which
documented program it is; whether the script turned a documented set off on purpose; which
framework-module releases carry TensorFlow."""

from __future__ import annotations

import re

from ...profiles.frameworks import variant_for
from ...profiles.model import EnvSet, Profile
from .context import Context, LaunchView
from .scope import AI_LAUNCHERS

#: Programs that start ranks or workers of their own: one launched process is not one rank.
_SPAWNERS = re.compile(r"(?i)^(torch\.distributed\.(run|launch)|deepspeed|accelerate|vllm|"
                       r"horovod)")


def one_rank(launch: LaunchView) -> bool:
    """The launcher starts one process in all (`mpiexec -n 1`, one node at one rank per node)
    and that process is not a launcher itself: no other rank to hold a collective with."""
    ranks = launch.total_ranks
    if ranks is None and launch.ranks_per_node == 1 and launch.nodes == 1 or launch.shell:
        ranks = 1  # the batch shell runs one process (unless it is a launcher: below)
    if ranks != 1:
        return False
    prog = launch.program
    first = prog[0].rsplit("/", 1)[-1] if prog else ""
    module = prog[2] if len(prog) > 2 and prog[1] == "-m" else ""
    return first not in AI_LAUNCHERS and not _SPAWNERS.match(module)


def program_names(launch: LaunchView) -> set[str]:
    """What the launch runs, by name: the launcher word of its program (`vllm`, `torchrun`) or
    the top package of the module Python runs (`python -m vllm.entrypoints.openai.api_server`
    -> vllm)."""
    prog = launch.program
    if launch.command in AI_LAUNCHERS:
        return {launch.command}
    first = prog[0].rsplit("/", 1)[-1] if prog else ""
    if re.fullmatch(r"python[0-9.]*", first) and len(prog) > 2 and prog[1] == "-m":
        return {prog[2].split(".", 1)[0]}
    return {first} if first else set()


def mpi4py_program(launch: LaunchView) -> bool:
    """A program filed under mpi4py (`.../mpi4py/gpu_allreduce.py`, `mpi4py_bench.py`): it
    talks through MPI's own collectives, not through the framework's collectives library.
    (`python -m mpi4py train.py` only wraps a program: that one is judged by its own name.)"""
    prog = launch.program
    script = next((w for w in prog[1:] if not w.startswith("-")), "") if prog and \
        re.fullmatch(r"python[0-9.]*", prog[0].rsplit("/", 1)[-1]) else ""
    return script.endswith(".py") and "mpi4py" in script.lower()


def unset_by_script(ctx: Context, s: EnvSet, launch: LaunchView) -> bool:
    """The script unsets members of the set before the launch: it turns the set off on purpose,
    as ALCF's NCCL page tells applications that hang with the AWS plugin to do (UG
    docs/polaris/applications-and-libraries/libraries/nccl.md: `unset NCCL_NET_GDR_LEVEL
    NCCL_CROSS_NIC NCCL_COLLNET_ENABLE NCCL_NET`)."""
    return any(x.action == "unset" and x.name in s.members and not x.in_heredoc and
               x.line < launch.at for x in ctx.script.settings)


def tensorflow_releases(p: Profile) -> list[str]:
    stack = p.framework_stack
    return [f"{stack.module} releases {', '.join(v.releases) or 'of this variant'} (and "
            f"others under it) carry TensorFlow too: {v.why} ({v.source})"
            for v in stack.variants if v.carries_tensorflow] if stack else []


def carries_tensorflow(profile: Profile, module: str) -> bool:
    """`frameworks/2023.05.15.001`: a release of the profile's framework stack that carries
    TensorFlow too (ALCF's frameworks module before TensorFlow got its own); an unversioned
    name is today's default release."""
    stack = profile.framework_stack
    name, _, version = module.partition("/")
    if stack is None or name != stack.module or not re.search(r"[0-9]", version):
        return False
    return variant_for(stack, version.lstrip(".")).carries_tensorflow
