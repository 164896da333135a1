"""The run-time placement check: what each rank compares with the plan before its program starts.

The per-rank wrapper (templates/_placecheck.j2) reads the rank's CPU set (`taskset -cp`, else
/proc/self/status), the NUMA nodes of those CPUs (sysfs) and the device mask variable, and
compares them with this plan's row for its local rank; a rank started twice on one node is
caught by an exclusive create. The bundled PyTorch apps compare again after `import torch` and
add the device the framework opened (workloads/runtime/placement.py).
"""

from __future__ import annotations

from ..frozen import Frozen
from ..profiles.cpus import format_cpu_list, logical_cpus
from ..profiles.facts import Fact

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..profiles.model import Profile
    from .placement import Slot

#: the exit status of a rank (and so of the job) that the check stops
PLACEMENT_EXIT = 2

CHECK_WHY = {
    "stop": ("before the program starts, every rank compares its CPU set, their NUMA node and "
             "its device mask with this plan, and a local rank started twice on one node is "
             "caught; a mismatch stops the job with one line naming the rank, expected and got "
             f"(exit {PLACEMENT_EXIT}). The default, because a misbound job (ranks sharing "
             "cores or a GPU) runs at a fraction of its speed for its whole walltime and its "
             "numbers compare with nothing: stopping in its first second costs less than "
             "finding out after the run; --placement-check warn runs it anyway"),
    "warn": ("before the program starts, every rank compares its CPU set, their NUMA node and "
             "its device mask with this plan; a mismatch prints one line per rank and the "
             "table, and the program starts anyway (--placement-check warn)"),
    "off": "no run-time placement check (--placement-check off): the ranks start unchecked",
}
CHECK_SOURCE = ("the plan: the CPUs, NUMA node and device mask jobgen computed for each local "
                "rank (the wrapper's rows); the kernel's affinity list (sched_getaffinity, "
                "taskset -cp) and /sys/devices/system/cpu/cpuN/nodeM at run time")


class PlaceRow(Frozen):
    """What one local rank should see at run time ('' where the plan sets nothing)."""

    local_rank: int
    cpus: str  # the kernel's list notation, sorted: 0-7,64-71
    threads: str  # the same cores with every SMT thread (a launcher may bind those instead)
    numa: str
    mask: str


def placement_fields(mode: str, origins: tuple[tuple[str, str], ...], profile: Profile,
                     slots: tuple[Slot, ...]) -> dict[str, object]:
    """Plan fields of --placement-check: its mode, its explain line and each local rank's row."""
    layer = dict(origins).get("placement_check") or (
        "computed by jobgen" if mode == "stop" else "command line")
    text = f"placement check: {mode}" + ("" if mode == "off" else
                                         " (every rank, before the program starts)")
    return dict(placement_check=mode,
                placement_fact=Fact(text, CHECK_WHY[mode], CHECK_SOURCE, layer),
                place_rows=place_rows(profile, slots))


def place_rows(profile: Profile, slots: tuple[Slot, ...]) -> tuple[PlaceRow, ...]:
    """Each local rank's expected CPU list (sorted, as the kernel prints it), the same cores
    with all their SMT threads (jsrun binds whole cores at Summit's default SMT4, where the
    plan names each core's first thread), its NUMA node and its device mask."""
    node = profile.node
    total = node.sockets * node.cores_per_socket
    rows = []
    for s in slots:
        threads = logical_cpus(s.cores, total, node.threads_per_core, node.smt_numbering, True)
        rows.append(PlaceRow(s.local_rank, format_cpu_list(sorted(s.cpus)) if s.cores else "",
                             format_cpu_list(threads) if s.cores else "",
                             "" if s.numa is None else str(s.numa), s.mask or ""))
    return tuple(rows)


#: Rank 0's table of a user's program, from every rank's line (the wrapper's printf): one line
#: per node when all its ranks agree with the plan, every rank of a node in full otherwise.
#: awk, because the compute node may have no Python for a user's program; the bundled apps
#: print the same table from workloads/runtime/placement.py.
TABLE_AWK = r"""{
  r = $1 + 0; h = $2; host[r] = h; loc[r] = $3
  v = $10; for (i = 11; i <= NF; i++) v = v " " $i
  verdict[r] = v
  seen[r] = "CPUs " $5 ", NUMA " $7 (mask != "" ? ", " mask " " $9 : "")
  if (v != "ok") { bad[h] = 1; nbad++ }
  if (!(h in first) || r < first[h]) first[h] = r
  if (!(h in last) || r > last[h]) last[h] = r
  count[h]++; cpus[h, $3] = $5; numa[h, $3] = $7; masks[h, $3] = $9
}
END {
  printf "jobgen: placement check (%s): %d of %d ranks reported, %s\n", mode, NR, world, \
    (nbad ? nbad " differ from the plan" : "all as planned")
  for (r = 0; r < world; r++) {
    if (!(r in host)) { missing = missing (missing == "" ? "" : ",") r; continue }
    h = host[r]
    if (h in done) continue
    done[h] = 1
    if (h in bad) {
      for (q = r; q < world; q++)
        if ((q in host) && host[q] == h)
          printf "  %s rank %d (local %d): %s (%s)\n", h, q, loc[q], verdict[q], seen[q]
      continue
    }
    cl = ""; nl = ""; ml = ""
    for (l = 0; l < count[h]; l++) {
      cl = cl (l ? " " : "") cpus[h, l]; nl = nl (l ? " " : "") numa[h, l]
      ml = ml (l ? " " : "") masks[h, l]
    }
    span = (count[h] == 1) ? "rank " first[h] : \
      (last[h] - first[h] + 1 == count[h]) ? "ranks " first[h] "-" last[h] : \
      count[h] " ranks from " first[h] " to " last[h]
    printf "  %s: %s as planned: CPUs %s; NUMA %s%s\n", h, span, cl, nl, \
      (mask != "" ? "; " mask " " ml : "")
  }
  if (missing != "") printf "  not reported: ranks %s\n", missing
}"""
