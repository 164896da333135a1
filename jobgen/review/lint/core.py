"""The rule registry and the findings; the script read against a profile is `context.py`.

Every rule declares what it is about (its topic), how bad a hit is (severity), which scripts
it applies to (its scope, decided from the script by `scope.py` and `context.py`), the
documentation that says so (source) and the usual fix. A rule's check reads the `Context` and
yields `Hit`s; the registry turns them into `Finding`s with the rule's id, severity and source.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ...profiles.model import Profile

SEVERITIES = ("info", "warning", "error")
TOPICS = ("scheduler", "queue", "placement", "devices", "environment", "containers", "storage",
          "profiling")


@dataclass(frozen=True)
class Finding:
    line: int
    rule: str
    name: str
    severity: str
    message: str
    fix: str
    source: str

    def format(self, path: str) -> str:
        return (f"{path}:{self.line}: {self.rule} {self.name} ({self.severity}): {self.message} "
                f"(fix: {self.fix})")

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "rule": self.rule, "name": self.name,
                "severity": self.severity, "message": self.message, "fix": self.fix,
                "source": self.source}


@dataclass(frozen=True)
class Hit:
    """One problem a check found: where, what, and (when it differs from the rule's) the fix
    and the source of the fact it was held against."""

    line: int
    message: str
    fix: str | None = None
    source: str | None = None
    # Lower than the rule's where the profile's facts say the job copes (a rule declares the
    # severities it may lower to, `lowers_to`).
    severity: str | None = None


Check = Callable[[Any], Iterable[Hit]]  # takes a context.Context
Facts = Callable[[Profile], list[str]]


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    topic: str
    severity: str
    scope: str  # which scripts it applies to, in words
    source: str  # the documentation that says so
    fix: str
    summary: str  # one line: what it catches
    check: Check
    facts: Facts | None = None  # the profile facts it reads, for `lint --explain`
    lowers_to: tuple[str, ...] = ()  # severities a hit may have instead, and when (`lowered`)
    lowered: str = ""

    def run(self, ctx: Any) -> list[Finding]:
        out = []
        for h in self.check(ctx):
            severity = h.severity or self.severity
            assert severity == self.severity or severity in self.lowers_to, (self.id, severity)
            out.append(Finding(h.line, self.id, self.name, severity, h.message,
                               h.fix or self.fix, h.source or self.source))
        return out


RULES: dict[str, Rule] = {}


def rule(rule_id: str, name: str, *, topic: str, severity: str, scope: str, source: str,
         fix: str, summary: str, facts: Facts | None = None,
         lowers_to: tuple[str, ...] = (), lowered: str = "") -> Callable[[Check], Check]:
    """Register a check as a rule; the decorated function stays callable as it was. A rule
    whose hits may be less severe names those severities (`lowers_to`) and when (`lowered`)."""
    assert topic in TOPICS and severity in SEVERITIES and rule_id not in RULES, rule_id
    assert all(SEVERITIES.index(s) < SEVERITIES.index(severity) for s in lowers_to), rule_id
    assert bool(lowers_to) == bool(lowered), rule_id

    def register(check: Check) -> Check:
        RULES[rule_id] = Rule(rule_id, name, topic, severity, scope, source, fix, summary,
                              check, facts, lowers_to, lowered)
        return check

    return register


# ---------------------------------------------------------------- numbers read from text
_COUNT = re.compile(r"[0-9]{1,9}")


def as_int(value: str | None) -> int | None:
    """A count or index as written, or None when it is not a plain number of sane size."""
    return int(value) if value is not None and _COUNT.fullmatch(value) else None


def distance(a: str, b: str, limit: int = 2) -> int:
    """Levenshtein distance, stopping once it exceeds `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
        if min(row) > limit:
            return limit + 1
    return row[-1]
