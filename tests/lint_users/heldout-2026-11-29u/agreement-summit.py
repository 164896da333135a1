"""Agreement of the two blind passes on heldout-2026-11-29u, part summit (SUFFIX summit):
heldout_agreement.site_part, as heldout-2026-11-29t/agreement-summit.py. Reads no lint code,
runs no lint: `python3 tests/lint_users/heldout-2026-11-29u/agreement-summit.py`."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from heldout_agreement import site_part  # noqa: E402

HERE = Path(__file__).resolve().parent
SUFFIXES = ("summit",)
PART = "summit"

if __name__ == "__main__":
    sys.exit(site_part(HERE, PART, split=True))
