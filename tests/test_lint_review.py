"""`jobgen lint` on the independent blind review set (tests/lint_review): every documented
violation is caught by the rule labelled for it, no clean script draws a warning or an error,
and every finding is one labelled true, with its severity (tests/lint_review/labels.yaml).

The scripts, index.yaml and RESULTS.md are the reviewer's, kept as written (their provenance);
labels.yaml is ours, and says where and why the reviewer's expectation does not hold."""

from __future__ import annotations

import re
from collections import Counter

import pytest
import yaml
from helpers import ROOT

from jobgen.profiles.load import load_profile
from jobgen.review.lint import RULES, lint
from jobgen.review.scriptparse import parse_file

REVIEW = ROOT / "tests" / "lint_review"
INDEX = yaml.safe_load((REVIEW / "index.yaml").read_text())["scripts"]
LABELS = yaml.safe_load((REVIEW / "labels.yaml").read_text())["scripts"]
SEVERE = ("warning", "error")


def _findings(entry: dict) -> list:
    return lint(parse_file(REVIEW / entry["file"]), load_profile(entry["site"]).profile)


def _key(f) -> tuple[str, int, str]:
    return (f["rule"], f["line"], f["severity"]) if isinstance(f, dict) else \
        (f.rule, f.line, f.severity)


def test_provenance_and_labels_cover_the_set():
    """Every script of the reviewer's index is here, with its source, and labelled."""
    files = sorted(str(p.relative_to(REVIEW)) for d in ("broken", "clean")
                   for p in (REVIEW / d).iterdir())
    assert sorted(e["file"] for e in INDEX) == files
    assert sorted(LABELS) == files
    # the reviewer's files beside ours (labels.yaml)
    assert {p.name for p in REVIEW.iterdir() if p.is_file()} == {"index.yaml", "RESULTS.md",
                                                                 "labels.yaml"}
    for e in INDEX:
        assert e["kind"] in ("broken", "clean") and e["expected"] and e["source"], e["file"]
        assert re.search(r"@ [0-9a-f]{7,40}", e["source"]), e["file"]
        assert e["file"].startswith(e["kind"] + "/") and e["site"] in e["file"]
        label = LABELS[e["file"]]
        assert all(r in RULES for r in label.get("catches", [])), e["file"]
        assert e["kind"] == "clean" or label.get("catches") or label.get("disputed"), e["file"]
        assert all(x["why"] for x in label["findings"]), e["file"]


@pytest.mark.parametrize("entry", INDEX, ids=lambda e: e["file"])
def test_review_script_gets_exactly_its_labelled_true_findings(entry):
    found = Counter(_key(f) for f in _findings(entry))
    label = LABELS[entry["file"]]
    labelled = Counter(_key(x) for x in label["findings"])
    assert found - labelled == Counter(), "unlabelled findings: label them"
    assert labelled - found == Counter(), "labelled findings lint no longer reports"
    assert [x for x in label["findings"] if not x["true"]] == [], "false positives"
    if entry["kind"] == "broken" and not label.get("disputed"):
        assert {r for r, _, _ in found} & set(label["catches"]), "the violation is missed"
    if entry["kind"] == "clean" and not label.get("disputed"):
        assert [k for k in found if k[2] in SEVERE] == [], "a clean script is flagged"


def test_recall_and_precision_on_the_review_set():
    """Recall over the violations the labels keep (disputed ones left out) and precision over
    every finding, as the issue measures them."""
    broken = [e for e in INDEX if e["kind"] == "broken" and not LABELS[e["file"]].get("disputed")]
    caught = [e for e in broken if {f.rule for f in _findings(e)} & set(
        LABELS[e["file"]]["catches"])]
    labelled = [x for e in INDEX for x in LABELS[e["file"]]["findings"]]
    assert len(caught) == len(broken) and len(broken) >= 45
    assert sum(x["true"] for x in labelled) / len(labelled) >= 0.95
    flagged = [e for e in INDEX if e["kind"] == "clean" and not LABELS[e["file"]].get("disputed")
               and any(f.severity in SEVERE for f in _findings(e))]
    assert flagged == []


def test_a_disputed_expectation_names_its_source():
    for name, label in LABELS.items():
        if label.get("disputed"):
            assert re.search(r"@ [0-9a-f]{7,40}|https?://", label["disputed"]), name

