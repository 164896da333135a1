"""Agreement of the two blind passes on heldout-2026-11-28p, PART lumi (SUFFIX lumi), with
tests/lint_users/heldout_agreement.py. Reads only blind-A-lumi.yaml, blind-B-lumi.yaml and
disagreements-lumi.yaml; runs no lint: `python3 agreement-lumi.py`."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from heldout_agreement import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(HERE, ("lumi",), "lumi"))
