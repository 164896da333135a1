"""Agreement of the two blind passes on heldout-2026-11-28p, ALCF part (Polaris: SUFFIX polaris;
Aurora: SUFFIX aurora; no Sunspot script): tests/lint_users/heldout_agreement.py. Reads only
the blind files and disagreements-alcf.yaml; reads no lint code and runs no lint:
`python3 tests/lint_users/heldout-2026-11-28p/agreement-alcf.py`."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from heldout_agreement import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(HERE, ("polaris", "aurora"), "alcf"))
