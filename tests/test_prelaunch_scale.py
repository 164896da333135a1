"""The rendered prelaunch survives a full-machine allocation on every site, every time.

Each site's script, rendered for the whole machine, runs under bash here against its
scheduler's host list at that size: `$PBS_NODEFILE`, `$LSB_DJOB_HOSTFILE` (LSF lists the batch
node, then each compute node once per slot), `$COBALT_NODEFILE`, and Slurm's node list read
through the `scontrol` stand-in, which writes as scontrol does (4 KiB blocks, and on after its
reader has gone, so a reader that stops early kills it with SIGPIPE). Only the launchers and
`module` are trivial stand-ins here: they record what the launch would get and return, so the
script runs through everything before the launch, as the batch shell would, and exits 0.

A pipeline whose reader stops early (`scontrol show hostnames | head -n 1`, `printf | head`)
dies this way at scale under `set -e -o pipefail`, at random: the tests repeat each run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from emulation.allocation import allocation, expected_master, full_machine_plan
from emulation.harness import install_bin
from helpers import ROOT

from jobgen.text.render import render

REPEATS = 20
REPEATS_WITHOUT_HOSTS = 5  # the sites without a scheduler have no host list to outgrow
SCRIPT_SUFFIXES = {".pbs", ".slurm", ".lsf", ".cobalt", ".sh"}
SITES = ["aurora", "jlse-mi250", "local", "local-gpu", "local-mpich", "local-slurm", "lumi",
         "polaris", "summit", "sunspot"]
# Launchers and tools the prelaunch calls: each records the rendezvous it was given.
LAUNCHERS = ("mpiexec", "mpiexec.mpich", "srun", "jsrun", "mpirun", "torchrun")
TOOLS = ("jskill", "module", "conda", "singularity", "apptainer", "launch_copper.sh",
         "stop_copper.sh")
RECORD = """#!/bin/sh
printf '%s %s %s\\n' "${0##*/}" "${MASTER_ADDR:--}" "${MASTER_PORT:--}" >> "$JOBGEN_SCALE_LOG"
"""


@pytest.fixture(scope="module")
def scale_bin(tmp_path_factory) -> Path:
    """scontrol as the emulation has it (writing as the real one does); trivial launchers."""
    full = install_bin(tmp_path_factory.mktemp("emu-bin"))
    dest = tmp_path_factory.mktemp("scale-bin")
    for name in ("scontrol", "_emu.py"):
        shutil.copy(full / name, dest / name)
    for name in LAUNCHERS + TOOLS:
        (dest / name).write_text(RECORD)
        (dest / name).chmod(0o755)
    return dest


def prepare(site: str, tmp_path: Path, scale_bin: Path
            ) -> tuple[Path, dict[str, str], str | None]:
    """The full-machine script, its environment and the MASTER_ADDR it must compute."""
    plan = full_machine_plan(site, tmp_path, ("python3", "train.py"))
    work = tmp_path / "work"
    work.mkdir()
    script = work / "job.sh"
    script.write_text(render(plan))
    sched_env, hosts = allocation(site, plan.dialect, plan.nodes, tmp_path, work)
    env = {"PATH": f"{scale_bin}:/usr/local/bin:/usr/bin:/bin", "HOME": str(tmp_path),
           "USER": "emu", "LANG": "C.UTF-8", "TMPDIR": str(tmp_path), **sched_env,
           "JOBGEN_SCALE_LOG": str(tmp_path / "launches.log")}
    return script, env, expected_master(plan, hosts)


def run_once(script: Path, env: dict[str, str]) -> tuple[subprocess.CompletedProcess, list]:
    log = Path(env["JOBGEN_SCALE_LOG"])
    log.write_text("")
    proc = subprocess.run(["bash", str(script)], env=env, cwd=script.parent,
                          capture_output=True, text=True, timeout=60)
    return proc, [line.split() for line in log.read_text().splitlines()]


@pytest.mark.parametrize("site", SITES)
def test_full_machine_prelaunch_never_dies(site, tmp_path, scale_bin):
    """REPEATS runs of the whole-machine prelaunch: every one reaches the launch and exits 0,
    with MASTER_ADDR the first compute node of the allocation."""
    script, env, master = prepare(site, tmp_path, scale_bin)
    failures = []
    repeats = REPEATS if master != "127.0.0.1" and master else REPEATS_WITHOUT_HOSTS
    for i in range(repeats):
        proc, calls = run_once(script, env)
        launches = [c for c in calls if c[0] in LAUNCHERS]
        if proc.returncode != 0 or not launches:
            failures.append(f"run {i}: exit {proc.returncode}, stderr {proc.stderr[-300:]!r}")
        elif master and launches[-1][1] != master:
            failures.append(f"run {i}: MASTER_ADDR {launches[-1][1]}, not {master}")
    assert not failures, f"{len(failures)}/{repeats} runs failed: {failures[:3]}"


def test_the_scontrol_stand_in_dies_of_sigpipe_under_a_reader_that_stops_early(tmp_path,
                                                                                scale_bin):
    """What makes the test above real: the stand-in is killed as scontrol is."""
    script = tmp_path / "head.sh"
    script.write_text('set -e -o pipefail\nx="$(scontrol show hostnames | head -n 1)"\n'
                      'echo "survived $x"\n')
    env = {"PATH": f"{scale_bin}:/usr/bin:/bin",
           "SLURM_JOB_NODELIST": "nid[005000-007977]"}
    codes = {subprocess.run(["bash", str(script)], env=env, capture_output=True,
                            timeout=30).returncode for _ in range(3)}
    assert codes == {141}, codes
    assert os.path.exists(scale_bin / "scontrol")


# ---------------------------------------------------------------- every pipeline, statically
# Readers that always read their whole input: the pipeline cannot outlive them.
WHOLE_INPUT_READERS = {"nvidia-cuda-mps-control"}  # reads control commands until EOF


def _pipelines(text: str) -> list[tuple[int, str]]:
    """(line, reader) of every pipeline in shell code: at top level, inside $(...) (in
    double quotes too), and in the code a `bash -c '...'` runs; not in quoted text."""
    out: list[tuple[int, str]] = []
    stack = ["code"]  # code (top level or $(...)) or dq (inside double quotes)
    i, n = 0, len(text)
    while i < n:
        ch, top = text[i], stack[-1]
        if ch == "\\":
            i += 2
            continue
        if text.startswith("$(", i) and not text.startswith("$((", i):
            stack.append("code")
            i += 2
            continue
        if top == "dq":
            if ch == '"':
                stack.pop()
            i += 1
            continue
        if ch == "'" or text.startswith("$'", i):
            i += ch != "'"
            end = _quote_end(text, i + 1, ansi=ch != "'")
            if text[:i].rstrip().endswith("bash -c"):
                line = text.count("\n", 0, i) + 1
                out += [(line, reader) for _, reader in _pipelines(text[i + 1:end])]
            i = end + 1
        elif ch == '"':
            stack.append("dq")
            i += 1
        elif ch == ")" and len(stack) > 1:
            stack.pop()
            i += 1
        elif ch == "#" and (i == 0 or text[i - 1] in " \t\n;"):
            i = text.find("\n", i) % (n + 1) if "\n" in text[i:] else n
        elif ch == "|":
            if text.startswith("||", i):
                i += 2
                continue
            before = text[text.rfind("\n", 0, i) + 1:i]
            if re.fullmatch(_WORD, before) and re.match(rf"\s*\|?{_WORD}(\|{_WORD})*\)",
                                                       text[i:]):
                i += 1  # a case pattern's alternatives (`0 | 143)`), not a pipeline
                continue
            reader = re.match(r"[&\s]*([^\s;|&)]*)", text[i + 1:]).group(1)
            out.append((text.count("\n", 0, i) + 1, reader))
            i += 1
        else:
            i += 1
    return out


_WORD = r"\s*[^\s()|;&$]+\s*"  # one word of a case pattern


def _quote_end(text: str, i: int, ansi: bool) -> int:
    """Where the single quote opened before `i` closes ($'...' has backslash escapes)."""
    while i < len(text) and text[i] != "'":
        i += 2 if ansi and text[i] == "\\" else 1
    return i


def test_no_pipeline_in_any_example_script_has_a_reader_that_may_stop_early():
    """Every rendered example (each site x app, and the extras): a pipeline is allowed only
    where its reader consumes all of its input."""
    scripts = sorted(p for p in (ROOT / "examples").rglob("*") if p.suffix in SCRIPT_SUFFIXES)
    assert len(scripts) > 80
    found = {f"{p.relative_to(ROOT)}:{n} | {reader}" for p in scripts
             for n, reader in _pipelines(p.read_text()) if reader not in WHOLE_INPUT_READERS}
    assert not found, sorted(found)[:10]


def test_the_pipeline_audit_sees_the_old_reader_that_stopped_early():
    old = 'MASTER_ADDR="$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)"\n'
    assert _pipelines(old) == [(1, "head")]
    assert _pipelines("x=$(awk '/^(batch|login)/' f) || true\n") == []
    assert _pipelines('case $s in\n    0 | 143) ;;\nesac\n') == []  # alternatives, no pipe
    assert _pipelines("srun bash -c 'echo quit | nvidia-cuda-mps-control'\n") == [
        (1, "nvidia-cuda-mps-control")]
