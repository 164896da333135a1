"""Agreement of the two blind passes on heldout-2026-11-29t, part summit (SUFFIX summit):
heldout_agreement.site_part (the part and the site, again with pass A's /gpfs/alpine labels set
aside, the settled differences and counts of labels-summit.yaml, each pass's recall of them).
Reads only the index, blind, disagreement and label files; reads no lint code, runs no lint:
`python3 tests/lint_users/heldout-2026-11-29t/agreement-summit.py`."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from heldout_agreement import site_part  # noqa: E402

HERE = Path(__file__).resolve().parent

if __name__ == "__main__":
    sys.exit(site_part(HERE, "summit", split=True))
