"""Figures of `jobgen lint` on a held-out set of users' scripts (issue 31), with the development
corpus's definitions (tools/lint_users.py figures()): precision over warning/error findings,
`unsure` apart; recall over the violations of the blind reading (a finding of a mapped rule, any
severity); site detection without --site. Unlike tools/lint_users.py, the findings here are
lint's WITHOUT --site (the rules of the site lint detects), as `python3 -m jobgen lint FILE`
gives them.

    python3 tests/lint_users/heldout_measure.py heldout-2026-11-26   # figures and unjudged findings

A held-out folder holds scripts/, index.yaml (file, site) and labels.yaml (the blind reading's
violations, then lint's warning/error findings judged true/false/unsure); each folder's
measure.py calls this with its own folder.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from lint_users import SEVERE, Run, _key, _pct, figures  # noqa: E402

from jobgen.errors import JobgenError  # noqa: E402
from jobgen.profiles.load import load_profile  # noqa: E402
from jobgen.review.lint import guess_site, lint  # noqa: E402
from jobgen.review.lint.site import tell_site  # noqa: E402
from jobgen.review.scriptparse import parse_text  # noqa: E402


def cli_site(text: str, name: str) -> str | None:
    """The site `jobgen lint FILE` picks without --site (jobgen.review.lint.site.tell_site,
    which the CLI, detect_site and tools/lint_users.py share)."""
    return tell_site(text, name)[0].site


def runs(here: Path) -> list[Run]:
    out = []
    for e in yaml.safe_load((here / "index.yaml").read_text())["scripts"]:
        r = Run(e["file"], e["site"])
        try:
            path = here / "scripts" / e["file"]
            text = path.read_text()
            script = parse_text(text, str(path))
            r.detected = cli_site(text, str(path))
            whole = guess_site(script).site
            if whole != r.detected:
                print(f"note: {e['file']}: the whole script alone says {whole},"
                      f" the CLI {r.detected}")
            site = r.detected or e["site"]
            r.findings = [(f.rule, f.line, f.severity, f.message)
                          for f in lint(script, load_profile(site).profile)]
        except JobgenError as exc:
            r.refused = str(exc)
        out.append(r)
    return out


def main(here: Path) -> int:
    labelled = yaml.safe_load((here / "labels.yaml").read_text())["scripts"]
    rs = runs(here)
    judged = {(f, _key(x)) for f, lab in labelled.items() for x in lab.get("findings", [])}
    gaps = [(r.file, f[:3]) for r in rs for f in r.findings
            if f[2] in SEVERE and (r.file, _key(f)) not in judged]
    # precision over the judged findings lint still gives (labels.yaml keeps the ones it gave
    # at the measured commit; those it no longer gives are listed, not counted)
    given = {(r.file, _key(f)) for r in rs for f in r.findings}
    current, gone = {}, []
    for f, lab in labelled.items():
        keep = [x for x in lab.get("findings", []) if (f, _key(x)) in given]
        gone += [(f, _key(x), x["true"]) for x in lab.get("findings", [])
                 if (f, _key(x)) not in given]
        current[f] = {**lab, "findings": keep}
    fig = figures(rs, current)
    p, rc, d = fig["precision"], fig["recall"], fig["detection"]
    for key in ["site:polaris", "site:aurora", "site:sunspot", "site:lumi", "site:summit", "all"]:
        prec = _pct(p[key]["true"], p[key]["true"] + p[key]["false"])
        print(f"{key.removeprefix('site:'):8} precision {prec}"
              f" (unsure {p[key]['unsure']}), recall {_pct(rc[key]['found'], rc[key]['total'])},"
              f" detection {_pct(d[key]['right'], d[key]['total'])}")
    for k in ("refuse", "fail", "waste", "outdated"):
        print(f"kind {k}: {_pct(rc['kind:' + k]['found'], rc['kind:' + k]['total'])}")
    by = {r.file: r for r in rs}
    for f, lab in labelled.items():
        given_rules = {x[0] for x in by[f].findings}
        for v in lab.get("violations") or []:
            if not set(v["rules"]) & given_rules:
                print("missed:", f, v["id"], v["kind"], v["rules"] or v.get("proposed", "[]"))
    for g in gone:
        print("judged finding no longer given:", *g)
    for g in gaps:
        print("unjudged finding:", *g)
    return 1 if gaps else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: heldout_measure.py FOLDER (a held-out folder beside this file)")
    sys.exit(main(Path(__file__).resolve().parent / sys.argv[1]))
