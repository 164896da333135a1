"""Shell words: every value reaching a script is either a quoted literal or a checked reference."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class Var:
    """A reference to a shell variable, rendered as "$NAME" (double-quoted, expanded)."""

    name: str

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ValueError(f"not a shell variable name: {self.name!r}")


@dataclass(frozen=True)
class Expand:
    """Text with ${NAME} references only (validated by the profile checks), double-quoted."""

    text: str


Word = str | Var | Expand


def quote(word: Word) -> str:
    if isinstance(word, Var):
        return f'"${word.name}"'
    if isinstance(word, Expand):
        return f'"{word.text}"'
    return shlex.quote(str(word))


def join(words: list[Word] | tuple[Word, ...]) -> str:
    return " ".join(quote(w) for w in words)
