"""PBS rules from the normative statements of ALCF's running-jobs pages that no other rule
checked (docs/lint-coverage.md): where the chunks of a job go (`-l place`), and job arrays
that PBS refuses.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .context import Context
from .core import Hit, rule

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


def _chunks(value: str) -> list[tuple[int, dict[str, str]]]:
    """`2:ncpus=64+1:host=x` -> [(2, {'ncpus': '64'}), (1, {'host': 'x'})]."""
    out = []
    for chunk in value.split("+"):
        parts = chunk.split(":")
        count = int(parts[0]) if re.fullmatch(r"[0-9]{1,6}", parts[0]) else 1
        res = dict(p.partition("=")[::2] for p in (parts[1:] if parts[0].isdigit() else parts))
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
    chunks = _chunks(select[-1].value)
    count = sum(n for n, _ in chunks)
    if count < 2:
        return
    cpus = sum(n * int(r["ncpus"]) for n, r in chunks if r.get("ncpus", "").isdigit())
    gpus = sum(n * int(r["ngpus"]) for n, r in chunks if r.get("ngpus", "").isdigit())
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
