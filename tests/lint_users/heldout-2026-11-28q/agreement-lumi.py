"""Agreement of the two blind passes on heldout-2026-11-28q, part lumi (SUFFIX lumi):
heldout_agreement.main (whose group names are ALCF's: for this part every line is the LUMI-G
figures), then the same figures under LUMI's names, the settled differences of
disagreements-lumi.yaml and the settled counts of labels-lumi.yaml, and each pass's recall of
them (B's through the labels' b_id). Reads only the index, blind, disagreement and label files;
reads no lint code, runs no lint:
`python3 tests/lint_users/heldout-2026-11-28q/agreement-lumi.py`."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from heldout_agreement import (  # noqa: E402
    figures,
    kind_counts,
    load_part,
    main,
    rule_counts,
    settled_differences,
    settled_labels,
)

HERE = Path(__file__).resolve().parent
SUFFIXES, PART = ("lumi",), "lumi"


def settled() -> int:
    got = load_part(HERE, SUFFIXES, PART)
    if isinstance(got, str):
        print(got)
        return 1
    doc, a, b, both = got
    print("-- under LUMI's names (load_part also checked the blind files against "
          "index-lumi.yaml):")
    for name, keep in [(f"{PART} part", lambda s: True),
                       ("lumi (site)", lambda s: s.startswith("lumi/"))]:
        print(figures(a, b, both, name, [s for s in a if keep(s)], 15))
    print("-- settled differences:", settled_differences(doc))
    labels = settled_labels(HERE, PART, a)
    if labels is None:
        print("labels do not list the index's scripts")
        return 1
    vs = [v for s in labels for v in labels[s]["violations"]]
    kinds = kind_counts(vs)
    frm: dict[str, int] = {}
    for v in vs:
        frm[v["from"]] = frm.get(v["from"], 0) + 1
    clean = sum(1 for s in labels if not labels[s]["violations"])
    uns = sum(len(labels[s].get("unsure") or []) for s in labels)
    print(f"-- settled (labels): scripts {len(labels)}  violations {len(vs)}  from "
          f"{dict(sorted(frm.items()))}  {kinds}  clean {clean}  UNSURE {uns}")
    print("rules of the settled violations:", rule_counts(labels))
    # recall of the settled set by each pass (a settled violation the pass found)
    ids = {s: {v["id"] for v in labels[s]["violations"]} for s in labels}
    bids = {s: {v.get("b_id", v["id"]) for v in labels[s]["violations"]
                if v["from"] in ("both", "only-B")} for s in labels}
    n = sum(len(ids[s]) for s in labels)
    found_a = sum(1 for s in labels for i in a[s] if i in ids[s])
    found_b = sum(1 for s in labels for i in b[s] if i in bids[s])
    print(f"recall of the settled set: A {found_a}/{n} = {found_a / n:.2f}, "
          f"B {found_b}/{n} = {found_b / n:.2f}")
    return 0


if __name__ == "__main__":
    print("-- heldout_agreement.main(HERE, ('lumi',), 'lumi'), raw:")
    rc = main(HERE, SUFFIXES, PART)
    sys.exit(rc or settled())
