"""Regenerate examples/: the rendered script of every bundled site x bundled app at 2 nodes.

    python3 examples/regenerate.py          # rewrite the examples
    python3 examples/regenerate.py --check  # exit 1 if any example is stale (the tests do this)

The local site runs on one machine, so its examples use 1 node.
"""

from __future__ import annotations

import sys
from pathlib import Path

from jobgen.apps import app_names
from jobgen.plan import Request, build_plan
from jobgen.profiles import ProfileFile, bundled_dir, load_profile_file
from jobgen.render import render

HERE = Path(__file__).resolve().parent
SUFFIX = {"pbs": "pbs", "slurm": "slurm", "lsf": "lsf", "cobalt": "cobalt", "none": "sh"}
ACCOUNT = "MYPROJECT"


def expected() -> dict[Path, str]:
    out: dict[Path, str] = {}
    for path in sorted(bundled_dir().glob("*.yaml")):
        loaded = load_profile_file(ProfileFile(path.stem, path, "bundled"))
        p = loaded.profile
        local = p.scheduler.dialect == "none"
        for app in app_names():
            req = Request(
                site=p.name, app=app, nodes=1 if local else 2,
                account=None if local else ACCOUNT,
            )
            text = render(build_plan(loaded, req))
            out[HERE / p.name / f"{app}.{SUFFIX[p.scheduler.dialect]}"] = text
    return out


def main(argv: list[str]) -> int:
    want = expected()
    have = {p for p in HERE.glob("*/*") if p.is_file()}
    stale = sorted(p for p in want if not p.exists() or p.read_text() != want[p])
    extra = sorted(have - set(want))
    if "--check" in argv:
        for p in stale + extra:
            print(f"stale: {p.relative_to(HERE.parent)}")
        return 1 if stale or extra else 0
    for p in extra:
        p.unlink()
    for p, text in want.items():
        p.parent.mkdir(exist_ok=True)
        p.write_text(text)
    print(f"{len(want)} examples written, {len(extra)} removed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
