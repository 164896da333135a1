"""Rules on profilers in a launch: a vendor profiler wrapped around every rank instead of the
chosen ones (`jobgen render --profile TOOL --profile-ranks LIST` writes the chosen-rank form)."""

from __future__ import annotations

import os
from collections.abc import Iterator

from ...profiles.model import Profile
from .context import Context
from .core import Hit, rule
from .scope import VENDOR_PROFILERS

_SOURCE = ("ALCF user-guides docs/polaris/data-science/profiling_dl.md and "
           "docs/aurora/data-science/profiling_dl.md (nsys_wrapper.sh, unitrace_wrapper.sh: "
           "PROFRANK, RANKCUTOFF); Lumi-supercomputer/Getting_Started_with_AI_workshop "
           "09_Extreme_scale_AI/README.md (profile a few selected ranks)")


def _facts(p: Profile) -> list[str]:
    prof = getattr(p, "profiling", None)
    tools = [f"{t.name}: {' '.join(t.command)} ({t.source})" for t in prof.tools] if prof else []
    return tools or ["no profilers documented for this site"]


@rule("PROF001", "profiler-around-every-rank", topic="profiling", severity="warning",
      scope="a launch of several ranks whose program starts with a vendor profiler "
      "(nsys, ncu, rocprof, rocprofv3, unitrace, vtune); not where the site's guide profiles "
      "every rank and the report is named per rank as it does (Summit: "
      "-o name_%q{OMPI_COMM_WORLD_RANK})", source=_SOURCE, facts=_facts,
      fix="profile a few chosen ranks: jobgen render ... --profile TOOL --profile-ranks 0 "
      "(the rank wrapper runs the tool on those ranks only)",
      summary="every rank under the profiler: one trace per rank and the overhead on all")
def _every_rank(ctx: Context) -> Iterator[Hit]:
    for launch in ctx.launches:
        program = launch.program
        if not program:
            continue
        tool = os.path.basename(program[0])
        if launch.flag("-n", "-np", "--np", "--ntasks") == "1" or \
                launch.ranks_per_node == 1 and launch.nodes == 1:
            continue  # one rank: the profiler is around that rank only
        every = ctx.profile.profiling.every_rank if ctx.profile.profiling else None
        if tool in VENDOR_PROFILERS and every and any(
                v in w for w in program for v in every.rank_variables):
            continue  # one report per rank, as the site's guide profiles (Summit)
        if tool in VENDOR_PROFILERS:
            yield Hit(launch.line, f"{tool} wraps every rank this launch starts: each writes "
                      "its own trace and all of them run slower; the tutorials profile one or "
                      "a few chosen ranks")
