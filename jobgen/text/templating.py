"""Templates without importing Jinja2 on a warm render: Jinja2's own compiled code, kept.

Jinja2 turns each template into Python source that calls a small runtime: a context holding
the variables and blocks, `getattr` that yields Undefined, the filters and `finalize`.
Importing Jinja2 costs more than planning and rendering a job, so the first render compiles
every template with Jinja2 (same settings, same filters) and keeps the code objects in the
cache, keyed by the templates' bytes and the Jinja2 and Python versions. Later renders run
that code against `_Environment` below, which implements exactly what the generated code
calls. Code that needs more (loop variables, macros, a filter or test this runtime lacks) is
never kept, and anything unexpected at run time (an undefined value) renders through Jinja2
itself, so output and errors are Jinja2's.
"""

from __future__ import annotations

import marshal
import sys
from collections.abc import Callable
from pathlib import Path

from .. import cache

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:
    from typing import Any

# What the generated code may use beyond this runtime: such code is left to Jinja2.
_UNSUPPORTED = ("LoopContext(", "Macro(", "Markup(", "Namespace(", "TemplateReference(",
                "escape(", "markup_join(", "context.call(", "context.eval_ctx",
                "environment.call", "environment.sandboxed", "await ")
_IMPORT_LINE = "from jinja2.runtime import "


class Fallback(Exception):
    """Something only Jinja2 can do or say: render this template through Jinja2."""


class _Missing:
    def __repr__(self) -> str:
        return "missing"


MISSING = _Missing()


class _Undefined:
    """StrictUndefined's strictness: any use means Jinja2 should report it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def _fail(self, *args: Any, **kwargs: Any) -> Any:
        raise Fallback("undefined value")

    __str__ = __iter__ = __bool__ = __len__ = __eq__ = __getattr__ = __call__ = _fail
    __add__ = __radd__ = __getitem__ = __contains__ = __int__ = _fail
    __hash__ = None  # type: ignore[assignment]


def _identity(x: Any) -> Any:
    return x


def _str_join(seq: Any) -> str:
    return "".join(map(str, seq))


class _Context:
    def __init__(self, variables: dict[str, Any], blocks: dict[str, Callable[..., Any]]):
        self.vars = variables
        self.blocks = {name: [fn] for name, fn in blocks.items()}

    def resolve_or_missing(self, key: str) -> Any:
        return self.vars.get(key, MISSING)

    def get_all(self) -> dict[str, Any]:
        return dict(self.vars)


class _Template:
    def __init__(self, namespace: dict[str, Any]) -> None:
        self.root_render_func = namespace["root"]
        self.blocks = namespace["blocks"]

    def new_context(self, variables: dict[str, Any], shared: bool = False,
                    local: dict[str, Any] | None = None) -> _Context:
        return _Context({**variables, **(local or {})}, self.blocks)

    def render(self, **variables: Any) -> str:
        return "".join(self.root_render_func(self.new_context(variables)))


class _Environment:
    """The part of jinja2.Environment that compiled templates call."""

    undefined = _Undefined
    concat = staticmethod("".join)

    def __init__(self, codes: dict[str, Any], filters: dict[str, Callable[..., Any]],
                 tests: dict[str, Callable[..., Any]], finalize: Callable[[Any], Any]) -> None:
        self.codes = codes
        self.filters = filters
        self.tests = tests
        self.finalize = finalize
        self.templates: dict[str, _Template] = {}

    def getattr(self, obj: Any, attribute: str) -> Any:
        try:
            return getattr(obj, attribute)
        except AttributeError:
            pass
        try:
            return obj[attribute]
        except (TypeError, LookupError, AttributeError):
            return _Undefined()

    def getitem(self, obj: Any, argument: Any) -> Any:
        try:
            return obj[argument]
        except (AttributeError, TypeError, LookupError):
            if isinstance(argument, str):
                try:
                    return getattr(obj, argument)
                except AttributeError:
                    pass
            return _Undefined()

    def get_template(self, name: str, parent: str | None = None) -> _Template:
        if name not in self.templates:
            if name not in self.codes:
                raise Fallback(f"no compiled code for {name}")
            namespace = {
                "environment": self, "missing": MISSING, "Undefined": _Undefined,
                "TemplateRuntimeError": Fallback, "TemplateNotFound": Fallback,
                "identity": _identity, "internalcode": _identity, "str_join": _str_join,
                **{n: None for n in ("LoopContext", "Macro", "Markup", "Namespace",
                                     "TemplateReference", "escape", "markup_join")},
            }
            exec(self.codes[name], namespace)  # noqa: S102 (code Jinja2 compiled, see _key)
            self.templates[name] = _Template(namespace)
        return self.templates[name]


# ---------------------------------------------------------------- the kept code
def _key(directory: Path, names: list[str]) -> str:
    """Templates' names and bytes, the filter and test names the code looks up, Jinja2's and
    Python's versions: any change, new code."""
    parts = [sys.version.encode(), _jinja_stamp(), " ".join(sorted(names)).encode()]
    for path in sorted(directory.glob("*.j2")):
        parts += [path.name.encode(), path.read_bytes()]
    return cache.sha256(b"\0".join(parts))


def _jinja_stamp() -> bytes:
    """Jinja2's __init__.py (it holds __version__), read rather than imported."""
    import importlib.util

    spec = importlib.util.find_spec("jinja2")
    try:
        return Path(spec.origin).read_bytes() if spec and spec.origin else b"no jinja2"
    except OSError:
        return b"unreadable jinja2"


def _compile_all(env: Any, directory: Path, filters: dict[str, Any],
                 tests: dict[str, Any]) -> dict[str, Any] | None:
    """Every template's code compiled by Jinja2, or None if one needs what we lack."""
    codes = {}
    for path in sorted(directory.glob("*.j2")):
        source = env.compile(path.read_text(encoding="utf-8"), path.name, path.name, raw=True)
        lines = source.split("\n")
        if not lines[0].startswith(_IMPORT_LINE) or any(u in source for u in _UNSUPPORTED):
            return None
        used_filters = {x.split("'")[1] for x in source.split("environment.filters[")[1:]}
        used_tests = {x.split("'")[1] for x in source.split("environment.tests[")[1:]}
        if not used_filters <= set(filters) or not used_tests <= set(tests):
            return None
        codes[path.name] = compile("\n".join(lines[1:]), path.name, "exec")
    return codes


def compiled_environment(directory: Path, jinja_env: Callable[[], Any],
                         filters: dict[str, Any], tests: dict[str, Any],
                         finalize: Callable[[Any], Any]) -> _Environment | None:
    """The kept code as an environment; compiles (with Jinja2) and keeps it on a miss."""
    key = _key(directory, [*filters, *tests])
    name = f"templates-{key[:32]}-{sys.implementation.cache_tag}.marshal"
    blob = cache.read_bytes(name)
    codes = None
    if blob is not None:
        try:
            codes = marshal.loads(blob)
        except (EOFError, ValueError, TypeError):
            codes = None
    if not isinstance(codes, dict):
        codes = _compile_all(jinja_env(), directory, filters, tests)
        if codes is None:
            return None
        cache.write_bytes(name, marshal.dumps(codes))
    return _Environment(codes, filters, tests, finalize)
