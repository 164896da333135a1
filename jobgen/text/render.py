"""Plan -> script text through the Jinja2 templates (one per scheduler dialect).

Every value reaches the text through one of `shell`'s context filters, and the environment's
`finalize` refuses any other (see jobgen/shell.py). After rendering, the script's structure is
checked against the plan: exactly the planned directives, and one heredoc terminator per
heredoc, so no value can add a directive or a line of code even if a filter were missing.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import JobgenError
from ..plan.build import Plan
from ..profiles.cpus import format_cpu_list
from ..shell import NAME, Safe, comment, directive, join, line, quote

TEMPLATE_FOR = {
    "pbs": "pbs.sh.j2",
    "slurm": "slurm.sh.j2",
    "lsf": "lsf.sh.j2",
    "cobalt": "cobalt.sh.j2",
    "none": "bash.sh.j2",
}
HEREDOC_END = "JOBGEN_EOF"


def templates_dir() -> Path:
    here = Path(__file__).resolve().parent.parent  # jobgen/
    installed = here / "templates"
    return installed if installed.is_dir() else here.parent / "templates"


def _name(value: str) -> Safe:
    """A variable name written bare (export NAME=..., ${NAME:?...})."""
    if not NAME.fullmatch(value):
        raise JobgenError(f"refusing to write {value!r} as a shell variable name")
    return Safe(value)


_ENV = None


def environment():
    global _ENV
    if _ENV is None:
        import jinja2

        from ..cache import bytecode_cache
        from ..shell import checked_output

        _ENV = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(templates_dir())),
            undefined=jinja2.StrictUndefined,
            keep_trailing_newline=True,
            trim_blocks=True,
            lstrip_blocks=True,
            autoescape=False,
            bytecode_cache=bytecode_cache(),  # private, tolerant of damage
            finalize=checked_output,
        )
        _ENV.filters.update(FILTERS)
    return _ENV


FILTERS = dict(sh=quote, shjoin=join, comment=comment, line=line, directive=directive,
               name=_name, cpus=format_cpu_list)
TESTS = {"none": lambda value: value is None}
_COMPILED: list = []


def compiled():
    """The templates as kept Python code (jobgen.text.templating), None without a cache."""
    if not _COMPILED:
        from ..cache import cache_dir
        from ..shell import checked_output
        from .templating import compiled_environment

        _COMPILED.append(None if cache_dir() is None else compiled_environment(
            templates_dir(), environment, FILTERS, TESTS, checked_output))
    return _COMPILED[0]


def check_structure(plan: Plan, text: str) -> None:
    """The script has exactly the planned directives and whole heredocs (defence in depth)."""
    lines = text.split("\n")
    prefix = plan.directive_prefix
    if prefix:
        written = [s for s in lines if s.startswith(prefix)]
        planned = [d.text for d in plan.directives]
        if written != planned:
            extra = [s for s in written if s not in planned]
            raise JobgenError(f"refusing to write a script whose directives differ from the "
                              f"plan: {extra[:1] or written[:1]!r}")
    opened = sum(s.endswith(f"<<'{HEREDOC_END}'") for s in lines)
    if lines.count(HEREDOC_END) != opened:
        raise JobgenError("refusing to write a script whose heredoc a value could end early")


def render(plan: Plan) -> str:
    """The script: through the kept compiled templates when there are some, else Jinja2."""
    from .templating import Fallback

    name = TEMPLATE_FOR[plan.dialect]
    text = None
    fast = compiled()
    if fast is not None:
        try:
            text = fast.get_template(name).render(plan=plan)
        except Fallback:
            text = None
    if text is None:
        text = environment().get_template(name).render(plan=plan)
    check_structure(plan, text)
    return text
