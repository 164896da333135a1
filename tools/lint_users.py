"""Measure `jobgen lint` on the users' corpus (tests/lint_users): precision, recall, site detection.

    python3 tools/lint_users.py unlabelled       # findings not judged yet, and stale labels
    python3 tools/lint_users.py results          # print the figures
    python3 tools/lint_users.py results --write  # rewrite RESULTS.md and floor.yaml
    python3 tools/lint_users.py results --check  # exit 1 if RESULTS.md is not current

Definitions (the issue's): precision = true / (true + false) over findings of warning or error
severity (findings labelled 'unsure' are counted apart, in neither); recall = the share of the
violations found by reading (labels.yaml) that lint reports, a violation counting as reported when
lint gives a finding, at any severity, of one of the rules the label maps it to; site detection =
how often lint, without --site, names the site index.yaml gives. A script lint refuses to read
counts as reporting nothing and detecting nothing.

tests/test_lint_users.py imports this module; relabelling after a lint change starts with
`unlabelled`, which prints ready-to-edit YAML entries.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # this checkout's jobgen, not another install
    sys.path.insert(0, str(ROOT))

from jobgen.errors import JobgenError  # noqa: E402
from jobgen.profiles.load import load_profile  # noqa: E402
from jobgen.review.lint import detect_site, lint  # noqa: E402
from jobgen.review.lint import site as site_module  # noqa: E402
from jobgen.review.scriptparse import parse_file  # noqa: E402

CORPUS = ROOT / "tests" / "lint_users"
# RESULTS.md: the figures above this line are generated; the analysis below it is written by hand
# and kept as it is by `results --write`.
MARKER = "<!-- analysis: written by hand, kept by `tools/lint_users.py results --write` -->"
SITES = ("polaris", "aurora", "sunspot", "lumi", "summit")
SEVERE = ("warning", "error")
KINDS = ("refuse", "fail", "waste", "outdated")


def index() -> list[dict]:
    return yaml.safe_load((CORPUS / "index.yaml").read_text())["scripts"]


def labels(name: str = "labels.yaml") -> dict[str, dict]:
    return yaml.safe_load((CORPUS / name).read_text())["scripts"]


@dataclass
class Run:
    """What lint says about one script: its findings (rule, line, severity, message), the site it
    detects without --site, or the reason it refused the file."""
    file: str
    site: str
    detected: str | None = None
    refused: str | None = None
    findings: list[tuple[str, int, str, str]] = field(default_factory=list)


def run_lint(entries: list[dict] | None = None) -> list[Run]:
    """Lint every script with its site's rules, and detect its site without one. detect_site
    loads every profile for each script; the loads are memoised for this run only."""
    memo = functools.lru_cache(maxsize=None)(load_profile)
    original = site_module.load_profile
    site_module.load_profile = memo
    try:
        runs = []
        for e in entries if entries is not None else index():
            r = Run(e["file"], e["site"])
            try:
                script = parse_file(CORPUS / "scripts" / e["file"])
                r.detected = detect_site(script)
                r.findings = [(f.rule, f.line, f.severity, f.message)
                              for f in lint(script, memo(e["site"]).profile)]
            except JobgenError as exc:
                r.refused = str(exc).split(": ", 1)[-1]
            runs.append(r)
        return runs
    finally:
        site_module.load_profile = original


def _key(x) -> tuple[str, int, str]:
    return (x["rule"], x["line"], x["severity"]) if isinstance(x, dict) else tuple(x[:3])


def label_gaps(runs: list[Run], labelled: dict[str, dict]) -> tuple[list, list]:
    """(unlabelled findings, stale labels): warning/error findings labels.yaml does not judge,
    and judged findings lint no longer gives (with their multiplicity)."""
    missing, stale = [], []
    for r in runs:
        got = Counter(_key(f) for f in r.findings if f[2] in SEVERE)
        have = Counter(_key(x) for x in labelled.get(r.file, {}).get("findings", []))
        for k, n in (got - have).items():
            msgs = [f[3] for f in r.findings if _key(f) == k]
            missing += [(r.file, k, msgs[0])] * n
        stale += [(r.file, k) for k, n in (have - got).items() for _ in range(n)]
    return missing, stale


def _pct(n: int, d: int) -> str:
    return f"{n}/{d} = {100 * n / d:.0f}%" if d else "n/a"


def figures(runs: list[Run], labelled: dict[str, dict]) -> dict:
    """Precision, recall and detection, overall, per site, per rule and per kind."""
    by = {r.file: r for r in runs}
    prec = defaultdict(Counter)   # key -> Counter(true=, false=, unsure=)
    rec = defaultdict(Counter)    # key -> Counter(found=, total=)
    det = defaultdict(Counter)
    for file, lab in labelled.items():
        r = by[file]
        site = r.site
        for x in lab.get("findings", []):
            verdict = {True: "true", False: "false"}.get(x["true"], "unsure")
            for key in ("all", f"site:{site}", f"rule:{x['rule']}"):
                prec[key][verdict] += 1
        rules_given = {f[0] for f in r.findings}
        for v in lab.get("violations", []):
            found = bool(set(v["rules"]) & rules_given)
            keys = ["all", f"site:{site}", f"kind:{v['kind']}"]
            keys += [f"rule:{x}" for x in v["rules"]] or ["rule:(none)"]
            for key in keys:
                rec[key]["total"] += 1
                rec[key]["found"] += found
        for key in ("all", f"site:{site}"):
            det[key]["total"] += 1
            det[key]["right"] += r.detected == site
    return {"precision": prec, "recall": rec, "detection": det}


def floor_values(fig: dict) -> dict[str, float]:
    """The figures the test keeps from regressing: overall and per site."""
    out = {}
    for key in ["all"] + [f"site:{s}" for s in SITES]:
        p = fig["precision"][key]
        if p["true"] + p["false"]:
            out[f"precision {key}"] = round(p["true"] / (p["true"] + p["false"]), 4)
        r = fig["recall"][key]
        if r["total"]:
            out[f"recall {key}"] = round(r["found"] / r["total"], 4)
        d = fig["detection"][key]
        out[f"detection {key}"] = round(d["right"] / d["total"], 4)
    return out


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + \
        ["| " + " | ".join(r) + " |" for r in rows]


def results_md(runs: list[Run], labelled: dict[str, dict], commit: str) -> str:
    fig = figures(runs, labelled)
    p, r, d = fig["precision"], fig["recall"], fig["detection"]
    lines = [
        "# jobgen lint on the users' corpus: figures",
        "",
        "Written by `python3 tools/lint_users.py results --write` (checked by",
        "tests/test_lint_users.py) down to the analysis, which is written by hand and kept,",
        "at the end. Precision: true / (true + false) over findings of warning or error",
        "severity, `unsure` apart; recall: violations found by reading that lint reports (a",
        "finding of a mapped rule, any severity); detection: lint names the right site without",
        f"`--site`. Labels judge lint at {commit}.",
        "",
        "## Per site",
        "",
    ]
    rows = []
    for key in [f"site:{s}" for s in SITES] + ["all"]:
        n = sum(1 for x in runs if key == "all" or f"site:{x.site}" == key)
        rows.append([key.removeprefix("site:"), str(n),
                     _pct(p[key]["true"], p[key]["true"] + p[key]["false"]),
                     str(p[key]["unsure"]), _pct(r[key]["found"], r[key]["total"]),
                     _pct(d[key]["right"], d[key]["total"])])
    lines += _table(["site", "scripts", "precision", "unsure", "recall", "site detected"], rows)
    lines += ["", "## Per rule", "",
              "Findings (warning/error) of each rule, and the violations mapped to it; a",
              "violation mapped to several rules counts under each.", ""]
    rules = sorted({k[5:] for k in list(p) + list(r) if k.startswith("rule:")})
    rows = [[rule, str(p[f"rule:{rule}"]["true"]), str(p[f"rule:{rule}"]["false"]),
             str(p[f"rule:{rule}"]["unsure"]),
             _pct(r[f"rule:{rule}"]["found"], r[f"rule:{rule}"]["total"])] for rule in rules]
    lines += _table(["rule", "true", "false", "unsure", "violations reported"], rows)
    lines += ["", "## Per kind of violation", ""]
    rows = [[k, _pct(r[f"kind:{k}"]["found"], r[f"kind:{k}"]["total"])] for k in KINDS]
    lines += _table(["kind", "reported"], rows)
    by = {x.file: x for x in runs}
    lines += ["", "## Findings labelled false or unsure", ""]
    for file, lab in labelled.items():
        for x in lab.get("findings", []):
            if x["true"] is not True:
                lines.append(f"- {file} L{x['line']} {x['rule']} ({x['true']}): {x['why']}")
    lines += ["", "## Violations lint does not report", ""]
    for file, lab in labelled.items():
        given = {f[0] for f in by[file].findings}
        for v in lab.get("violations", []):
            if not set(v["rules"]) & given:
                rules = "/".join(v["rules"] + [f"{x} (proposed)" for x in v.get("proposed", [])])
                lines.append(f"- {file} L{v['line']} [{v['kind']}] {v['id']} "
                             f"({rules or 'no rule'})")
    refused = [x for x in runs if x.refused]
    lines += ["", "## Scripts lint refuses to read", ""]
    lines += [f"- {x.file}: {x.refused}" for x in refused] or ["(none)"]
    undetected = [x for x in runs if x.detected != x.site]
    lines += ["", f"## Site not told ({len(undetected)})", ""]
    lines += [f"- {x.file}: {x.detected or 'none'}" for x in undetected] or ["(none)"]
    return "\n".join(lines) + "\n"


def generated_part(text: str) -> str:
    return text.split(MARKER, 1)[0]


def _lint_commit() -> str:
    text = (CORPUS / "labels.yaml").read_text()
    for line in text.splitlines():
        if line.startswith("lint_commit:"):
            return line.split(":", 1)[1].strip()
    return "(unknown)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("unlabelled", "results"))
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args(argv)
    runs = run_lint()
    lab = labels()
    if args.what == "unlabelled":
        missing, stale = label_gaps(runs, lab)
        for file, (rule, line, sev), msg in missing:
            print(f"# {file}\n  - {{rule: {rule}, line: {line}, severity: {sev}, 'true': ?, "
                  f"why: ''}}  # {msg[:150]}")
        for file, (rule, line, sev) in stale:
            print(f"# {file}: labelled {rule} line {line} ({sev}) is no longer reported")
        print(f"{len(missing)} unlabelled finding(s), {len(stale)} stale label(s)",
              file=sys.stderr)
        return 1 if missing or stale else 0
    text = results_md(runs, lab, _lint_commit())
    current = (CORPUS / "RESULTS.md").read_text()
    if args.check:
        if generated_part(current) != text:
            print("tests/lint_users/RESULTS.md is not current: run "
                  "`python3 tools/lint_users.py results --write`", file=sys.stderr)
            return 1
        return 0
    if args.write:
        kept = current.split(MARKER, 1)[1] if MARKER in current else "\n"
        (CORPUS / "RESULTS.md").write_text(text + MARKER + kept)
        floor = floor_values(figures(runs, lab))
        (CORPUS / "floor.yaml").write_text(
            "# Figures at the last labelled commit (tools/lint_users.py results --write); "
            "tests/test_lint_users.py\n# fails when lint falls below them.\n"
            + yaml.safe_dump(floor, sort_keys=False))
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
