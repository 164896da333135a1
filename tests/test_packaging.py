"""The wheel ships every package: the explicit list in pyproject.toml must be whole."""

from __future__ import annotations

import sys

import pytest
from helpers import ROOT

tomllib = pytest.importorskip("tomllib") if sys.version_info >= (3, 11) else None


@pytest.mark.skipif(tomllib is None, reason="tomllib needs Python 3.11")
def test_pyproject_lists_every_package():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(data["tool"]["setuptools"]["packages"])
    found = {"jobgen", "jobgen.site_profiles", "jobgen.templates"}
    for top in ("workloads", "jobgen"):
        found |= {
            ".".join(p.parent.relative_to(ROOT).parts)
            for p in (ROOT / top).rglob("__init__.py")
            if "__pycache__" not in p.parts
        }
    assert listed == found
