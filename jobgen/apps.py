"""Bundled workload manifests, read without importing torch (or the workloads package)."""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import cache
from .errors import JobgenError

REQUIRED = ("name", "description", "module", "frameworks", "model", "default_batch_size")


@dataclass(frozen=True)
class App:
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
    tuned: dict[str, Any] = field(default_factory=dict)

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
    data = cache.read(entry)
    if data is None:
        import yaml

        data = yaml.safe_load(raw.decode("utf-8"))
        cache.write(entry, data)
    missing = [k for k in REQUIRED if not isinstance(data, dict) or k not in data]
    if missing:
        raise JobgenError(f"{path}: manifest lacks {', '.join(missing)}")
    return App(
        name=str(data["name"]),
        description=str(data["description"]),
        module=str(data["module"]),
        frameworks=tuple(data["frameworks"]),
        model=str(data["model"]),
        default_batch_size=int(data["default_batch_size"]),
        default_args=tuple(str(a) for a in data.get("default_args") or ()),
        sizes=tuple((str(k), str(v)) for k, v in (data.get("sizes") or {}).items()),
        path=path,
        tuned=dict(data.get("tuned") or {}),
    )


def check_app_args(app: App, argv: Sequence[str]) -> Any:
    """The app's arguments parsed by its own parser (workloads.runtime.cli, torch-free):
    the namespace, or a one-line JobgenError naming what the app would refuse."""
    cli = importlib.import_module("workloads.runtime.cli")
    namespace, error = cli.check_args(app.name, argv)
    if error is not None:
        raise JobgenError(f"--app-args: {app.name} would refuse its arguments: {error} "
                          f"(see python -m {app.module} --help)")
    return namespace
