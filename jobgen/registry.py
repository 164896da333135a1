"""Name -> function tables filled by a decorator: one function per dialect, no if-chains."""

from __future__ import annotations

from collections.abc import Callable

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:
    from typing import TypeVar

    F = TypeVar("F", bound=Callable[..., object])


class Registry(dict[str, "F"]):  # generic in F for type checkers; a plain dict at run time
    def register(self, name: str) -> Callable[[F], F]:
        def add(fn: F) -> F:
            self[name] = fn
            return fn

        return add
