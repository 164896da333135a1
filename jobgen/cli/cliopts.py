"""Share one command's option definitions with another (render's options for explain and diff).

Typer reads a command's options from its signature. `with_options_of(render)` gives the
decorated command its own parameters followed by render's (less those dropped), so an option
added to `render` appears in `explain` and `diff` with the same name, help and default.
The decorated function receives render's options in `**options`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def with_options_of(source: Callable[..., Any], drop: Iterable[str] = ()) -> Callable[[F], F]:
    dropped = set(drop)

    def decorate(fn: F) -> F:
        own = inspect.signature(fn, eval_str=True)
        mine = [p for p in own.parameters.values() if p.kind is not p.VAR_KEYWORD]
        names = {p.name for p in mine}
        theirs = [
            p.replace(kind=inspect.Parameter.KEYWORD_ONLY)
            for p in inspect.signature(source, eval_str=True).parameters.values()
            if p.name not in dropped and p.name not in names
        ]
        # keyword-only: any order of defaults is allowed, and Typer passes everything by name
        params = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in mine] + theirs
        fn.__signature__ = own.replace(parameters=params)  # type: ignore[attr-defined]
        fn.__annotations__ = {p.name: p.annotation for p in params
                              if p.annotation is not inspect.Parameter.empty}
        return fn

    return decorate
