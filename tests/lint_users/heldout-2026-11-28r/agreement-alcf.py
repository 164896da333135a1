"""Agreement of the two blind passes on heldout-2026-11-28r, part alcf (SUFFIX alcf: Polaris,
Aurora, one Sunspot script): tests/lint_users/heldout_agreement.py main(HERE, ("alcf",), "alcf").
Reads only the blind files, disagreements-alcf.yaml (and the labels); reads no lint code and runs
no lint: `python3 tests/lint_users/heldout-2026-11-28r/agreement-alcf.py`."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from heldout_agreement import main  # noqa: E402

HERE = Path(__file__).resolve().parent

if __name__ == "__main__":
    sys.exit(main(HERE, ("alcf",), "alcf"))
