# ruff: noqa: E501
"""Agreement of the two blind passes on heldout-2026-11-28q, part summit (SUFFIX summit): the alignment check and
formulas of /work/main/tests/lint_users/heldout_agreement.py (load_part -> _aligned, figures, rule_counts), grouped
by site here (heldout_agreement.main's groups name the ALCF sites, so this file uses its parts as 28p's
agreement-summit.py did), then the settled counts of labels-summit.yaml. Reads only the index, blind, disagreement
and label files; reads no lint code, runs no lint: `python3 agreement-summit.py`."""

import sys
from pathlib import Path

import yaml

sys.path.insert(0, "/work/main/tests/lint_users")

from heldout_agreement import figures, load_part, rule_counts  # noqa: E402

HERE = Path("/work/heldq/heldout-2026-11-28q")
SUFFIXES, PART = ("summit",), "summit"


def main() -> int:
    got = load_part(HERE, SUFFIXES, PART)
    if isinstance(got, str):
        print(got)
        return 1
    doc, a, b, both = got
    for name, keep in [(f"{PART} part", lambda s: True),
                       ("summit", lambda s: s.startswith("summit/"))]:
        print(figures(a, b, both, name, [s for s in a if keep(s)], 17))
    # A's /gpfs/alpine labels (kept here; not labelled by the 27e-28p convention) set aside
    a2 = {s: [i for i in a[s] if not i.startswith("old-alpine")] for s in a}
    print("-- with A's /gpfs/alpine labels set aside:")
    print(figures(a2, b, both, f"{PART} part", list(a2), 17))
    dec: dict[str, int] = {}
    for e in doc["settled"]:
        key = f"{e['difference'].split(' ')[0]} {e['decision']}"
        dec[key] = dec.get(key, 0) + 1
    print("-- settled differences:", dict(sorted(dec.items())))
    labels = yaml.safe_load((HERE / f"labels-{PART}.yaml").read_text())["scripts"]
    if set(labels) != set(a):
        print("labels do not list the index's scripts")
        return 1
    print("-- settled (labels):")
    kinds_of = ("refuse", "fail", "waste", "wrong", "outdated")
    for tag, drop in (("", False), (" without old-alpine", True)):
        vs = [v for s in labels for v in labels[s]["violations"]
              if not (drop and v["id"].startswith("old-alpine"))]
        kinds = {k: sum(1 for v in vs if v["kind"] == k) for k in kinds_of}
        clean = sum(1 for s in labels if not [v for v in labels[s]["violations"]
                                               if not (drop and v["id"].startswith("old-alpine"))])
        uns = sum(len(labels[s].get("unsure") or []) for s in labels)
        print(f"summit{tag}  scripts {len(labels)}  violations {len(vs)}  {kinds}  clean {clean}  UNSURE {uns}")
    print("rules of the settled violations:", rule_counts(labels))
    # recall of the settled set by each pass: a settled violation found by the pass
    ids = {s: {v["id"] for v in labels[s]["violations"]} for s in labels}
    n = sum(len(ids[s]) for s in labels)
    pairs = {s: [(p.split(" = ") + p.split(" = "))[:2]
                 for p in (doc["alignment"][s] or {}).get("both", [])]
             for s in labels}
    found_a = sum(1 for s in labels for i in a[s] if i in ids[s])
    found_b = sum(1 for s in labels for i in b[s]
                  if i in ids[s] or any(y == i and x in ids[s] for x, y in pairs[s]))
    print(f"recall of the settled set: A {found_a}/{n} = {found_a / n:.2f}, B {found_b}/{n} = {found_b / n:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
