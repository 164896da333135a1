"""Bundled workload manifests, read without importing torch (or the workloads package)."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

from .. import cache
from ..errors import JobgenError
from ..frozen import Frozen

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

REQUIRED = ("name", "description", "module", "frameworks", "model", "default_batch_size")


class App(Frozen):
    name: str
    description: str
    module: str
    frameworks: tuple[str, ...]
    model: str
    default_batch_size: int
    default_args: tuple[str, ...]
    sizes: tuple[tuple[str, str], ...]
    path: Path
    # device class -> the manifest's tuned configuration (a mapping) or why there is none
    tuned: dict[str, Any]

    @property
    def package_dir(self) -> Path:
        """The installed `workloads` package this manifest belongs to."""
        return self.path.parent.parent


def workloads_dir() -> Path | None:
    """The `workloads` package jobgen would import, found without importing it (or torch)."""
    spec = importlib.util.find_spec("workloads")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def app_names() -> list[str]:
    root = workloads_dir()
    if root is None:
        return []
    return sorted(p.parent.name for p in root.glob("*/manifest.yaml"))


def load_app(name: str) -> App:
    names = app_names()
    if name not in names:
        import difflib

        close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
        hint = f" Did you mean {', '.join(close)}?" if close else ""
        known = ", ".join(names) or "none (is the workloads package installed?)"
        raise JobgenError(
            f"unknown app {name!r}.{hint} Bundled apps: {known}; "
            "or launch your own program after `--`."
        )
    root = workloads_dir()
    assert root is not None
    path = root / name / "manifest.yaml"
    raw = path.read_bytes()
    entry = f"app-{name}-{cache.sha256(raw)[:32]}.json"
    cached = cache.read(entry)
    if cached is not None:
        try:
            return _app(cached, path)
        except JobgenError:
            pass  # a damaged entry: read the manifest again
    from ..profiles.yamlload import load

    data = load(raw.decode("utf-8"))
    app = _app(data, path)
    cache.write(entry, data)
    return app


def _app(data: object, path: Path) -> App:
    """The manifest's fields checked and typed, from the YAML or from the cache alike."""
    if not isinstance(data, dict):
        raise JobgenError(f"{path}: a manifest is a mapping of keys to values")
    missing = [k for k in REQUIRED if k not in data]
    if missing:
        raise JobgenError(f"{path}: manifest lacks {', '.join(missing)}")
    sizes = data.get("sizes") or {}
    try:
        fields = dict(
            name=_text(data["name"]), description=_text(data["description"]),
            module=_text(data["module"]), frameworks=_texts(data["frameworks"]),
            model=_text(data["model"]), default_batch_size=_count(data["default_batch_size"]),
            default_args=_texts(data.get("default_args") or []),
            sizes=tuple((_text(k), _text(v)) for k, v in sizes.items()),
            tuned=_tuned(data.get("tuned") or {}),
        )
    except (TypeError, AttributeError) as exc:
        raise JobgenError(f"{path}: {exc}") from None
    return App(**fields, path=path)


def _tuned(value: object) -> dict[str, Any]:
    """device class -> a measured configuration (a mapping) or the reason there is none."""
    if not isinstance(value, dict):
        raise TypeError(f"tuned: {value!r} is not a mapping of device classes")
    for cls, entry in value.items():
        if not isinstance(entry, dict | str):
            raise TypeError(f"tuned.{cls}: {entry!r} is neither a configuration nor a reason")
        if isinstance(entry, dict):
            missing = [k for k in ("measured_on", "precision") if k not in entry]
            if missing:
                raise TypeError(f"tuned.{cls} lacks {', '.join(missing)}")
    return dict(value)


def _text(value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise TypeError(f"{value!r} is not text")
    return str(value)


def _texts(value: object) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise TypeError(f"{value!r} is not a list")
    return tuple(_text(v) for v in value)


def _count(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise TypeError(f"{value!r} is not a positive whole number")
    return value


def check_app_args(app: App, argv: Sequence[str], framework: str = "pytorch") -> Any:
    """The app's arguments parsed by its own parser (workloads.runtime.cli, framework-free)
    for the framework's version: the namespace, or a one-line JobgenError naming what the app
    would refuse."""
    cli = importlib.import_module("workloads.runtime.cli")
    namespace, error = cli.check_args(app.name, argv, framework,
                                      configs=[name for name, _ in app.sizes] or None)
    if error is not None:
        raise JobgenError(f"--app-args: {app.name} would refuse its arguments: {error} "
                          f"(see python -m {app.module} --help)")
    return namespace
