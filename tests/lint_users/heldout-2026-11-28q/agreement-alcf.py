# ruff: noqa: E501
"""Agreement of the two blind passes on heldout-2026-11-28q, ALCF part (SUFFIXES polaris, aurora, sunspot):
/work/main/tests/lint_users/heldout_agreement.py. Reads only the blind files and disagreements-alcf.yaml;
reads no lint code and runs no lint: `python3 /work/heldq/heldout-2026-11-28q/agreement-alcf.py`."""

import sys
from pathlib import Path

HERE = Path("/work/heldq/heldout-2026-11-28q")
sys.path.insert(0, "/work/main/tests/lint_users")

from heldout_agreement import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(HERE, ("polaris", "aurora", "sunspot"), "alcf"))
