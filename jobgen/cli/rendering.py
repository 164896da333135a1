"""`jobgen render` after either parser (main.py's fast path, Typer in commands.py): plan and
render the request, warnings to stderr, the script to stdout or to --out."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:
    from typing import Any

# Arguments after a bare `--` are the user's own program; main() takes them off argv before
# any parsing, so a mistyped option is still an error instead of part of the command.
COMMAND: list[str] = []


def script_for(options: dict[str, Any]) -> str:
    """Plan and render the request the options describe; warnings go to stderr."""
    from ..plan.build import build_plan
    from ..profiles.load import load_profile
    from ..request.parse import cli_request
    from ..text.render import render

    req = cli_request(options, COMMAND)
    plan = build_plan(load_profile(req.site, light=True), req)
    text = render(plan)
    for note in plan.notes:
        print(f"jobgen: note: {note}", file=sys.stderr)
    if plan.bill is not None:
        print(f"jobgen: note: bill: {plan.bill.line}", file=sys.stderr)
    for warning in plan.warnings:
        print(f"jobgen: warning: {warning}", file=sys.stderr)
    return text


def render_command(options: dict[str, Any]) -> None:
    """`jobgen render` after either parser: the script to stdout, or to --out, whose name is
    checked before any work and which gets the whole script or nothing (output.py)."""
    out, force = options.pop("out", None), options.pop("force", False)
    if out is not None:
        from .output import check_target

        check_target(out, force)
    text = script_for(options)
    if out is None:
        sys.stdout.write(text)
        return
    from .output import write_script

    write_script(out, text, force)
