"""Agreement of the two blind passes on heldout-2026-11-28q, ALCF part (SUFFIXES polaris, aurora,
sunspot): heldout_agreement.main. Reads only the blind files and disagreements-alcf.yaml; reads
no lint code and runs no lint: `python3 tests/lint_users/heldout-2026-11-28q/agreement-alcf.py`."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from heldout_agreement import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(HERE, ("polaris", "aurora", "sunspot"), "alcf"))
