"""What a control character is, and how one is shown: the one definition that the escaping
layer (jobgen.shell) and the one-line error messages (jobgen.errors) both use, so neither
imports the other."""

from __future__ import annotations

import re

# Characters that end or split a line for bash, for line-based tools (str.splitlines) or for
# a terminal: C0 controls, DEL, C1 controls, and Unicode's line and paragraph separators.
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def visible(text: object) -> str:
    """`text` on one line: every control character shown as its escape (\\n, \\x1b, ...)."""
    return CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode(), str(text))
