"""Agreement of the two blind passes on a part of a held-out set (issue 31), recomputed from the
files: the violations of blind-A-*.yaml and blind-B-*.yaml and the per-script `alignment` of
disagreements-PART.yaml ("a-id = b-id" where the ids differ). Prints, per site, per suffix and for
the part: A, B, both, raw agreement both/(A+B-both), and Cohen's kappa on each script's verdict
(clean or not). Reads no lint code and runs no lint; each folder's agreement-alcf.py calls it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml


def _ids(here: Path, suffixes: tuple[str, ...], side: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for suffix in suffixes:
        labels = yaml.safe_load((here / f"blind-{side}-{suffix}.yaml").read_text())["scripts"]
        for script, entry in labels.items():
            out[script] = [v["id"] for v in entry["violations"]]
    return out


Ids = dict[str, list[str]]


def _aligned(here: Path, suffixes: tuple[str, ...], align: dict
             ) -> tuple[Ids, Ids, dict[str, int]] | str:
    """A's and B's ids per script and the count matched per script, or what is inconsistent."""
    a, b = _ids(here, suffixes, "A"), _ids(here, suffixes, "B")
    if set(a) != set(b) or set(a) != set(align):
        return "the blind files and the alignment do not list the same scripts"
    both: dict[str, int] = {}
    for script, entry in align.items():
        entry = entry or {}
        pairs = [(p.split(" = ") + p.split(" = "))[:2] for p in entry.get("both", [])]
        only_a, only_b = entry.get("only-A", []), entry.get("only-B", [])
        if sorted([x for x, _ in pairs] + only_a) != sorted(a[script]) or \
                sorted([y for _, y in pairs] + only_b) != sorted(b[script]):
            return f"{script}: the alignment does not cover the blind labels exactly"
        both[script] = len(pairs)
    return a, b, both


def figures(a: Ids, b: Ids, both: dict[str, int], name: str, scripts: list[str],
            width: int = 15) -> str:
    """One group's line: A, B, both, raw agreement, clean verdicts and Cohen's kappa."""
    n = len(scripts)
    if not n:  # a site with no script in this set (27f: no Sunspot)
        return f"{name:{width}s} scripts   0  (none in this set)"
    n_a = sum(len(a[s]) for s in scripts)
    n_b = sum(len(b[s]) for s in scripts)
    n_both = sum(both[s] for s in scripts)
    bad_a = sum(1 for s in scripts if a[s]) / n
    bad_b = sum(1 for s in scripts if b[s]) / n
    agree = sum(1 for s in scripts if bool(a[s]) == bool(b[s]))
    po = agree / n
    pe = bad_a * bad_b + (1 - bad_a) * (1 - bad_b)
    kappa = f"{(po - pe) / (1 - pe):.2f}" if pe < 1 else "undefined"
    clean = f"{sum(1 for s in scripts if not a[s])}/{sum(1 for s in scripts if not b[s])}"
    union = n_a + n_b - n_both
    raw = f"{n_both}/{union} = {n_both / union:.2f}" if union else "0/0 (no violation)"
    return (f"{name:{width}s} scripts {n:3d}  A {n_a:3d}  B {n_b:3d}  both {n_both:3d}  raw "
            f"{raw}  clean A/B {clean}  verdicts agree {agree}/{n}  po {po:.2f}  pe {pe:.2f}  "
            f"kappa {kappa}")


def load_part(here: Path, suffixes: tuple[str, ...], part: str
              ) -> tuple[dict[str, Any], Ids, Ids, dict[str, int]] | str:
    """A part's disagreements-PART.yaml and its aligned blind labels (a, b, both), checked
    against index-PART.yaml; what is wrong instead, as a line to print."""
    doc = yaml.safe_load((here / f"disagreements-{part}.yaml").read_text())
    index = yaml.safe_load((here / f"index-{part}.yaml").read_text())["scripts"]
    got = _aligned(here, suffixes, doc["alignment"])
    if isinstance(got, str):
        return got
    a, b, both = got
    if set(a) != {e["file"] for e in index}:
        return "the blind files do not list the index's scripts"
    return doc, a, b, both


def rule_counts(labels: dict[str, Any]) -> dict[str, int]:
    """How many settled violations name each rule set ("none (proposed)" for none), sorted."""
    rules: dict[str, int] = {}
    for s in labels:
        for v in labels[s]["violations"]:
            key = ", ".join(v["rules"]) or "none (proposed)"
            rules[key] = rules.get(key, 0) + 1
    return dict(sorted(rules.items()))


KINDS = ("refuse", "fail", "waste", "wrong", "outdated")


def settled_differences(doc: dict[str, Any]) -> dict[str, int]:
    """How many settled differences of each sort (`only-A keep`, `both settled`...), sorted."""
    dec: dict[str, int] = {}
    for e in doc["settled"]:
        key = f"{e['difference'].split(' ')[0]} {e['decision']}"
        dec[key] = dec.get(key, 0) + 1
    return dict(sorted(dec.items()))


def settled_labels(here: Path, part: str, scripts: Ids) -> dict[str, Any] | None:
    """labels-PART.yaml's scripts, or None where they are not the blind files' scripts."""
    labels = yaml.safe_load((here / f"labels-{part}.yaml").read_text())["scripts"]
    return labels if set(labels) == set(scripts) else None


def kind_counts(violations: list[dict[str, Any]]) -> dict[str, int]:
    return {k: sum(1 for v in violations if v["kind"] == k) for k in KINDS}


def pass_recall(doc: dict[str, Any], labels: dict[str, Any], a: Ids, b: Ids
                ) -> tuple[int, int, int]:
    """(found by A, found by B, settled violations): a settled violation a pass found is one
    whose id the pass gave; B's ids are read through the alignment's `a = b` pairs."""
    ids = {s: {v["id"] for v in labels[s]["violations"]} for s in labels}
    pairs = {s: [(p.split(" = ") + p.split(" = "))[:2]
                 for p in (doc["alignment"][s] or {}).get("both", [])]
             for s in labels}
    found_a = sum(1 for s in labels for i in a[s] if i in ids[s])
    found_b = sum(1 for s in labels for i in b[s]
                  if i in ids[s] or any(y == i and x in ids[s] for x, y in pairs[s]))
    return found_a, found_b, sum(len(ids[s]) for s in labels)


def site_part(here: Path, site: str, aside: str = "old-alpine", split: bool = False) -> int:
    """A one-site part's figures (the sets of 28n, 28p and 28q read Summit as a part of its
    own, whose groups main() does not name): the part and the site, again with pass A's
    labels whose ids start with `aside` set aside, the settled differences, and the settled
    labels' counts (`split`: also without the `aside` labels) and each pass's recall of them."""
    got = load_part(here, (site,), site)
    if isinstance(got, str):
        print(got)
        return 1
    doc, a, b, both = got
    for name, keep in [(f"{site} part", lambda s: True),
                       (site, lambda s: s.startswith(f"{site}/"))]:
        print(figures(a, b, both, name, [s for s in a if keep(s)], 17))
    a2 = {s: [i for i in a[s] if not i.startswith(aside)] for s in a}
    print(f"-- with A's {'/gpfs/alpine' if aside == 'old-alpine' else aside} labels set aside:")
    print(figures(a2, b, both, f"{site} part", list(a2), 17))
    print("-- settled differences:", settled_differences(doc))
    labels = settled_labels(here, site, a)
    if labels is None:
        print("labels do not list the index's scripts")
        return 1
    print("-- settled (labels):")
    for tag, drop in [("", False)] + ([(f" without {aside}", True)] if split else []):
        vs = [v for s in labels for v in labels[s]["violations"]
              if not (drop and v["id"].startswith(aside))]
        clean = sum(1 for s in labels if not [v for v in labels[s]["violations"]
                                               if not (drop and v["id"].startswith(aside))])
        uns = sum(len(labels[s].get("unsure") or []) for s in labels)
        print(f"{site}{tag}  scripts {len(labels)}  violations {len(vs)}  {kind_counts(vs)}  "
              f"clean {clean}  UNSURE {uns}")
    print("rules of the settled violations:", rule_counts(labels))
    found_a, found_b, n = pass_recall(doc, labels, a, b)
    print(f"recall of the settled set: A {found_a}/{n} = {found_a / n:.2f}, "
          f"B {found_b}/{n} = {found_b / n:.2f}")
    return 0


def main(here: Path, suffixes: tuple[str, ...] = ("polaris", "aurora"), part: str = "alcf") -> int:
    doc = yaml.safe_load((here / f"disagreements-{part}.yaml").read_text())
    got = _aligned(here, suffixes, doc["alignment"])
    if isinstance(got, str):
        print(got)
        return 1
    a, b, both = got
    groups = [("alcf part", lambda s: True),
              ("polaris", lambda s: s.startswith("polaris/")),
              ("aurora+sunspot", lambda s: not s.startswith("polaris/")),
              ("aurora", lambda s: s.startswith("aurora/")),
              ("sunspot", lambda s: s.startswith("sunspot/"))]
    for name, keep in groups:
        print(figures(a, b, both, name, [s for s in a if keep(s)]))
    return 0
