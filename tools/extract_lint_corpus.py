"""Extract the job scripts of the sites' public guides into tests/lint_corpus/.

    python tools/extract_lint_corpus.py MIRROR_ROOT [--out tests/lint_corpus]

MIRROR_ROOT holds one git directory per repository as `owner+name/repo` (what the `fetch`
tool brings here). For each repository the newest commit is read with `git show`, never a
work tree, so every script keeps its repository, path, commit and first line.

A script is a fenced code block (Markdown) or literal block (reStructuredText) or a whole
file (.sh .pbs .slurm .lsf .qsub .sub .job .cobalt or no suffix) that holds a scheduler
directive (#PBS #SBATCH #BSUB #COBALT), or starts with `#!` and runs a launcher (mpiexec,
mpirun, srun, jsrun, aprun). Blocks are written verbatim (of a terminal transcript, the file
that `$ cat FILE` shows), one file each, and listed in
`extracted.yaml` (provenance only; labels live in index.yaml, written by hand).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

REPOS = {
    "argonne-lcf/user-guides": "alcf-ug",
    "Lumi-supercomputer/lumi-userguide": "lumi-ug",
    "Lumi-supercomputer/LUMI-AI-Guide": "lumi-ai",
    "olcf/olcf-user-docs": "olcf",
    "NERSC/sc22-dl-tutorial": "sc22",
    "argonne-lcf/ALCF_Hands_on_HPC_Workshop": "alcf-hands-on",
}
DIRECTIVE = re.compile(r"^\s*#(PBS|SBATCH|BSUB|COBALT)\b", re.M)
LAUNCH = re.compile(
    r"^\s*(?:(?:time|exec|env)\s+)?(?:\S+=\S+\s+)*(mpiexec|mpirun|srun|jsrun|aprun)\b", re.M)
SCRIPT_SUFFIXES = {".sh", ".pbs", ".slurm", ".lsf", ".qsub", ".sub", ".job", ".cobalt", ""}
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")
RST_DIRECTIVE = re.compile(r"^(\s*)\.\. (?:code-block|code|sourcecode)::")


def is_script(text: str) -> bool:
    if DIRECTIVE.search(text):
        return True
    return text.lstrip().startswith("#!") and bool(LAUNCH.search(text))


def markdown_blocks(lines: list[str]) -> list[tuple[int, str]]:
    out, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence = len(m.group(1)), m.group(2)
        body, j = [], i + 1
        while j < len(lines) and not re.match(rf"^\s*{re.escape(fence[0])}{{{len(fence)},}}\s*$",
                                              lines[j]):
            body.append(lines[j][indent:] if lines[j][:indent].strip() == "" else lines[j])
            j += 1
        out.append((i + 2, "\n".join(body) + "\n"))
        i = j + 1
    return out


def rst_blocks(lines: list[str]) -> list[tuple[int, str]]:
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        m = RST_DIRECTIVE.match(line)
        literal = line.rstrip().endswith("::") and not line.strip().startswith("..")
        if not (m or literal):
            i += 1
            continue
        base = len(line) - len(line.lstrip())
        j = i + 1
        while j < len(lines) and (lines[j].strip() == "" or
                                  (m and re.match(r"^\s+:\w[\w-]*:", lines[j]))):
            j += 1
        start = j
        body: list[str] = []
        indent = None
        while j < len(lines):
            text = lines[j]
            if text.strip():
                width = len(text) - len(text.lstrip())
                if width <= base:
                    break
                indent = width if indent is None else min(indent, width)
            body.append(text)
            j += 1
        while body and not body[-1].strip():
            body.pop()
        if body and indent is not None:
            out.append((start + 1, "\n".join(b[indent:] for b in body) + "\n"))
        i = max(j, i + 1)
    return out


def from_transcript(line: int, body: str) -> tuple[int, str]:
    """A terminal transcript (`$ cat submit.sh` then the file, then `$ qsub ...`): the file."""
    lines = body.split("\n")
    start = next((i for i, t in enumerate(lines) if re.match(r"^\$ cat \S+\s*$", t)), None)
    if start is None:
        return line, body
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("$")), len(lines))
    return line + start + 1, "\n".join(lines[start + 1:end]).rstrip("\n") + "\n"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True, errors="replace").stdout


def slug(path: str, line: int) -> str:
    stem = re.sub(r"[^A-Za-z0-9]+", "-", path.rsplit(".", 1)[0]).strip("-").lower()
    if len(stem) > 70:
        stem = stem[stem.index("-", len(stem) - 70) + 1:]
    return f"{stem}-L{line}"


def extract(mirror: Path, out: Path) -> list[dict[str, object]]:
    records: list[dict[str, object]] = []
    for repo_name, short in REPOS.items():
        repo = mirror / repo_name.replace("/", "+") / "repo"
        if not repo.is_dir():
            sys.exit(f"{repo}: missing; fetch github:{repo_name} first")
        commit = git(repo, "rev-parse", "HEAD").strip()
        for path in git(repo, "ls-tree", "-r", "--name-only", "HEAD").splitlines():
            suffix = Path(path).suffix.lower()
            if suffix not in {".md", ".rst", *SCRIPT_SUFFIXES} or "/." in f"/{path}":
                continue
            try:
                text = git(repo, "show", f"HEAD:{path}")
            except subprocess.CalledProcessError:
                continue  # a large file left out of the snapshot
            if "\0" in text:
                continue
            lines = text.split("\n")
            if suffix == ".md":
                blocks = markdown_blocks(lines)
            elif suffix == ".rst":
                blocks = rst_blocks(lines)
            else:
                blocks = [(1, text if text.endswith("\n") else text + "\n")]
            for line, body in blocks:
                line, body = from_transcript(line, body)
                if not is_script(body):
                    continue
                ext = {".pbs": ".pbs", ".slurm": ".slurm", ".lsf": ".lsf"}.get(suffix, ".sh")
                name = f"{short}/{slug(path, line)}{ext}"
                (out / "scripts" / name).parent.mkdir(parents=True, exist_ok=True)
                (out / "scripts" / name).write_text(body)
                records.append({"file": name, "repo": repo_name, "path": path,
                                "commit": commit, "line": line})
    return records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mirror", type=Path)
    parser.add_argument("--out", type=Path, default=Path("tests/lint_corpus"))
    args = parser.parse_args()
    records = extract(args.mirror, args.out)
    import yaml

    (args.out / "extracted.yaml").write_text(yaml.safe_dump(records, sort_keys=False,
                                                            width=100))
    print(f"{len(records)} scripts written under {args.out / 'scripts'}")


if __name__ == "__main__":
    main()
