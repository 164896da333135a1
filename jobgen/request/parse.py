"""One way from command-line options to a `Request`, for every command that plans a job.

`render`, `explain`, `diff` and `verify` take the same options; the CLI copies `render`'s
option definitions onto the others, and this module maps the parsed values onto `Request`
fields by name, so an option added to `render` reaches the others without a second copy.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from enum import Enum

from ..errors import JobgenError
from ..frozen import field_names, replace
from ..plan.build import Request
from ..profiles.load import LoadedProfile
from ..shell import split

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:
    from typing import Any

# CLI parameter names that differ from the Request field they fill.
RENAMED = {"app_name": "app", "copper_path": "copper_paths"}
PLACEHOLDER_ACCOUNT = "PROJECT"
PLACEHOLDER_COMMAND = ("python3", "train.py")


def request_fields() -> set[str]:
    return set(field_names(Request))


def request_from_options(options: dict[str, Any], command: Sequence[str] = ()) -> Request:
    """Build a Request from parsed CLI values (Enums to their value, lists to tuples)."""
    known = request_fields()
    kwargs: dict[str, Any] = {}
    for name, value in options.items():
        key = RENAMED.get(name, name)
        if key not in known or value is None:
            continue
        if isinstance(value, Enum):
            value = value.value
        elif isinstance(value, list):
            value = tuple(value)
        kwargs[key] = value
    if command:
        kwargs["command"] = tuple(command)
    if kwargs.get("site") is None:
        from .defaults import default_site

        kwargs["site"] = default_site()
    return Request(**kwargs)


def cli_request(options: dict[str, Any], command: Sequence[str] = ()) -> Request:
    """render and explain: the options, then the user's defaults for what they leave unset."""
    from .defaults import with_defaults

    return with_defaults(request_from_options(options, command))


def with_placeholders(req: Request, loaded: LoadedProfile) -> tuple[Request, list[str]]:
    """explain and diff look at a site without a project or a program: fill in stand-ins."""
    notes = []
    changes: dict[str, Any] = {}
    if req.account is None and loaded.profile.scheduler.account_required:
        changes["account"] = PLACEHOLDER_ACCOUNT
        notes.append(f"no -A/--account given: shown with the placeholder {PLACEHOLDER_ACCOUNT}")
    if not req.app and not req.command:
        changes["command"] = PLACEHOLDER_COMMAND
        notes.append("no --app or program after `--`: shown with the placeholder "
                     f"`{shlex.join(PLACEHOLDER_COMMAND)}`")
    return replace(req, **changes), notes


def request_from_command_line(line: str) -> Request:
    """`jobgen render --site X ...` (a script's Regenerate header) -> the Request it made."""
    try:
        words = split(line)
    except ValueError as exc:
        raise JobgenError(f"cannot read the Regenerate line {line!r}: {exc}") from None
    if words[:2] != ["jobgen", "render"]:
        raise JobgenError(f"the Regenerate line is not a `jobgen render` command: {line!r}")
    args = words[2:]
    command: list[str] = []
    if "--" in args:
        cut = args.index("--")
        args, command = args[:cut], args[cut + 1:]
    from .options import parse_render_args

    try:
        options = parse_render_args(list(args))
    except ValueError as exc:
        raise JobgenError(f"the Regenerate line has options this jobgen does not know: {exc}"
                          ) from None
    options = {k: v for k, v in options.items() if k not in ("out", "force")}
    return request_from_options(options, command)
