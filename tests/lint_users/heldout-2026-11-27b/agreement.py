"""Agreement of the two blind passes on heldout-2026-11-27b, recomputed from the files: the
violations of blind-A-*.yaml and blind-B-*.yaml and the per-script `alignment` of
disagreements.yaml ("a-id = b-id" where the ids differ). Prints, per part, per site and overall:
A, B, both, raw agreement both/(A+B-both), and Cohen's kappa on each script's verdict (clean or
not). Reads no lint code and runs no lint:
`python3 tests/lint_users/heldout-2026-11-27b/agreement.py`."""

from __future__ import annotations

from pathlib import Path

import yaml

HERE = Path(__file__).parent
ALCF = ("polaris", "aurora", "sunspot")


def _ids(side: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in ("alcf", "lumi-summit"):
        labels = yaml.safe_load((HERE / f"blind-{side}-{part}.yaml").read_text())["scripts"]
        for script, entry in labels.items():
            out[script] = [v["id"] for v in entry["violations"]]
    return out


def main() -> int:
    a, b = _ids("A"), _ids("B")
    align = yaml.safe_load((HERE / "disagreements.yaml").read_text())["alignment"]
    if set(a) != set(b) or set(a) != set(align):
        print("the blind files and the alignment do not list the same scripts")
        return 1
    both: dict[str, int] = {}
    for script, entry in align.items():
        pairs = [(p.split(" = ") + p.split(" = "))[:2] for p in entry.get("both", [])]
        only_a, only_b = entry.get("only-A", []), entry.get("only-B", [])
        if sorted([x for x, _ in pairs] + only_a) != sorted(a[script]) or \
                sorted([y for _, y in pairs] + only_b) != sorted(b[script]):
            print(f"{script}: the alignment does not cover the blind labels exactly")
            return 1
        both[script] = len(pairs)
    groups = [("alcf part", lambda s: s.split("/")[0] in ALCF),
              ("lumi-summit part", lambda s: s.split("/")[0] not in ALCF)]
    groups += [(site, lambda s, site=site: s.startswith(site + "/"))
               for site in ALCF + ("lumi", "summit")]
    groups += [("all", lambda s: True)]
    for name, keep in groups:
        scripts = [s for s in a if keep(s)]
        n_a = sum(len(a[s]) for s in scripts)
        n_b = sum(len(b[s]) for s in scripts)
        n_both = sum(both[s] for s in scripts)
        n = len(scripts)
        bad_a = sum(1 for s in scripts if a[s]) / n
        bad_b = sum(1 for s in scripts if b[s]) / n
        po = sum(1 for s in scripts if bool(a[s]) == bool(b[s])) / n
        pe = bad_a * bad_b + (1 - bad_a) * (1 - bad_b)
        kappa = f"{(po - pe) / (1 - pe):.2f}" if pe < 1 else "undefined"
        print(f"{name:17s} scripts {n:2d}  A {n_a:2d}  B {n_b:2d}  both {n_both:2d}  raw "
              f"{n_both}/{n_a + n_b - n_both} = {n_both / (n_a + n_b - n_both):.2f}  "
              f"po {po:.2f}  pe {pe:.2f}  kappa {kappa}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
