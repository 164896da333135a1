"""Plan -> script text through the Jinja2 templates (one per scheduler dialect)."""

from __future__ import annotations

from pathlib import Path

from .cpus import format_cpu_list
from .plan import Plan
from .shell import join, quote

TEMPLATE_FOR = {
    "pbs": "pbs.sh.j2",
    "slurm": "slurm.sh.j2",
    "lsf": "lsf.sh.j2",
    "cobalt": "cobalt.sh.j2",
    "none": "bash.sh.j2",
}


def templates_dir() -> Path:
    here = Path(__file__).resolve().parent
    installed = here / "templates"
    return installed if installed.is_dir() else here.parent / "templates"


_ENV = None


def environment():
    global _ENV
    if _ENV is None:
        import jinja2

        from .cache import cache_dir

        cache = None
        directory = cache_dir()
        if directory is not None:
            try:
                (directory / "templates").mkdir(parents=True, exist_ok=True)
                cache = jinja2.FileSystemBytecodeCache(str(directory / "templates"))
            except OSError:
                cache = None
        _ENV = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(templates_dir())),
            undefined=jinja2.StrictUndefined,
            keep_trailing_newline=True,
            trim_blocks=True,
            lstrip_blocks=True,
            autoescape=False,
            bytecode_cache=cache,
        )
        _ENV.filters["sh"] = quote
        _ENV.filters["shjoin"] = join
        _ENV.filters["cpus"] = format_cpu_list
    return _ENV


def render(plan: Plan) -> str:
    text = environment().get_template(TEMPLATE_FOR[plan.dialect]).render(plan=plan)
    return text
