"""Figures of `jobgen lint` on this held-out set: tests/lint_users/heldout_measure.py.

    python3 tests/lint_users/heldout-2026-11-29t/measure.py
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from heldout_measure import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(HERE))
