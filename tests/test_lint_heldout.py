"""The held-out sets of users' scripts (tests/lint_users/heldout-*/): every warning/error finding
lint gives there is judged in the set's labels.yaml (measure.py exits 1 on an unjudged one), so
a lint change that adds findings there is judged before it lands. The figures are in each set's
README (measured blind first; the later figures are after tuning and say so)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SETS = sorted(p.parent for p in (Path(__file__).parent / "lint_users").glob("heldout-*/measure.py"))


@pytest.mark.parametrize("folder", SETS, ids=[p.name for p in SETS])
def test_every_finding_on_the_held_out_set_is_judged(folder):
    r = subprocess.run([sys.executable, str(folder / "measure.py")], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "unjudged finding" not in r.stdout
