"""Portability-study training apps for jobgen (``python -m workloads.<app>``).

This package file deliberately imports nothing heavy (no torch, no numpy): ``jobgen apps`` and
other tools read the per-app ``manifest.yaml`` files without a deep-learning framework installed.
Importing ``workloads.<app>`` (or running it) does import torch.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["APPS", "manifest_path", "load_manifest"]

#: The apps shipped in this package, one sub-package each.
APPS: tuple[str, ...] = (
    "cosmictagger",
    "ffn",
    "anisosgs",
    "qcnn",
    "pointnet",
    "unet3d",
    "resnet50",
    "gpt",
)

_HERE = Path(__file__).resolve().parent


def manifest_path(app: str) -> Path:
    """Path of ``workloads/<app>/manifest.yaml``."""
    if app not in APPS:
        raise KeyError(f"unknown workload app {app!r}; known: {', '.join(APPS)}")
    return _HERE / app / "manifest.yaml"


def load_manifest(app: str) -> dict:
    """Parse one app's manifest (needs PyYAML, not torch)."""
    import yaml  # local import: keep `import workloads` dependency-free

    with manifest_path(app).open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    if not isinstance(data, dict):
        raise ValueError(f"{manifest_path(app)}: expected a mapping")
    return data
