"""Agreement of the two blind passes on heldout-2026-11-27b, recomputed from the files: the
violations of blind-A-*.yaml and blind-B-*.yaml and the per-script `alignment` of
disagreements.yaml ("a-id = b-id" where the ids differ; batch 1 at the top level, batch 2 under
the "batch 2" key). Prints, for batch 1, batch 2 and both batches together, per part, per site and
overall: A, B, both, raw agreement both/(A+B-both), and Cohen's kappa on each script's verdict
(clean or not). Reads no lint code and runs no lint:
`python3 tests/lint_users/heldout-2026-11-27b/agreement.py`."""

from __future__ import annotations

from pathlib import Path

import yaml

HERE = Path(__file__).parent
ALCF = ("polaris", "aurora", "sunspot")
# batch name -> (the suffixes of its blind files, the key of disagreements.yaml holding its
# alignment: None for batch 1's top-level `alignment`)
BATCHES = {"batch 1": (("alcf", "lumi-summit"), None),
           "batch 2": (("alcf2", "lumi-summit2"), "batch 2")}


def _ids(side: str, parts: tuple[str, ...]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in parts:
        labels = yaml.safe_load((HERE / f"blind-{side}-{part}.yaml").read_text())["scripts"]
        for script, entry in labels.items():
            out[script] = [v["id"] for v in entry["violations"]]
    return out


def _batch(parts: tuple[str, ...], align: dict
           ) -> tuple[dict[str, list[str]], dict[str, list[str]], dict[str, int]] | str:
    """A's and B's ids per script and the count matched per script, or what is inconsistent."""
    a, b = _ids("A", parts), _ids("B", parts)
    if set(a) != set(b) or set(a) != set(align):
        return "the blind files and the alignment do not list the same scripts"
    both: dict[str, int] = {}
    for script, entry in align.items():
        pairs = [(p.split(" = ") + p.split(" = "))[:2] for p in entry.get("both", [])]
        only_a, only_b = entry.get("only-A", []), entry.get("only-B", [])
        if sorted([x for x, _ in pairs] + only_a) != sorted(a[script]) or \
                sorted([y for _, y in pairs] + only_b) != sorted(b[script]):
            return f"{script}: the alignment does not cover the blind labels exactly"
        both[script] = len(pairs)
    return a, b, both


def _report(title: str, a: dict[str, list[str]], b: dict[str, list[str]],
            both: dict[str, int]) -> None:
    print(f"== {title}")
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
        clean = f"{sum(1 for s in scripts if not a[s])}/{sum(1 for s in scripts if not b[s])}"
        print(f"{name:17s} scripts {n:3d}  A {n_a:3d}  B {n_b:3d}  both {n_both:3d}  raw "
              f"{n_both}/{n_a + n_b - n_both} = {n_both / (n_a + n_b - n_both):.2f}  "
              f"clean A/B {clean}  po {po:.2f}  pe {pe:.2f}  kappa {kappa}")


def main() -> int:
    doc = yaml.safe_load((HERE / "disagreements.yaml").read_text())
    total_a: dict[str, list[str]] = {}
    total_b: dict[str, list[str]] = {}
    total_both: dict[str, int] = {}
    for title, (parts, key) in BATCHES.items():
        got = _batch(parts, doc["alignment"] if key is None else doc[key]["alignment"])
        if isinstance(got, str):
            print(f"{title}: {got}")
            return 1
        a, b, both = got
        _report(title, a, b, both)
        total_a.update(a)
        total_b.update(b)
        total_both.update(both)
    _report("both batches", total_a, total_b, total_both)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
