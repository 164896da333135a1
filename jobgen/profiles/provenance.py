"""Which layer a value of a plan came from: the bundled profile, a profile it extends, a user
profile, or the command line.

Only `explain` needs this, so it reads the raw YAML of every file in the profile's `extends`
chain here, off the render path. Lists replace whole when profiles merge, so the file that
provides a list item is the first file in the chain (the profile itself first) whose raw data
defines that list.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .load import LoadedProfile, ProfileFile, read_profile_data

_LAYER_WORDS = {
    "bundled": "bundled profile",
    "user config": "user profile",
    "JOBGEN_PROFILE_PATH": "user profile (JOBGEN_PROFILE_PATH)",
    "file": "profile file",
}


def _defines(data: Any, path: str) -> bool:
    for part in path.split("."):
        if not isinstance(data, dict) or part not in data:
            return False
        data = data[part]
    return True


class Provenance:
    """Answers `layer(path)` for dotted profile key paths such as 'scheduler.directives'."""

    def __init__(self, loaded: LoadedProfile) -> None:
        self.chain: tuple[ProfileFile, ...] = loaded.chain
        self._raw: list[dict[str, Any]] = [read_profile_data(pf.path) for pf in loaded.chain]

    def file_for(self, path: str) -> ProfileFile | None:
        for pf, raw in zip(self.chain, self._raw, strict=True):
            if _defines(raw, path):
                return pf
        return None

    def own_value(self, path: str) -> str | None:
        """The user's file (not a bundled one) that sets PATH to a bare value, which carries
        no source of its own; None when a bundled file sets it or the value has its source."""
        for pf, raw in zip(self.chain, self._raw, strict=True):
            if _defines(raw, path):
                if pf.layer == "bundled":
                    return None
                for part in path.split("."):
                    raw = raw[part]
                return None if isinstance(raw, (dict, list)) else _short(pf.path)
        return None

    def describe(self, pf: ProfileFile, index: int) -> str:
        words = _LAYER_WORDS.get(pf.layer, pf.layer)
        if pf.layer == "file":
            words = f"profile file {pf.path}"
        elif pf.layer != "bundled":
            words = f"{words} {_short(pf.path)}"
        if index == 0:
            return words
        return f"extended profile {pf.name} ({words})"

    def layer(self, path: str) -> str:
        pf = self.file_for(path)
        if pf is None:
            return "jobgen default"
        return self.describe(pf, self.chain.index(pf))

    def chain_text(self) -> str:
        return " <- ".join(
            f"{pf.name} ({self.describe(pf, 0)})" for pf in self.chain
        )


def _short(path: Path) -> str:
    home = Path.home()
    try:
        return "~/" + str(path.relative_to(home))
    except ValueError:
        return str(path)
