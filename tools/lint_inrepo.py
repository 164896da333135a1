"""Lint corpus scripts inside their own repositories: what reading the files they source or run
(jobgen.review.scriptparse companion files) changes, against the script alone.

    python3 tools/lint_inrepo.py ENTRIES.txt MIRRORS_DIR [OUT.json]

ENTRIES.txt: one script per line, `SET FILE REPO PATH COMMIT SITE` (SET: dev or a held-out
folder's name; FILE: its name under that set's scripts/). MIRRORS_DIR holds `OWNER+NAME/repo`
git directories (the `fetch` tool's snapshots). Each repository is written out at COMMIT into a
temporary directory (git archive), the script is linted there as `jobgen lint PATH` reads it
(follow=True, the site given) and alone (follow=False), and the differences are printed with the
files read. Nothing is written into the checkout.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jobgen.profiles.load import load_profile  # noqa: E402
from jobgen.review.lint import lint  # noqa: E402
from jobgen.review.scriptparse import parse_file  # noqa: E402


def _findings(path: Path, site: str, follow: bool) -> tuple[set[tuple], list[str]]:
    script = parse_file(path, follow=follow)
    profile = load_profile(site).profile
    found = {(f.rule, f.line, f.severity, f.message) for f in lint(script, profile)}
    return found, [str(p) for p in script.read]


def _checkout(mirror: Path, commit: str, into: Path) -> bool:
    """The repository's files at COMMIT under `into`, each of at most 1 MiB (the snapshots
    leave out some large files: those are skipped, as `git archive` would fail on them)."""
    git = ["git", f"--git-dir={mirror}"]
    listing = subprocess.run([*git, "ls-tree", "-r", "-l", "-z", commit], capture_output=True)
    if listing.returncode != 0:
        return False
    for entry in listing.stdout.split(b"\0"):
        if not entry:
            continue
        meta, _, name = entry.partition(b"\t")
        mode, kind, blob, size = meta.split()
        if kind != b"blob" or mode == b"120000" or not size.isdigit() or int(size) > 1 << 20:
            continue  # (a size the snapshot cannot give, `-` or `BAD`: the blob is absent)
        path = into / name.decode("utf-8", "replace")
        if ".." in path.relative_to(into).parts:
            continue
        data = subprocess.run([*git, "cat-file", "blob", blob.decode()], capture_output=True)
        if data.returncode == 0:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data.stdout)
    return True


def main(entries: Path, mirrors: Path, out: Path | None) -> int:
    report = []
    for line in entries.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        set_name, file, repo, path, commit, site = line.split()
        entry = {"set": set_name, "file": file, "repo": repo, "path": path, "commit": commit}
        mirror = mirrors / repo.replace("/", "+") / "repo"
        if not mirror.is_dir():
            entry["status"] = "no mirror"
            report.append(entry)
            print(f"{set_name} {file}: no mirror")
            continue
        with tempfile.TemporaryDirectory() as tmp:
            if not _checkout(mirror, commit, Path(tmp)) or not (Path(tmp) / path).is_file():
                entry["status"] = "commit or path not in the mirror"
                report.append(entry)
                print(f"{set_name} {file}: {entry['status']}")
                continue
            alone, _ = _findings(Path(tmp) / path, site, False)
            inrepo, read = _findings(Path(tmp) / path, site, True)
            entry.update(status="linted", read=[r.removeprefix(tmp + "/") for r in read],
                         new=sorted(inrepo - alone), gone=sorted(alone - inrepo))
        report.append(entry)
        print(f"{set_name} {file}: read {entry.get('read')}")
        for f in entry.get("new", []):
            print(f"  NEW  {f[0]} line {f[1]} ({f[2]}): {f[3][:160]}")
        for f in entry.get("gone", []):
            print(f"  GONE {f[0]} line {f[1]} ({f[2]}): {f[3][:160]}")
    if out:
        out.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2]),
                  Path(sys.argv[3]) if len(sys.argv) == 4 else None))
