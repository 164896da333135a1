"""The `jobgen` entry point: a fast path for plain `render` lines, Typer for everything else.

Importing and building the Typer app costs more than planning and rendering a job, so a
`jobgen render` whose options `argspec.fast_parse` understands never touches Typer. Both
paths share `script_for` and the error handling here, so they print the same script and the
same one-line errors; whatever the fast parser is unsure of goes to Typer.
"""

from __future__ import annotations

import os
import sys

from .errors import JobgenError

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:
    from typing import Any

# Arguments after a bare `--` are the user's own program; main() takes them off argv before
# any parsing, so a mistyped option is still an error instead of part of the command.
COMMAND: list[str] = []


def script_for(options: dict[str, Any]) -> str:
    """Plan and render the request the options describe; warnings go to stderr."""
    from .plan import build_plan
    from .profiles import load_profile
    from .render import render
    from .requestopts import cli_request

    req = cli_request(options, COMMAND)
    plan = build_plan(load_profile(req.site, light=True), req)
    text = render(plan)
    for note in plan.notes:
        print(f"jobgen: note: {note}", file=sys.stderr)
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


def _fast_render(args: list[str]) -> bool:
    """Render without Typer when the command line is plain; False when Typer must parse it."""
    if not args or args[0] != "render" or "_JOBGEN_COMPLETE" in os.environ:
        return False
    from .argspec import fast_parse

    options = fast_parse(args[1:])
    if options is None:
        return False
    render_command(options)
    return True


def _usage_line(exc: Any) -> str:
    """A click usage error as one line that names the option and where to read more."""
    message = " ".join(exc.format_message().split()).rstrip(".")
    ctx = getattr(exc, "ctx", None)
    where = ctx.command_path if ctx is not None else "jobgen"
    param = getattr(exc, "param", None)
    if type(exc).__name__ == "MissingParameter" and param is not None and param.name:
        if getattr(param, "param_type_name", "") == "option":
            message += f": add {param.opts[0]} {param.name.upper()}"
        else:
            message += f": give the {param.name.upper()}"
    return f"{message} (see `{where} -h`)"


def _typer(args: list[str]) -> int:
    from .cli import app, click_errors

    usage_error, click_exception = click_errors()
    try:
        rc = app(args=args, prog_name="jobgen", standalone_mode=False)
    except usage_error as exc:
        print(f"jobgen: error: {_usage_line(exc)}", file=sys.stderr)
        return 2
    except click_exception as exc:
        print(f"jobgen: error: {' '.join(exc.format_message().split())}", file=sys.stderr)
        return exc.exit_code
    return rc if isinstance(rc, int) else 0


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if "--" in args:
        cut = args.index("--")
        COMMAND[:] = args[cut + 1 :]
        args = args[:cut]
        if not COMMAND:
            print("jobgen: error: nothing after `--`: give the program to launch",
                  file=sys.stderr)
            sys.exit(2)
    try:
        if _fast_render(args):
            return
        sys.exit(_typer(args))
    except JobgenError as exc:
        print(f"jobgen: error: {exc}", file=sys.stderr)
        sys.exit(exc.exit_code)
