"""The one escaping layer: every value that reaches a script passes through here.

A value lands in one of four contexts, and each has one function that makes it safe there:

- a shell word (`quote`, `join`): single quotes, or bash's `$'...'` when the value has a
  control character, so no word ever spans a line;
- comment text (`comment`): control characters shown as escapes, so a comment stays one line;
- a line built from already-quoted words (`line`) and a scheduler directive (`directive`):
  checked to be exactly one line (and, for a directive, to start with its prefix);
- the per-rank wrapper's quoted heredoc: only template text and values from the contexts
  above reach it, and none of them can contain a line break, so nothing can end it early.

Their results are `Safe` strings. The template environment's `finalize` lets a `Safe` string,
a number or an inert token through and refuses anything else, so a template that forgets a
filter fails loudly instead of writing a raw value (see `checked_output`).
"""

from __future__ import annotations

import re
import shlex

from .controlchars import CONTROL, visible
from .errors import JobgenError
from .frozen import Frozen

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# ${NAME} or $NAME references are all an expandable value may contain besides plain text.
SAFE_EXPANSION = re.compile(
    r'(?:[^$`"\\\x00-\x1f\x7f\x85\u2028\u2029]|\$\{[A-Za-z_][A-Za-z0-9_]*\}'
    r"|\$[A-Za-z_][A-Za-z0-9_]*)*"
)
# CONTROL (from controlchars.py, imported above and used below): the characters that end or
# split a line for bash, line-based tools or a terminal.
# A value that needs no quoting in any context: used bare by templates (numbers, names).
INERT = re.compile(r"[A-Za-z0-9_.,:/@%+=-]*")


class Safe(str):
    """Text already made safe for the context it is written in (only this module makes it)."""

    __slots__ = ()


class Var(Frozen):
    """A reference to a shell variable, rendered as "$NAME" (double-quoted, expanded)."""

    name: str

    def __post_init__(self) -> None:
        if not NAME.fullmatch(self.name):
            raise JobgenError(f"not a shell variable name: {self.name!r}")


class Expand(Frozen):
    """Text whose only expansions are ${NAME} references, rendered double-quoted."""

    text: str

    def __post_init__(self) -> None:
        if not SAFE_EXPANSION.fullmatch(self.text):
            raise JobgenError(f"{self.text!r} may only reference ${{NAME}} variables: no $(...), "
                              "backquotes, quotes, backslashes or line breaks")


Word = str | Var | Expand

_ANSI_C = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _ansi_c(text: str) -> str:
    """bash's $'...' quoting: every control character as an escape, the rest as it is."""
    out = []
    for ch in text:
        if ch in _ANSI_C:
            out.append(_ANSI_C[ch])
        elif CONTROL.fullmatch(ch):
            # UTF-8 bytes, not \\u: bash decodes \\u only in a UTF-8 locale
            out.append("".join(f"\\x{b:02x}" for b in ch.encode()))
        else:
            out.append(ch)
    return "$'" + "".join(out) + "'"


def quote(word: Word) -> Safe:
    """One shell word, on one line, that the shell reads back as exactly `word`."""
    if isinstance(word, Var):
        return Safe(f'"${word.name}"')
    if isinstance(word, Expand):
        return Safe(f'"{word.text}"')
    text = str(word)
    if "\x00" in text:
        raise JobgenError(f"{text!r} contains a NUL byte, which no shell word can carry")
    return Safe(_ansi_c(text) if CONTROL.search(text) else shlex.quote(text))


def join(words: list[Word] | tuple[Word, ...]) -> Safe:
    return Safe(" ".join(quote(w) for w in words))


def comment(text: object) -> Safe:
    """Text for a `# ...` comment: control characters become visible escapes (one line)."""
    return Safe(visible(text))


def line(text: str) -> Safe:
    """A line the plan built from quoted words: refused if it is not exactly one line."""
    if CONTROL.search(text.replace("\t", " ")):
        raise JobgenError(f"refusing to write a script line with a line break or control "
                          f"character: {text!r}")
    return Safe(text)


def directive(text: str, prefix: str) -> Safe:
    """A scheduler directive line: one line that starts with the dialect's prefix."""
    if not prefix or not text.startswith(prefix + " "):
        raise JobgenError(f"refusing to write {text!r} as a {prefix or 'scheduler'} directive")
    return line(text)


def checked_output(value: object) -> object:
    """Jinja's finalize: what a template writes must be Safe, a number or an inert token."""
    if isinstance(value, Safe):
        return value
    if isinstance(value, bool) or value is None:
        raise JobgenError(f"template bug: {value!r} written without a filter")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and INERT.fullmatch(value):
        return value
    raise JobgenError(f"refusing to write {str(value)[:200]!r} into the script unescaped: "
                      "it is not a plain name or number")


def split(text: str) -> list[str]:
    """Read back words written by `quote`/`join` (and plain shlex syntax): the inverse of
    join for `jobgen verify`, which parses a script's Regenerate line."""
    return list(_pieces(text))


def _pieces(text: str):
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i] in " \t\n":
            i += 1
        if i >= n:
            break
        word: list[str] = []
        while i < n and text[i] not in " \t\n":
            if text.startswith("$'", i):
                i = _read_ansi_c(text, i + 2, word)
            elif text[i] == "'":
                end = text.find("'", i + 1)
                if end < 0:
                    raise ValueError("no closing quotation")
                word.append(text[i + 1:end])
                i = end + 1
            elif text[i] == '"':
                i = _read_double(text, i + 1, word)
            elif text[i] == "\\" and i + 1 < n:
                word.append(text[i + 1])
                i += 2
            else:
                word.append(text[i])
                i += 1
        yield "".join(word)


_UNESCAPE = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "a": "\a",
             "b": "\b", "e": "\x1b", "f": "\f", "v": "\v"}


_HEX = {kind: re.compile(f"[0-9a-fA-F]{{1,{n}}}") for kind, n in (("x", 2), ("u", 4), ("U", 8))}


def _read_ansi_c(text: str, i: int, word: list[str]) -> int:
    """$'...': escapes decoded; \\xHH are bytes, joined and read as UTF-8 as bash does."""
    n = len(text)
    data = bytearray()
    while i < n:
        ch = text[i]
        if ch == "'":
            word.append(data.decode("utf-8", errors="surrogateescape"))
            return i + 1
        if ch == "\\" and i + 1 < n:
            kind = text[i + 1]
            width = _HEX.get(kind)
            if width:
                digits = width.match(text, i + 2)  # at a position: no copy of the rest
                if not digits:
                    raise ValueError(f"bad \\{kind} escape")
                code = int(digits.group(), 16)
                if code > 0x10FFFF:  # bash writes nothing a UTF-8 reader can take back
                    raise ValueError(f"\\{kind}{digits.group()} is beyond Unicode (U+10FFFF)")
                # a lone surrogate (\\uD800) is encoded as bash does, not refused
                data += (bytes([code]) if kind == "x"
                         else chr(code).encode("utf-8", errors="surrogatepass"))
                i += 2 + len(digits.group())
                continue
            data += _UNESCAPE.get(kind, "\\" + kind).encode()
            i += 2
            continue
        data += ch.encode("utf-8", errors="surrogateescape")
        i += 1
    raise ValueError("no closing quotation")


def _read_double(text: str, i: int, word: list[str]) -> int:
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            return i + 1
        if ch == "\\" and i + 1 < n and text[i + 1] in '$`"\\':
            word.append(text[i + 1])
            i += 2
            continue
        word.append(ch)
        i += 1
    raise ValueError("no closing quotation")
