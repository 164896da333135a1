"""PBS rules from the normative statements of ALCF's running-jobs pages that no other rule
checked (docs/lint-coverage.md): where the chunks of a job go (`-l place`), and job arrays
that PBS refuses.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import dropwhile

from .context import Context, LaunchView
from .core import Hit, as_int, rule

_ALCF_PLACE = ("ALCF user guide docs/running-jobs/index.md L170 (`pack` means all chunks from "
               "one host; if the chunks can't fit on one host, the qsub will fail) @ 7d04a3f9")
_ALCF_GROUP = ("ALCF user guide docs/aurora/running-jobs-aurora.md L788 (you must explicitly "
               "specify the `place` when you use `group`) and docs/running-jobs/index.md L168 "
               "(without scatter you may end up with all chunks on one node) @ 7d04a3f9")
_PBS_ARRAY = ("OpenPBS src/cmds/qsub.c NO_RERUN_ARRAY (\"qsub: cannot submit non-rerunable Array "
              "Job\") and doc/man1/qsub.1B (job arrays are always rerunnable) @ cd7ab5ed; ALCF "
              "user guide docs/running-jobs/example-job-scripts.md L363-368 (-r y and -J are "
              "required for job arrays) @ 7d04a3f9")
_ARRANGEMENTS = ("free", "pack", "scatter", "vscatter")


def select_chunks(value: str) -> list[tuple[int, dict[str, str]]]:
    """`2:ncpus=64+1:host=x` -> [(2, {'ncpus': '64'}), (1, {'host': 'x'})]."""
    out = []
    for chunk in value.split("+"):
        parts = chunk.split(":")
        count = int(parts[0]) if re.fullmatch(r"[0-9]{1,6}", parts[0]) else 1
        res = dict(p.partition("=")[::2] for p in (parts[1:] if as_int(parts[0]) is not None
                                                   else parts))
        out.append((count, res))
    return out


def _place(ctx: Context) -> list[tuple[int, list[str]]]:
    return [(i.line, i.value.split(":")) for i in ctx.find("-l place") if ctx.value_ok(i)]


@rule("PBS004", "pack-over-hosts", topic="scheduler", severity="error",
      scope="PBS scripts that ask for several chunks with -l place=pack",
      source=_ALCF_PLACE, fix="use -l place=scatter (one chunk per node)",
      lowers_to=("warning",), lowered="when the chunks fit on one node: the job gets one node, "
      "not the nodes it counts on",
      summary="several chunks with place=pack: all on one host, so qsub fails when they do not "
      "fit on one node, and the job gets one node when they do")
def _pack(ctx: Context) -> Iterator[Hit]:
    if ctx.dialect != "pbs":
        return
    packed = [line for line, parts in _place(ctx) if "pack" in parts]
    select = [i for i in ctx.find("-l select") if ctx.value_ok(i)]
    if not packed or not select:
        return
    chunks = select_chunks(select[-1].value)
    count = sum(n for n, _ in chunks)
    if count < 2:
        return
    cpus = sum(n * (as_int(r.get("ncpus")) or 0) for n, r in chunks)
    gpus = sum(n * (as_int(r.get("ngpus")) or 0) for n, r in chunks)
    if cpus > ctx.node.logical or (ctx.node.devices and gpus > ctx.node.devices):
        yield Hit(packed[0], f"place=pack takes all {count} chunks from one host, but they ask "
                  f"for {cpus} CPUs and {gpus} GPUs, more than one {ctx.profile.name} node has: "
                  "qsub fails", "write -l place=scatter")
        return
    yield Hit(packed[0], f"place=pack takes all {count} chunks from one host: the job gets one "
              f"node, not {count} (or qsub fails when the chunks do not fit on one)",
              "write -l place=scatter", severity="warning")


@rule("PBS005", "group-without-arrangement", topic="scheduler", severity="warning",
      scope="PBS scripts whose -l place names a group but no arrangement",
      source=_ALCF_GROUP, fix="name the arrangement: -l place=scatter:group=tier0",
      summary="-l place=group=... without scatter/pack/free: the guide says to name the place "
      "arrangement with a group, or the chunks may share nodes")
def _group(ctx: Context) -> Iterator[Hit]:
    if ctx.dialect != "pbs":
        return
    for line, parts in _place(ctx):
        if any(p.startswith("group=") for p in parts) and not any(p in _ARRANGEMENTS
                                                                  for p in parts):
            yield Hit(line, f"-l place={':'.join(parts)} names a group but no arrangement: PBS "
                      "falls back to its default, and the chunks may not be one per node",
                      f"write -l place=scatter:{':'.join(parts)}")


@rule("PBS006", "array-not-rerunnable", topic="scheduler", severity="error",
      scope="PBS job arrays (-J)", source=_PBS_ARRAY,
      fix="write #PBS -r y (or leave -r out: arrays are rerunnable by default)",
      summary="a job array marked not rerunnable (-r n): qsub refuses it")
def _array_rerun(ctx: Context) -> Iterator[Hit]:
    if ctx.dialect != "pbs" or not ctx.find("-J"):
        return
    for item in ctx.find("-r"):
        if item.value == "n":
            yield Hit(item.line, "-r n on a job array (-J): qsub refuses it (\"cannot submit "
                      "non-rerunable Array Job\")", "write #PBS -r y")


# A PBS job with no `-l select` (nor `-l nodes`): the server makes its select from the job-wide
# resources, "1" and then ncpus/mem... (`1:ncpus=1` without them), place=pack: one chunk on one
# host (OpenPBS src/server/svr_jobfunc.c @ cd7ab5ed set_select_and_place L1750-1900: `*cvt =
# '1'` L1839, `ncpus=1` L1888, place pack L1895; called at L2208-2215 when no select is set
# after the queue's and server's resources_default). ALCF schedules whole nodes
# (docs/running-jobs/index.md L157), so the job gets one node. Whether an ALCF queue sets a
# default select of its own is UNCONFIRMED (no guide says): a warning.
_PBS_DEFAULT_SELECT = (
    "OpenPBS src/server/svr_jobfunc.c set_select_and_place L1750-1900 and L2208-2215 (no "
    "select: one chunk from the job-wide resources, place=pack) @ cd7ab5ed; ALCF user guide "
    "docs/running-jobs/index.md L82, L157 (-l select=<# of nodes>; whole-node scheduling) @ "
    "7d04a3f9; an ALCF queue default for select is UNCONFIRMED")


@rule("PBS007", "no-select-several-nodes", topic="scheduler", severity="warning",
      scope="whole PBS batch scripts without -l select or -l nodes whose launches need several "
      "nodes: a launch of more ranks than it puts on a node, or several background launches "
      "each on its own hostfile or hosts (roles on different nodes)",
      source=_PBS_DEFAULT_SELECT, fix="ask for the nodes the script uses: #PBS -l select=N",
      summary="no -l select: PBS gives the job one chunk, one node, and the launches that "
      "count on more find none")
def _no_select(ctx: Context) -> Iterator[Hit]:
    if ctx.dialect != "pbs" or not ctx.whole or ctx.find("-l select", "-l nodes"):
        return
    for launch in ctx.launches:
        total, rpn = launch.total_ranks, launch.ranks_per_node
        if not launch.shell and total and rpn and total > rpn:
            yield Hit(launch.line, f"{total} ranks at {rpn} per node need "
                      f"{-(-total // rpn)} nodes, and without -l select PBS gives the job one "
                      "chunk (one node)")
            return
    roles = [la for la in ctx.launches if la.background and not la.shell and _own_hostfile(la)]
    if len({_own_hostfile(la) for la in roles}) > 1:
        yield Hit(roles[0].line, f"{len(roles)} background launches, each on its own hostfile "
                  f"or hosts ({', '.join(sorted({_own_hostfile(la) or '' for la in roles}))}), "
                  "are roles on different nodes, and without -l select PBS gives the job one "
                  "chunk (one node), which they all share")


def _own_hostfile(launch: LaunchView) -> str | None:
    hosts = launch.flag("--hostfile", "-hostfile", "-f", "--machinefile", "-machinefile",
                        "--hosts", "-hosts", "--host", "-host")
    return hosts if hosts is not None and "PBS_NODEFILE" not in hosts else None


# Chunks of part of a node without `place=scatter`: PBS sets place=free where the job names no
# place (OpenPBS src/server/svr_jobfunc.c @ cd7ab5ed L2219-2227, "if place still not set, force
# to free"), and free may put several chunks on one host: "on a host with ncpus=64, if you
# requested -l select=8:ncpus=8 you could end up with all of our chunks on one node" (ALCF user
# guide docs/running-jobs/index.md L168 @ 7d04a3f9). Chunks of a whole node (ncpus the node's
# threads, or no ncpus/ngpus: ALCF gives whole nodes) cannot share one.
_ALCF_SCATTER = ("ALCF user guide docs/running-jobs/index.md L168 (set place to scatter, "
                 "otherwise select=8:ncpus=8 could end up with all chunks on one node) @ "
                 "7d04a3f9; OpenPBS src/server/svr_jobfunc.c L2219-2227 (no place: free) @ "
                 "cd7ab5ed")


@rule("PBS008", "part-node-chunks-not-scattered", topic="scheduler", severity="warning",
      scope="PBS scripts whose select asks for two or more chunks of part of a node (ncpus or "
      "ngpus below the node's, at most half of it: two must fit on one node) with no -l "
      "place or place=free",
      source=_ALCF_SCATTER, fix="add #PBS -l place=scatter (one chunk per node)",
      summary="several chunks of part of a node without place=scatter: PBS may put them on "
      "one node, and the job gets fewer nodes than its chunks")
def _part_chunks(ctx: Context) -> Iterator[Hit]:
    if ctx.dialect != "pbs":
        return
    selects = [i for i in ctx.find("-l select") if ctx.value_ok(i)]
    places = _place(ctx)
    if not selects or any(a in words for _, words in places for a in
                          ("scatter", "vscatter", "pack")):
        return
    if places and not any("free" in words for _, words in places):
        return  # a group or sharing only: PBS005
    threads = ctx.node.logical
    gpus = ctx.profile.node.gpus.count if ctx.profile.node.gpus else 0
    item = selects[0]
    chunks = select_chunks(item.value)
    def whole(res: dict[str, str]) -> bool:  # a chunk asking all of one of a node's counts
        ncpus, ngpus = as_int(res.get("ncpus")), as_int(res.get("ngpus"))
        return ncpus is not None and ncpus >= threads or \
            bool(gpus) and ngpus is not None and ngpus >= gpus

    def two_fit(res: dict[str, str]) -> bool:  # two such chunks fit on one node
        ncpus, ngpus = as_int(res.get("ncpus")), as_int(res.get("ngpus"))
        return (ncpus is None or 2 * ncpus <= threads) and \
            (ngpus is None or not gpus or 2 * ngpus <= gpus)

    # a chunk that asks all of a node's GPUs (or threads), or more than half of them (ngpus=4
    # of Aurora's 6: round 14, after heldout-2026-11-28n), cannot share a node with another
    part = [(n, res) for n, res in chunks if not whole(res) and two_fit(res) and (
            (c := as_int(res.get("ncpus"))) is not None and c < threads or
            gpus and 0 < (as_int(res.get("ngpus")) or 0) < gpus)]
    if sum(n for n, _ in chunks) < 2 or not part:
        return
    n, res = part[0]
    what = ", ".join(f"{k}={res[k]}" for k in ("ncpus", "ngpus") if k in res)
    yield Hit(item.line, f"{sum(c for c, _ in chunks)} chunks, {what} each (a {ctx.profile.name} "
              f"node has {threads} hardware threads, {gpus} GPUs), and no place=scatter: PBS "
              "places them freely and may put several on one node, so the job gets fewer "
              "nodes than chunks")


# A PBS job starts in the user's home directory, not where qsub ran: OpenPBS's MOM changes to
# the home directory before it runs the script (src/resmom/start_exec.c L4438-4465 @ cd7ab5ed:
# "If JOB_ATR_executable attribute is unset, change working directory to User's Home";
# chdir(pwdp->pw_dir)), which is why ALCF's example job script starts with
# `cd $PBS_O_WORKDIR` (docs/running-jobs/index.md L241-242 @ 7d04a3f9). ALCF's PBS behaving
# as OpenPBS here is UNCONFIRMED by a page of theirs.
_PBS_HOME = ("OpenPBS src/resmom/start_exec.c L4438-4465 @ cd7ab5ed (the job's working "
             "directory is the user's home: chdir(pwdp->pw_dir)); ALCF user guide "
             "docs/running-jobs/index.md L241-242 (cd $PBS_O_WORKDIR) @ 7d04a3f9")
_RELATIVE = re.compile(r"(?:\.{1,2}/)?[\w.-]+(?:/[\w.-]+)*\.(?:py|sh)")
_RUNNERS = re.compile(r"python[0-9.]*|bash|sh|source|\.")


@rule("PBS009", "relative-path-from-home", topic="scheduler", severity="warning",
      scope="PBS batch scripts (with #PBS directives) that run a file by a relative path "
      "(`python train.py`, `./run.sh`, `source ../env.sh`, a launch of `python x.py`) before "
      "any `cd`, and before sourcing a file of their own (which may change directory); not a "
      "placeholder path (`path/to/...`)", source=_PBS_HOME,
      fix="cd \"$PBS_O_WORKDIR\" (the directory qsub ran in) before it, or give the path in "
      "full", summary="a file named by a relative path while the job's working directory is "
      "the home directory: not found unless it is there")
def _relative_from_home(ctx: Context) -> Iterator[Hit]:
    """Round 13, after the blind runs of heldout-2026-11-27f and -m (a `cd $PBS_O_WORKDIR`
    left out or commented out; tuned on them)."""
    if ctx.dialect != "pbs" or not any(d.prefix == "#PBS" for d in ctx.script.block_directives):
        return
    moves = [line for line, words in ctx.script.commands if words[0] in ("cd", "pushd") or
             words[0] in ("source", ".") and len(words) > 1 and not _RELATIVE.fullmatch(words[1])
             and not re.search(r"(?:^|/)(?:activate|conda\.sh|mamba\.sh)$", words[1])]
    before = min(moves, default=None)
    runs: list[tuple[int, list[str]]] = [(line, words) for line, words in ctx.script.commands]
    runs += [(la.line, la.program) for la in ctx.launches if not la.shell]
    for line, words in sorted(runs):
        if before is not None and line >= before:
            return
        path = _relative_path(words)
        if path is not None:
            yield Hit(line, f"`{path}` is a relative path, and a PBS job starts in your home "
                      "directory, not the directory qsub ran in: unless the file is in your "
                      "home directory, it is not found",
                      f"cd \"$PBS_O_WORKDIR\" before line {line}, or give the full path")
            return


def _relative_path(words: list[str]) -> str | None:
    """The file a command runs by a relative path (`python x.py`, `bash run.sh`, `./app`,
    `source ../env.sh`), or None."""
    words = list(dropwhile(re.compile(r"[A-Za-z_]\w*=.*").fullmatch, words))
    if not words:
        return None
    first = words[0]
    if re.fullmatch(r"\.{1,2}/[\w./-]+", first):
        return first
    if _RUNNERS.fullmatch(first.rsplit("/", 1)[-1]) and len(words) > 1:
        arg = next((w for w in words[1:] if not w.startswith("-")), "")
        if _RELATIVE.fullmatch(arg) and not arg.startswith("path/to/"):
            return arg
    return None
