"""Progress for long sweeps, submits and collections: a Rich bar on a terminal, plain lines
otherwise (CI logs and pipes get one readable line per step instead of control codes)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")


def steps(items: Sequence[T], what: str, name: Callable[[T], str] = str) -> Iterator[T]:
    """Yield `items`, showing `what i/n: name(item)` on stderr as each one starts."""
    if not items:
        return
    if sys.stderr.isatty():
        yield from _bar(items, what, name)
        return
    for i, item in enumerate(items, 1):
        note(f"{what} {i}/{len(items)}: {name(item)}")
        yield item


def _bar(items: Sequence[T], what: str, name: Callable[[T], str]) -> Iterator[T]:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[item]}"))
    with Progress(*columns, console=Console(stderr=True), transient=False) as bar:
        task = bar.add_task(what, total=len(items), item="")
        for item in items:
            bar.update(task, item=name(item))
            yield item
            bar.advance(task)


def note(message: str) -> None:
    """A one-line remark on stderr (an invalid point, a failed submit), prefixed like errors;
    text from outside (a scheduler's answer) cannot put control characters on the terminal."""
    from ..errors import one_line

    print(f"jobgen: {one_line(message)}", file=sys.stderr, flush=True)
