"""A sweep of the user's own program (`jobgen sweep ... -- python train.py --data ./d`).

Each run starts in its own directory (`OUT/POINT/rK`), not where the user typed the command,
so a relative path in the command would name a file that is not there, in every run. At
sweep time every word of the command that names an existing file or directory relative to
the current directory becomes its absolute path (also the value of `--opt=PATH`), and the
program's own file (the script given to python, bash..., or a command with a `/`) must then
exist from the run directory; otherwise the sweep stops with one line, before any script is
written, instead of every job failing after its wait in the queue.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import JobgenError
from ..frozen import replace
from ..plan.build import Request
from ..plan.runrecord import program_file
from .progress import note


def _absolute(word: str, cwd: Path) -> str:
    if not word or word.startswith("/") or "\0" in word:
        return word
    try:
        return str(cwd / word) if (cwd / word).exists() else word
    except OSError:  # a name too long, a permission problem: leave the word as it is
        return word


def _resolve_word(word: str, cwd: Path) -> str:
    if word.startswith("-"):
        key, eq, value = word.partition("=")
        return f"{key}={_absolute(value, cwd)}" if eq and value else word
    return _absolute(word, cwd)


def resolve_program(base: Request, cwd: Path) -> Request:
    """`base` with the command's relative paths made absolute (bundled apps are unchanged)."""
    if base.app or not base.command:
        return base
    command = (base.command[0] if "/" not in base.command[0]
               else _absolute(base.command[0], cwd),
               *(_resolve_word(w, cwd) for w in base.command[1:]))
    changed = [(a, b) for a, b in zip(base.command, command, strict=True) if a != b]
    for old, new in changed:
        note(f"{old} -> {new} (each run starts in its own directory)")
    path = program_file(command)
    if path is not None and not os.path.isabs(path):
        raise JobgenError(f"the program {path} is not in {cwd} and each run starts in its own "
                          "directory (OUT/POINT/rK): give a path that exists from here, or an "
                          "absolute one")
    if path is not None and not os.path.isfile(path):
        raise JobgenError(f"the program {path} is not a file: give the script to run")
    return replace(base, command=command) if changed else base
