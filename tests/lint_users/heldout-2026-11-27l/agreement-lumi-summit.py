"""Agreement of the two blind passes on heldout-2026-11-27l, LUMI-G + Summit part (SUFFIXES
lumi, summit): the alignment check and formulas of tests/lint_users/heldout_agreement.py (its
_aligned), grouped by site here (heldout_agreement.main's groups name the ALCF sites). Reads
no lint code and runs no lint:
`python3 tests/lint_users/heldout-2026-11-27l/agreement-lumi-summit.py`."""

import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from heldout_agreement import figures, load_part  # noqa: E402

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
    # the looser pairing (header of disagreements-lumi-summit.yaml): A's second-launch labels
    # of the two scaling loops left unmatched to B's idle-gpus
    loose = {
        "summit/cwpearson.tempi__scripts-summit-bench_halo_exchange.sh",
        "summit/cwpearson.tempi__scripts-summit-bench_512node_astaroth.sh",
    }
    both2 = {s: both[s] - (1 if s in loose else 0) for s in both}
    print("-- with the 2 looser pairs unmatched:")
    for name, keep in [
        (f"{PART} part", lambda s: True),
        ("summit", lambda s: s.startswith("summit/")),
    ]:
        print(figures(a, b, both2, name, [s for s in a if keep(s)], 17))
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
        print(
            f"{site or 'all':7s} scripts {len(ss)}  violations {len(vs)}  {kinds}  "
            f"clean {clean}  UNSURE {uns}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
