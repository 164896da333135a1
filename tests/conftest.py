"""Every test runs against the bundled profiles only, with a private cache."""

from __future__ import annotations

import pytest
from slurm_cluster import SlurmCluster, ensure_node_names, missing_tools


@pytest.fixture(autouse=True)
def isolated_jobgen(tmp_path_factory, monkeypatch):
    """No user profiles, a private cache: tests see the bundled profiles only."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("JOBGEN_CACHE_DIR", str(home / "cache"))
    monkeypatch.delenv("JOBGEN_PROFILE_PATH", raising=False)
    monkeypatch.delenv("JOBGEN_NO_CACHE", raising=False)
    yield home


@pytest.fixture(scope="session")
def slurm(tmp_path_factory):
    """The real single-host Slurm (tests/slurm_cluster.py), started once for every test that
    submits to it, stopped at the end."""
    missing = missing_tools()
    if missing:
        pytest.skip(f"Slurm is not installed ({', '.join(missing)} missing; "
                    "apt-get install slurm-wlm; .ci/run does)")
    problem = ensure_node_names()
    if problem:
        pytest.skip(problem)
    cluster = SlurmCluster(tmp_path_factory.mktemp("slurm"))
    cluster.start()
    yield cluster
    cluster.stop()
