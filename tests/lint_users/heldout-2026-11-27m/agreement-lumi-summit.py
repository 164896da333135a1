"""Agreement of the two blind passes on heldout-2026-11-27m, LUMI-G + Summit part (SUFFIXES
lumi, summit): the alignment check and formulas of tests/lint_users/heldout_agreement.py (its
_aligned), grouped by site here (heldout_agreement.main's groups name the ALCF sites). Reads
no lint code and runs no lint:
`python3 tests/lint_users/heldout-2026-11-27m/agreement-lumi-summit.py`."""

import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from heldout_agreement import figures, load_part, rule_counts  # noqa: E402

SUFFIXES, PART = ("lumi", "summit"), "lumi-summit"


def main() -> int:
    got = load_part(HERE, SUFFIXES, PART)
    if isinstance(got, str):
        print(got)
        return 1
    doc, a, b, both = got
    for name, keep in [
        (f"{PART} part", lambda s: True),
        ("lumi", lambda s: s.startswith("lumi/")),
        ("summit", lambda s: s.startswith("summit/")),
    ]:
        print(figures(a, b, both, name, [s for s in a if keep(s)], 17))
    # A's /gpfs/alpine labels (a convention of 27e-27l that A did not follow, B did) set aside
    a2 = {s: [i for i in a[s] if not i.startswith("old-alpine")] for s in a}
    print("-- with A's /gpfs/alpine labels set aside:")
    for name, keep in [
        (f"{PART} part", lambda s: True),
        ("summit", lambda s: s.startswith("summit/")),
    ]:
        print(figures(a2, b, both, name, [s for s in a2 if keep(s)], 17))
    labels = yaml.safe_load((HERE / f"labels-{PART}.yaml").read_text())["scripts"]
    if set(labels) != set(a):
        print("labels do not list the index's scripts")
        return 1
    print("-- settled (labels):")
    for site in ("lumi", "summit", ""):
        ss = [s for s in labels if s.startswith(site)]
        vs = [v for s in ss for v in labels[s]["violations"]]
        kinds = {
            k: sum(1 for v in vs if v["kind"] == k)
            for k in ("refuse", "fail", "waste", "wrong", "outdated")
        }
        clean = sum(1 for s in ss if not labels[s]["violations"])
        uns = sum(len(labels[s].get("unsure") or []) for s in ss)
        uns_n = sum(1 for s in ss for u in labels[s].get("unsure") or []
                    if u.get("from") == "neither")
        print(
            f"{site or 'all':7s} scripts {len(ss)}  violations {len(vs)}  {kinds}  "
            f"clean {clean}  UNSURE {uns} (from neither pass {uns_n})"
        )
    print("rules of the settled violations:", rule_counts(labels))
    return 0


if __name__ == "__main__":
    sys.exit(main())
