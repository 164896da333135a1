"""`jobgen lint` on the users' corpus (tests/lint_users, issue 31): every finding judged in
labels.yaml, the figures (precision, recall, site detection; tools/lint_users.py) no lower than at
the last labelled commit (floor.yaml), and RESULTS.md current.

After a change to lint: `python3 tools/lint_users.py unlabelled` lists what to label, then
`python3 tools/lint_users.py results --write` rewrites RESULTS.md and floor.yaml."""

from __future__ import annotations

import importlib.util
import re
import sys

import pytest
import yaml
from helpers import ROOT

from jobgen.review.lint import RULES

_spec = importlib.util.spec_from_file_location("lint_users", ROOT / "tools" / "lint_users.py")
lint_users = importlib.util.module_from_spec(_spec)
sys.modules["lint_users"] = lint_users  # its dataclass looks its module up
_spec.loader.exec_module(lint_users)

CORPUS = lint_users.CORPUS
RELABEL = ("label it in tests/lint_users/labels.yaml: `python3 tools/lint_users.py unlabelled` "
           "prints the entries, then `python3 tools/lint_users.py results --write`")
pytestmark = pytest.mark.slow  # lints and site-detects 120 scripts: ~20 s of CPU


@pytest.fixture(scope="module")
def runs():
    return lint_users.run_lint()


@pytest.fixture(scope="module")
def labelled():
    return lint_users.labels()


def test_corpus_provenance_and_labels_cover_it(labelled):
    """Every script is stored, has its origin (repository, path, a 40-hex commit, a site lint
    has a profile for) and is labelled; every violation names its kind, source and rules, every
    judged finding a verdict and a reason."""
    index = lint_users.index()
    files = sorted(str(p.relative_to(CORPUS / "scripts"))
                   for p in (CORPUS / "scripts").rglob("*") if p.is_file())
    assert sorted(e["file"] for e in index) == files
    assert sorted(labelled) == files
    assert len(files) >= 120
    sources = set(re.findall(r"^#   ([A-Z][A-Z0-9-]+) ", (CORPUS / "labels.yaml").read_text(),
                             re.M))
    for e in index:
        assert e["site"] in lint_users.SITES and e["file"].startswith(e["site"] + "/")
        assert re.fullmatch(r"[0-9a-f]{40}", e["commit"]) and e["repo"].count("/") == 1
        lab = labelled[e["file"]]
        for v in lab["violations"]:
            assert v["kind"] in lint_users.KINDS and v["what"] and isinstance(v["rules"], list)
            assert set(v["rules"]) <= set(RULES), (e["file"], v["rules"])
            assert v["source"] in sources, (e["file"], v["source"])
        for x in lab["findings"]:
            assert x["true"] in (True, False, "unsure") and x["why"], (e["file"], x)
    for site in lint_users.SITES:
        assert sum(e["site"] == site for e in index) >= 20, site


def test_second_pass_and_disagreements_are_kept(labelled):
    """The blind second pass judges the same findings; every disagreement is settled with a
    reason, and the count matches."""
    second = lint_users.labels("labels-pass2.yaml")
    assert sorted(second) == sorted(labelled)
    dis = yaml.safe_load((CORPUS / "disagreements.yaml").read_text())
    assert dis["count"] == len(dis["disagreements"])
    for d in dis["disagreements"]:
        assert d["file"] in labelled and d["settled"] and d["why"], d


def test_every_finding_is_labelled(runs, labelled):
    missing, stale = lint_users.label_gaps(runs, labelled)
    assert missing == [], f"{len(missing)} finding(s) lint gives that nobody judged: {RELABEL}"
    assert stale == [], f"{len(stale)} judged finding(s) lint no longer gives: {RELABEL}"


def test_figures_do_not_regress(runs, labelled):
    floor = yaml.safe_load((CORPUS / "floor.yaml").read_text())
    now = lint_users.floor_values(lint_users.figures(runs, labelled))
    worse = {k: (v, now.get(k)) for k, v in floor.items() if now.get(k, 0) < v}
    assert worse == {}, f"below the figures of the last labelled commit (was, now): {worse}"


def test_results_md_is_current(runs, labelled):
    text = lint_users.results_md(runs, labelled, lint_users._lint_commit())
    assert lint_users.generated_part((CORPUS / "RESULTS.md").read_text()) == text, \
        "tests/lint_users/RESULTS.md is stale: python3 tools/lint_users.py results --write"
