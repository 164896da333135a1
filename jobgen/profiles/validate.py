"""`jobgen validate`: every problem of every profile, one line each."""

from __future__ import annotations

from pathlib import Path

from ..errors import JobgenError
from .load import (
    PROFILE_SUFFIXES,
    ProfileFile,
    _candidates,
    from_validated,
    load_file_chain,
    profile_file_for_path,
    schema_problems,
    semantic_problems,
)


def _files(paths: list[Path]) -> list[ProfileFile]:
    if not paths:
        return [pf for files in _candidates().values() for pf in files]
    out = []
    for path in paths:
        if path.is_dir():
            out += [profile_file_for_path(p) for p in sorted(path.iterdir())
                    if p.suffix in PROFILE_SUFFIXES]
        else:
            out.append(profile_file_for_path(path))
    return out


def problems_of(pf: ProfileFile) -> list[str]:
    """All problems of one profile file, each 'file: field: problem'."""
    try:
        merged = load_file_chain(pf).merged
    except JobgenError as exc:
        return [str(exc)]
    found = schema_problems(merged)
    if not found:
        found = semantic_problems(from_validated(merged), pf.path)
    return [f"{pf.path}: {line}" for line in found]


def validate_paths(paths: list[Path]) -> tuple[list[str], int]:
    files = _files(paths)
    problems: list[str] = []
    for pf in files:
        problems += problems_of(pf)
    return problems, len(files)
