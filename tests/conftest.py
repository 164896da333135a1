"""Every test runs against the bundled profiles only, with a private cache."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def isolated_jobgen(tmp_path_factory, monkeypatch):
    """No user profiles, a private cache: tests see the bundled profiles only."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("JOBGEN_CACHE_DIR", str(home / "cache"))
    monkeypatch.delenv("JOBGEN_PROFILE_PATH", raising=False)
    monkeypatch.delenv("JOBGEN_NO_CACHE", raising=False)
    yield home
