"""Helpers shared by the tests: paths and a real `jobgen` process runner."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROFILE_FIXTURES = ROOT / "tests" / "profiles"


def run_jobgen(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None,
               input: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real CLI in a fresh interpreter, as a user would."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "jobgen", *args], capture_output=True, text=True,
        env=full_env, cwd=cwd or ROOT, input=input, timeout=120,
    )
