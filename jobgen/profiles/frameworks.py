"""Which of a profile's framework-stack variants a module release falls under.

One rule for the profile checks (every listed release must select its own variant) and for the
plan (the backend and IPEX of `--framework-module frameworks/VERSION`).
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:  # the render path reads profiles as records (jobgen.profiles.records)
    from .model import FrameworkStack, FrameworkVariant


def release_key(text: str) -> tuple[int, ...]:
    """A release's numbers, for ordering (2025.2.0 < 2025.10.1)."""
    return tuple(int(x) for x in re.findall(r"\d+", text))


def variant_for(stack: FrameworkStack, version: str) -> FrameworkVariant:
    """The variant a module version falls under: the first whose `since` it reaches."""
    for v in stack.variants:
        if v.since is None or release_key(version) >= release_key(v.since):
            return v
    return stack.variants[-1]
