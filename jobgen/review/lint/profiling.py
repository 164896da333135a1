"""Rules on profilers in a launch: a vendor profiler wrapped around every rank instead of the
chosen ones (`jobgen render --profile TOOL --profile-ranks LIST` writes the chosen-rank form)."""

from __future__ import annotations

import os
from collections.abc import Iterator

from ...profiles.model import Profile
from .context import Context, LaunchView
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


def _one_rank(launch: LaunchView) -> bool:
    """A launch of one rank in all."""
    return launch.flag("-n", "-np", "--np", "--ntasks") == "1" or \
        launch.ranks_per_node == 1 and launch.nodes == 1


@rule("PROF001", "profiler-around-every-rank", topic="profiling", severity="warning",
      scope="a launch of several ranks whose program starts with a vendor profiler "
      "(nsys, ncu, rocprof, rocprofv3, unitrace, vtune), unless PROF002 reports it (one "
      "report name for all ranks); not where the site's guide profiles "
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
        if _one_rank(launch):
            continue  # one rank: the profiler is around that rank only
        every = ctx.profile.profiling.every_rank if ctx.profile.profiling else None
        if tool in VENDOR_PROFILERS and every and any(
                v in w for w in program for v in every.rank_variables):
            continue  # one report per rank, as the site's guide profiles (Summit)
        if tool in ("nsys", "ncu") and _shared_name(program):
            continue  # PROF002 reports it: every rank profiled into one name
        if tool in VENDOR_PROFILERS:
            yield Hit(launch.line, f"{tool} wraps every rank this launch starts: each writes "
                      "its own trace and all of them run slower; the tutorials profile one or "
                      "a few chosen ranks")


_PER_RANK_OUTPUT = ("ALCF user-guides @ 7d04a3f9 docs/polaris/data-science/profiling_dl.md "
                    "(nsys_wrapper.sh: -o ...%q{PMI_RANK}; \"Note that %q{PMI_RANK} is essential "
                    "to get a per-rank profile\"); OLCF olcf-user-docs @ 2745903 "
                    "systems/summit_user_guide.rst L2622-2634 "
                    "(-o vectorAdd_%q{OMPI_COMM_WORLD_RANK})")
_OUTPUT_FLAGS = ("-o", "--output", "--output-file", "-d", "--output-directory")
# what makes a name differ between processes: nsys's %q{VAR} (an environment variable), %p
# (the process id) and %h (the host), or a shell variable the wrapper expands per rank
_PER_PROCESS = ("%q{", "%p", "%h", "%n")


@rule("PROF002", "profiler-output-not-per-rank", topic="profiling", severity="warning",
      scope="launches of several ranks whose program starts with nsys or ncu and names one "
      "output file (-o NAME) with nothing that differs between ranks (%q{PMI_RANK}, %p, a "
      "per-rank variable)", source=_PER_RANK_OUTPUT,
      fix="name the report per rank: -o name_%q{PMI_RANK} (Summit: %q{OMPI_COMM_WORLD_RANK}), "
      "or profile one chosen rank through a wrapper",
      summary="every rank's profile written to the same file name: they collide and at most "
      "one survives")
def _same_output(ctx: Context) -> Iterator[Hit]:
    for launch in ctx.launches:
        program = launch.program
        if not program or os.path.basename(program[0]) not in ("nsys", "ncu"):
            continue
        if _one_rank(launch):
            continue
        name = _shared_name(program)
        if name is None:
            continue
        yield Hit(launch.line, f"every rank of the launch runs under {program[0]} and writes "
                  f"its report to `{name}`: the names are the same, so the reports collide "
                  "and at most one survives (and every rank pays the profiler's overhead)",
                  "profile a chosen rank through a wrapper (jobgen render --profile TOOL "
                  "--profile-ranks 0), or add the rank to the name: -o NAME_%q{PMI_RANK} "
                  "(%q{OMPI_COMM_WORLD_RANK} on Summit)")


def _shared_name(program: list[str]) -> str | None:
    """The report name an nsys/ncu command line gives (-o NAME), when nothing in it differs
    between processes; None otherwise. A $VAR in a launch's words is expanded once, by the
    batch shell: the same for every rank."""
    for k, w in enumerate(program[1:], 1):
        key, eq, value = w.partition("=")
        if key in _OUTPUT_FLAGS:
            name = value if eq else (program[k + 1] if k + 1 < len(program) else None)
            return None if not name or any(t in name for t in _PER_PROCESS) else name
    return None
