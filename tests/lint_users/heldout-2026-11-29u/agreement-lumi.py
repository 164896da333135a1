"""Agreement of the two blind passes on heldout-2026-11-29u, part lumi (SUFFIX lumi):
heldout_agreement.site_part (raw agreement and kappa for the part and the site, the settled
differences and labels-lumi.yaml counts, each pass's recall), as heldout-2026-11-29t/agreement-
lumi.py. site_part, not main(): main()'s groups are the ALCF part's (polaris, aurora, sunspot).
Reads no lint code, runs no lint: `python3 tests/lint_users/heldout-2026-11-29u/agreement-
lumi.py`."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from heldout_agreement import site_part  # noqa: E402

HERE = Path(__file__).resolve().parent
SUFFIXES = ("lumi",)
PART = "lumi"

if __name__ == "__main__":
    sys.exit(site_part(HERE, PART, aside="-none-"))
