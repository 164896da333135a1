"""Which site's rules apply to a script when `--site` is not given: the jobgen header, a
`# site: NAME` line, or the directives (a PBS system= resource, a filesystem, a queue or
partition only one site has). A script that names no site by any of these is not guessed."""

from __future__ import annotations

import re

from ...profiles.load import load_profile, site_names
from ...profiles.model import Profile
from ..scriptparse import PREFIXES, Script, directive_items


def _evidence(script: Script, profile: Profile) -> int:
    """How many of the script's directives only this site would have."""
    dialect = next((PREFIXES[d.prefix] for d in script.block_directives), None)
    if dialect != profile.scheduler.dialect:
        return 0
    sched = profile.scheduler
    queues = {q.name for q in sched.queues} | {p for f in profile.partition_families
                                               for p in f.partitions}
    score = 0
    for d in script.block_directives:
        for key, value in directive_items(d.body):
            system = re.search(r"(?:^|:)system=([A-Za-z0-9_.-]+)", value) \
                if key == "-l select" else None
            if system and system.group(1) != sched.system_resource:
                return 0  # the script names another system (Crux, Sophia...)
            if system:
                score += 3
            elif key == "-l filesystems" and sched.filesystems:
                score += sum(2 for fs in re.split(r"[:,]", value)
                             if fs in sched.filesystems.valid and fs != "home")
            elif key in ("-q", "--partition", "-p") and value in queues and \
                    value not in _GENERIC:
                score += 2
    return score


# Queue names many sites use: they say nothing about which site a script is for.
_GENERIC = frozenset({"debug", "prod", "production", "batch", "regular", "small", "standard",
                      "normal", "large", "long", "short", "preemptable", "capacity", "demand",
                      "workq", "gpu", "cpu"})


def detect_site(script: Script) -> str | None:
    """The site the script names, or the one site its directives point to; None if unsure."""
    for named in (script.header.site, script.header.named_site):
        if named:
            return named
    if not script.block_directives:
        return None
    scores: dict[str, int] = {}
    for name in site_names():
        profile = load_profile(name).profile
        if profile.status != "local":
            scores[name] = _evidence(script, profile)
    best = max(scores.values(), default=0)
    winners = [n for n, s in scores.items() if s == best]
    if best == 0 or len(winners) != 1:
        return None
    return winners[0]
