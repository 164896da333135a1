"""Every error's hint is a command that works: each case below is a usual slip; its hint,
applied as the message says (a command it names, an option it adds, a value it proposes),
must then run cleanly. Runs in-process (jobgen_here) so the many commands stay quick."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from helpers import jobgen_here

PLACEHOLDERS = {"PROJECT": "p", "SITE": "local-slurm"}
RENDERED = "RENDERED"  # a script jobgen rendered (with its Regenerate header)
HANDMADE = "HANDMADE"  # a script written by hand (no header)
NONEMPTY = "NONEMPTY"  # a directory with a file in it

CASES = [
    ["sites", "lumi"],
    ["render", "lumi", "--app", "ffn", "-A", "p"],
    ["explain", "--site", "polaris", "--app", "ffn", RENDERED],
    ["explain", HANDMADE],
    ["explain", "--site", "local", "gone.pbs"],
    ["render", "--site", "local", "python3", "train.py"],
    ["render", "--site", "local", "python3", "train.py", "--lr", "3e-4"],
    ["render", "--site", "local", "python3", "train.py", "--lr", "3e-4", "--epochs", "2"],
    ["render", "--site", "lumi", "--app", "ffn"],
    ["render", "--site", "lumi-g", "--app", "ffn", "-A", "p"],
    ["render", "--site", "lumi", "--app", "resnt50", "-A", "p"],
    ["render", "--site", "aurora", "--app", "ffn", "--nodes", "20000", "-A", "p"],
    ["render", "--site", "polaris", "--app", "ffn", "--ranks-per-node", "8", "-A", "p"],
    ["render", "--app", "ffn"],
    ["render", "--site", "local", "--app", "ffn", "--out", RENDERED],
    ["render", "--site", "local", "--nodes", "2", "--app", "ffn"],
    ["render", "--site", "aurora", "--app", "ffn", "-A", "p", "--queue", "nope"],
    ["render", "--site", "local", "--profile", "nsys", "--app", "ffn"],
    ["render", "--site", "aurora", "--app", "ffn", "--walltime", "2h", "-A", "p"],
    ["render", "--site", "local", "--bogus"],
    ["validate", "lumi-g"],
    ["show", "lumi-g"],
    ["lint", "--explain", "NOPE"],
    ["sweep", "--site", "local", "--app", "qcnn", "--precision", "fp32", "--out", NONEMPTY],
]


def _swap(argv: list[str], old: str, new: str) -> list[str]:
    assert old in argv, (old, argv)
    return [new if w == old else w for w in argv]


def _set(argv: list[str], option: str, value: str) -> list[str]:
    if option in argv:
        i = argv.index(option)
        return [*argv[:i + 1], value, *argv[i + 2:]]
    return [*argv, option, value]


def fixes(argv: list[str], err: str) -> list[list[str]]:
    """The commands a hint says to run, or the command line as the hint says to change it."""
    out: list[list[str]] = []
    for m in re.finditer(r"\(see `jobgen ([a-z-]+) -h`\)", err):
        out.append([m[1], "-h"])
    for m in re.finditer(r"`jobgen ([a-z]+)` lists them", err):
        out.append([m[1]])
    if m := re.search(r"to name the site, write --site (\S+)$", err):
        out.append([w for w in argv if w != m[1]] + ["--site", m[1]])
    if m := re.search(r"one site's profile: (jobgen .+)$", err):
        out.append(shlex.split(m[1])[1:])
    if m := re.search(r"not a script: (jobgen explain .+?) explains this one", err):
        out.append(shlex.split(m[1])[1:])
    if m := re.search(r"(jobgen lint \S+(?: --site SITE)?) checks", err):
        out.append([PLACEHOLDERS.get(w, w) for w in shlex.split(m[1])[1:]])
    if m := re.search(r"goes after `--`: jobgen (\S+) \[OPTIONS\] -- (.+)$", err):
        start = argv.index(shlex.split(m[2])[0])  # the program, to the end of the line
        out.append([*argv[:start], "--", *argv[start:]])
    if m := re.search(r"(?::| or) add (-[-\w/]+)(?: ([A-Z]+)\b)?", err):
        option = m[1].split("/")[0]
        out.append([*argv, option] + ([PLACEHOLDERS[m[2]]] if m[2] else []))
    if m := re.search(r"use (--[a-z-]+) (\d+)(?: or (?:less|more))?$", err):
        out.append(_set(argv, m[1], m[2]))
    if m := re.search(r"unknown \w+ '([^']+)'\. Did you mean ([\w-]+)", err):
        out.append(_swap(argv, m[1], m[2]))
    if m := re.search(r"unknown queue '([^']+)' on \S+: use one of ([\w-]+)", err):
        out.append(_swap(argv, m[1], m[2]))
    if m := re.search(r"(--[a-z-]+) (\S+) on \S+: .* use \1 with one of ([\w-]+)", err):
        out.append(_swap(argv, m[2], m[3]))
    if m := re.search(r"bad walltime '([^']+)': .*write minutes \((\d+)\)", err):
        out.append(_swap(argv, m[1], m[2]))
    if m := re.search(r"no lint rule '([^']+)': `jobgen lint --explain` takes one of (\w+)", err):
        out.append(_swap(argv, m[1], m[2]))
    return out


@pytest.mark.parametrize("case", CASES, ids=lambda c: " ".join(c)[:60])
def test_every_hint_is_a_command_that_works(case, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rendered = tmp_path / "job.pbs"
    made = jobgen_here("render", "--site", "polaris", "--app", "ffn", "-A", "p", "--out",
                       str(rendered))
    assert made.returncode == 0, made.stderr
    handmade = tmp_path / "mine.sh"
    handmade.write_text("#!/bin/bash\n#SBATCH --nodes=1\nsrun python3 train.py\n")  # clean
    nonempty = tmp_path / "full"
    nonempty.mkdir()
    (nonempty / "keep.txt").write_text("x\n")
    where = {RENDERED: str(rendered), HANDMADE: str(handmade), NONEMPTY: str(nonempty)}
    argv = [where.get(w, w) for w in case]
    res = jobgen_here(*argv)
    assert res.returncode == 2, (argv, res.stdout[-500:], res.stderr)
    err = res.stderr.strip().splitlines()[-1]
    assert err.startswith("jobgen: error: ")
    found = fixes(argv, err)
    hint_words = re.findall(r"\b(?:add|use|write|jobgen \w+|Did you mean|one of)\b", err)
    assert found, f"no hint applied from: {err}"
    assert len(found) >= min(len(hint_words), 1)
    for fixed in found:
        done = jobgen_here(*fixed)
        assert done.returncode == 0, f"hint of {err!r}\n-> jobgen {shlex.join(fixed)}: " \
                                     f"exit {done.returncode}: {done.stderr[-600:]}"
        assert "error:" not in done.stderr


def test_explains_hint_names_the_scripts_own_options(tmp_path):
    script = tmp_path / "job.pbs"
    assert jobgen_here("render", "--site", "polaris", "--app", "ffn", "-A", "p", "--nodes",
                       "2", "--out", str(script)).returncode == 0
    err = jobgen_here("explain", str(script)).stderr
    assert "jobgen explain --site polaris --app ffn --nodes=2 --account=p explains this" in err
    assert "-- " + str(script) not in err  # not the old advice to launch the script


def test_sites_never_suggests_an_option_it_lacks():
    err = jobgen_hints = jobgen_here("sites", "lumi").stderr
    assert "--site" not in err and "jobgen show lumi" in jobgen_hints
    assert Path  # noqa: B018 - keep the import for the fixtures above
