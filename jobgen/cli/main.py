"""The `jobgen` entry point: a fast path for plain `render` lines, Typer for everything else.

Importing and building the Typer app costs more than planning and rendering a job, so a
`jobgen render` whose options `request.options.fast_parse` understands never touches Typer.
Both paths share `rendering.render_command` and the error handling here, so they print the
same script and the same one-line errors; whatever the fast parser is unsure of goes to Typer.
"""

from __future__ import annotations

import os
import sys

from ..errors import JobgenError, one_line
from .rendering import COMMAND, render_command

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:
    from typing import Any

def _fast_render(args: list[str]) -> bool:
    """Render without Typer when the command line is plain; False when Typer must parse it."""
    if not args or args[0] != "render" or "_JOBGEN_COMPLETE" in os.environ:
        return False
    from ..request.options import fast_parse

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


_PROGRAMS = ("python", "python3", "torchrun", "bash", "sh", "./")
# the commands that launch a program given after `--` (render's request)
_TAKE_PROGRAM = ("render", "explain", "diff", "sweep")
_SCRIPT_SUFFIXES = (".sh", ".pbs", ".slurm", ".sbatch", ".cobalt", ".lsf", ".qsub", ".job")


def _hint(args: list[str], exc: Any) -> str:
    """What the user probably meant, for the usual slips: a site given without --site, a
    script given to explain, and a program given without `--` before it. Every hint is a
    command that works as written (tests/test_hints.py runs each)."""
    import re
    import shlex

    text = " ".join(exc.format_message().split())
    ctx = getattr(exc, "ctx", None)
    command = ctx.info_name if ctx is not None and ctx.info_name else (
        args[0] if args else "render")
    options = {o for p in (ctx.command.params if ctx is not None else ())
               for o in getattr(p, "opts", ())}
    found = re.search(r"unexpected extra argument(?:\(s\)|s)? \((.*)\)$", text)
    if found:
        extra = found.group(1).split()
        from ..profiles.load import site_names

        if extra and extra[0] in site_names():
            if "--site" in options:
                return f"; to name the site, write --site {extra[0]}"
            return f"; one site's profile: jobgen show {extra[0]}"
        if extra and command == "explain" and (
                extra[0].endswith(_SCRIPT_SUFFIXES) or os.path.isfile(extra[0])):
            if not os.path.isfile(extra[0]):
                return "; explain takes render's options (see above), not a script"
            return _explain_script_hint(extra[0])
    elif type(exc).__name__ == "NoSuchOption":
        first = [i for i, w in enumerate(args) if i and (w.endswith(".py")
                                                         or w.startswith(_PROGRAMS))]
        extra = args[first[0]:] if first else []  # the program and its own options
    else:
        return ""
    if not extra or command not in _TAKE_PROGRAM:
        return ""
    shown = shlex.join(extra[:3]) + (" ..." if len(extra) > 3 else "")
    return f"; a program to launch goes after `--`: jobgen {command} [OPTIONS] -- {shown}"


def _explain_script_hint(path: str) -> str:
    """explain takes render's options, not a script: the script's own header has them."""
    import shlex

    try:
        from ..review.scriptparse import parse_file

        regenerate = parse_file(path).header.regenerate
    except (JobgenError, OSError):
        regenerate = None
    if regenerate and regenerate.startswith("jobgen render "):
        again = "jobgen explain " + regenerate[len("jobgen render "):]
        return (f"; explain takes render's options, not a script: {again} explains this "
                f"one (its Regenerate line's options); jobgen lint {shlex.quote(path)} "
                "checks it against the site's rules")
    return (f"; explain takes render's options, not a script; jobgen lint "
            f"{shlex.quote(path)} --site SITE checks any script against a site's rules")


def _typer(args: list[str]) -> int:
    from .commands import app, click_errors

    usage_error, click_exception = click_errors()
    try:
        rc = app(args=args, prog_name="jobgen", standalone_mode=False)
    except usage_error as exc:  # one_line: a 200 KB value is clipped, escapes shown
        print(f"jobgen: error: {one_line(_usage_line(exc) + _hint(args, exc))}",
              file=sys.stderr)
        return 2
    except click_exception as exc:
        print(f"jobgen: error: {one_line(exc.format_message())}", file=sys.stderr)
        return exc.exit_code
    return rc if isinstance(rc, int) else 0


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    COMMAND[:] = []  # no program from an earlier call in this process (the tests' in-process CLI)
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
