"""The one exception type for user mistakes: the CLI prints it as one line and exits 2.

A message often echoes what the user gave (an option value, a file name, a profile field),
so it is made safe to print here, once: whitespace runs become one space, other control
characters are shown escaped (a terminal never sees a raw escape sequence), and a long run of
text is clipped so a 100 KB value does not become a 100 KB error line.
"""

from __future__ import annotations

import re

from .controlchars import visible

MAX_RUN = 200  # characters of one word kept in a message
MAX_MESSAGE = 2000  # characters of a whole message kept
_LONG_RUN = re.compile(rf"\S{{{MAX_RUN + 1},}}")


def _clip_run(run: str) -> str:
    """A word over MAX_RUN characters: its start, '…' and how much was left out."""
    kept = MAX_RUN - 1  # with the '…' the word is MAX_RUN long: clipping again changes nothing
    return f"{run[:kept]}… ({len(run) - kept} more characters)"


def _clip_message(text: str) -> str:
    if len(text) <= MAX_MESSAGE:
        return text
    kept = MAX_MESSAGE - len(f" … ({len(text)} more characters)")
    return f"{text[:kept]} … ({len(text) - kept} more characters)"


def one_line(message: str) -> str:
    """A message as the CLI prints it: one line, no control characters, bounded length.

    Applying it twice gives the same text, so a message quoted in another is not clipped twice.
    """
    text = visible(" ".join(message.split()))
    return _clip_message(_LONG_RUN.sub(lambda m: _clip_run(m.group(0)), text))


class JobgenError(Exception):
    """A problem the user can fix: bad input, a broken profile, a request a site cannot run.

    The message names the problem and, where one exists, the fix; it is printed as one line.
    """

    exit_code = 2

    def __init__(self, message: str) -> None:
        self.message = one_line(message)
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


def counted(n: int, noun: str) -> str:
    """`1 node`, `2 nodes`: a count and its noun, for one-line messages."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def nodes_word(n: int) -> str:
    return counted(n, "node")
