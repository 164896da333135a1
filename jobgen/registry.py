"""Name -> function tables filled by a decorator: one function per dialect, no if-chains."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

F = TypeVar("F", bound=Callable[..., object])


class Registry(dict[str, F], Generic[F]):
    def register(self, name: str) -> Callable[[F], F]:
        def add(fn: F) -> F:
            self[name] = fn
            return fn

        return add
