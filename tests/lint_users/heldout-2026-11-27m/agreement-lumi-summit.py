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

from heldout_agreement import _aligned  # noqa: E402

SUFFIXES, PART = ("lumi", "summit"), "lumi-summit"


def figures(a, b, both, name, scripts):
    n = len(scripts)
    if not n:
        return f"{name:17s} scripts   0  (none in this set)"
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
    return (
        f"{name:17s} scripts {n:3d}  A {n_a:3d}  B {n_b:3d}  both {n_both:3d}  raw {raw}  "
        f"clean A/B {clean}  verdicts agree {agree}/{n}  po {po:.2f}  pe {pe:.2f}  kappa {kappa}"
    )


def main() -> int:
    doc = yaml.safe_load((HERE / f"disagreements-{PART}.yaml").read_text())
    index = yaml.safe_load((HERE / f"index-{PART}.yaml").read_text())["scripts"]
    got = _aligned(HERE, SUFFIXES, doc["alignment"])
    if isinstance(got, str):
        print(got)
        return 1
    a, b, both = got
    if set(a) != {e["file"] for e in index}:
        print("the blind files do not list the index's scripts")
        return 1
    for name, keep in [
        (f"{PART} part", lambda s: True),
        ("lumi", lambda s: s.startswith("lumi/")),
        ("summit", lambda s: s.startswith("summit/")),
    ]:
        print(figures(a, b, both, name, [s for s in a if keep(s)]))
    # A's /gpfs/alpine labels (a convention of 27e-27l that A did not follow, B did) set aside
    a2 = {s: [i for i in a[s] if not i.startswith("old-alpine")] for s in a}
    print("-- with A's /gpfs/alpine labels set aside:")
    for name, keep in [
        (f"{PART} part", lambda s: True),
        ("summit", lambda s: s.startswith("summit/")),
    ]:
        print(figures(a2, b, both, name, [s for s in a2 if keep(s)]))
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
    rules = {}
    for s in labels:
        for v in labels[s]["violations"]:
            key = ", ".join(v["rules"]) or "none (proposed)"
            rules[key] = rules.get(key, 0) + 1
    print("rules of the settled violations:", dict(sorted(rules.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
