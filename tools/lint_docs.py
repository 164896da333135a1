"""Write docs/lint.md from the lint rule table: python tools/lint_docs.py"""

from __future__ import annotations

from pathlib import Path

from jobgen.review.lint.docs import markdown

if __name__ == "__main__":
    path = Path(__file__).resolve().parents[1] / "docs" / "lint.md"
    path.write_text(markdown())
    print(f"wrote {path}")
