"""The README and the documentation site: short, current, and promising only what runs."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from helpers import ROOT


def _readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_is_a_short_user_guide():
    assert len(_readme().splitlines()) <= 200


def test_readme_opens_with_the_two_commands_and_ci_runs_the_second_exactly():
    blocks = re.findall(r"```bash\n(.*?)\n```", _readme(), flags=re.S)
    first, second = blocks[0], blocks[1]
    assert "pip install" in first and "jobgen render --site local" in first
    # right for a CPU-only laptop: PyTorch's CPU wheel, not PyPI's CUDA build
    assert "--extra-index-url https://download.pytorch.org/whl/cpu" in first
    assert second == "tools/test-suite.sh"
    ci = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
          if line and not line.startswith(("#", "set ", "cd "))]
    assert ci == [second]


def test_every_markdown_link_in_the_readme_points_at_a_file():
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", _readme()):
        if "://" in target:
            continue
        assert (ROOT / target).exists(), target


@pytest.mark.slow
def test_generated_pages_are_current():
    res = subprocess.run([sys.executable, str(ROOT / "docs" / "generate.py"), "--check"],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert res.returncode == 0, res.stderr


def test_every_page_is_in_the_site_navigation():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    missing = sorted(p for p in pages if p not in nav)
    assert not missing, f"add to mkdocs.yml's nav: {missing}"


def test_no_citation_points_outside_the_project():
    """Users must be able to open every source jobgen cites: nothing under ../shared."""
    offenders = []
    for folder in ("jobgen", "workloads", "site_profiles", "templates", "docs"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in {".py", ".yaml", ".j2", ".md"} and path.is_file():
                text = path.read_text(encoding="utf-8", errors="replace")
                if re.search(r"(?<![\w/])(\.\./)?shared/(measurements|SITE_FACTS|TESTBED)", text):
                    offenders.append(path.relative_to(ROOT).as_posix())
    assert not offenders, offenders
