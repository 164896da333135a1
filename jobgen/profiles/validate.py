"""`jobgen validate`: every problem of every profile, one line each."""

from __future__ import annotations

from pathlib import Path

from ..errors import JobgenError
from .load import (
    PROFILE_SUFFIXES,
    ProfileFile,
    _candidates,
    chain_problems,
    discover,
    from_validated,
    load_file_chain,
    profile_file_for_path,
    semantic_problems,
    unknown_site,
)


def _files(paths: list[Path]) -> list[ProfileFile]:
    if not paths:
        return [pf for files in _candidates().values() for pf in files]
    out = []
    for path in paths:
        if path.is_dir():
            out += [profile_file_for_path(p) for p in sorted(path.iterdir())
                    if p.suffix in PROFILE_SUFFIXES]
        elif not path.exists() and len(path.parts) == 1 and path.suffix not in PROFILE_SUFFIXES:
            # a profile's name, as `jobgen sites` lists it: the file the search path picks
            found = discover()
            if str(path) not in found:
                raise unknown_site(str(path), sorted(found))
            out.append(found[str(path)])
        else:
            out.append(profile_file_for_path(path))
    return out


def problems_of(pf: ProfileFile) -> list[str]:
    """All problems of one profile file, each 'file: field: problem'."""
    try:
        chain = load_file_chain(pf)
    except JobgenError as exc:
        return [str(exc)]
    found = chain_problems(chain)
    if found:
        return found
    return [f"{pf.path}: {line}"
            for line in semantic_problems(from_validated(chain.merged), pf.path)]


def validate_paths(paths: list[Path]) -> tuple[list[str], int]:
    files = _files(paths)
    problems: list[str] = []
    for pf in files:
        # a profile that extends a broken one shows that file's problem again: once is enough
        problems += [p for p in problems_of(pf) if p not in problems]
    return problems, len(files)
