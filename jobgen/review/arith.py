"""Shell arithmetic `$(( ))` in a script read back: evaluated only when small and bounded.

A script is input: `$((9**9**9))` must not make `lint` compute a number with billions of
digits. Bash works in 64-bit integers, so jobgen evaluates an expression only when it is
short, made of decimal or octal literals and `+ - * / % **` with parentheses, every
intermediate value fits in 64 bits and no exponent is negative or over 63. Anything else
returns None and stays as written: a value known only when the script runs.
"""

from __future__ import annotations

import re

MAX_LENGTH = 120  # characters of one expression
MAX_DEPTH = 16  # nested parentheses and signs
_LIMIT = 1 << 63  # bash's signed 64-bit range
_TOKEN = re.compile(r"\s*([0-9]{1,20}|\*\*|[-+*/%()])")


class _Refused(Exception):
    """The expression is outside what jobgen evaluates; bash would decide at run time."""


def evaluate(expr: str) -> int | None:
    """The value bash gives `$((expr))`, or None when it is not small and literal."""
    if len(expr) > MAX_LENGTH:
        return None
    tokens = _tokens(expr)
    if tokens is None:
        return None
    parser = _Parser(tokens)
    try:
        value = parser.sum(0)
        if parser.pos != len(tokens):
            return None
    except _Refused:
        return None
    return value


def _tokens(expr: str) -> list[str] | None:
    out, pos = [], 0
    while pos < len(expr):
        m = _TOKEN.match(expr, pos)
        if m is None:
            return None if expr[pos:].strip() else out
        out.append(m.group(1))
        pos = m.end()
    return out


def _checked(value: int) -> int:
    if not -_LIMIT <= value < _LIMIT:
        raise _Refused
    return value


class _Parser:
    """Recursive descent with bash's precedence: unary sign, then **, then * / %, then + -."""

    def __init__(self, tokens: list[str]) -> None:
        self.tokens = tokens
        self.pos = 0

    def _peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def _take(self) -> str:
        token = self._peek()
        if token is None:
            raise _Refused
        self.pos += 1
        return token

    def sum(self, depth: int) -> int:
        value = self.product(depth)
        while self._peek() in ("+", "-"):
            op = self._take()
            right = self.product(depth)
            value = _checked(value + right if op == "+" else value - right)
        return value

    def product(self, depth: int) -> int:
        value = self.power(depth)
        while self._peek() in ("*", "/", "%"):
            op = self._take()
            right = self.power(depth)
            if op == "*":
                value = _checked(value * right)
            else:
                value = _divide(value, right, op)
        return value

    def power(self, depth: int) -> int:
        base = self.unary(depth)
        if self._peek() != "**":
            return base
        self._take()
        exponent = self.power(depth + 1)  # right-associative
        if depth > MAX_DEPTH or exponent < 0:
            raise _Refused
        if abs(base) > 1 and exponent > 63:
            raise _Refused
        return _checked(base**exponent)

    def unary(self, depth: int) -> int:
        if depth > MAX_DEPTH:
            raise _Refused
        token = self._take()
        if token in ("+", "-"):
            value = self.unary(depth + 1)
            return _checked(-value if token == "-" else value)
        if token == "(":
            value = self.sum(depth + 1)
            if self._take() != ")":
                raise _Refused
            return value
        return _literal(token)


def _literal(token: str) -> int:
    if not token.isdigit():
        raise _Refused
    if len(token) > 1 and token.startswith("0"):  # bash reads a leading 0 as octal
        if not re.fullmatch(r"[0-7]+", token):
            raise _Refused
        return _checked(int(token, 8))
    return _checked(int(token))


def _divide(left: int, right: int, op: str) -> int:
    """Bash truncates toward zero (C semantics); the remainder takes the dividend's sign."""
    if right == 0:
        raise _Refused
    quotient = abs(left) // abs(right)
    if (left < 0) != (right < 0):
        quotient = -quotient
    return _checked(quotient if op == "/" else left - right * quotient)
