"""Agreement of the two blind passes on heldout-2026-11-29u, part alcf: tests/lint_users/
heldout_agreement.py main(HERE, ("polaris", "aurora", "sunspot"), "alcf"). Reads only the blind
files and disagreements-alcf.yaml; reads no lint code and runs no lint."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from heldout_agreement import main  # noqa: E402

HERE = Path(__file__).resolve().parent

if __name__ == "__main__":
    sys.exit(main(HERE, ("polaris", "aurora", "sunspot"), "alcf"))
