"""Scripts as input to lint, verify and diff: bounded work, bounded reads, one-line errors."""

from __future__ import annotations

import os
import subprocess
import time

import pytest
from helpers import run_jobgen
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jobgen.errors import JobgenError
from jobgen.profiles.load import load_profile, site_names
from jobgen.review.arith import evaluate
from jobgen.review.lint import lint
from jobgen.review.scriptparse import parse_text
from jobgen.textfile import MAX_BYTES


def _one_line_error(res: subprocess.CompletedProcess[str]) -> str:
    assert res.returncode == 2, (res.returncode, res.stdout[-500:], res.stderr[-2000:])
    assert "Traceback" not in res.stderr and res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


# ---------------------------------------------------------------- arithmetic
def test_huge_arithmetic_is_left_unevaluated_by_lint_diff_and_verify(tmp_path):
    script = tmp_path / "job.sh"
    script.write_text("#!/bin/bash\nN=$((9**9**9))\ntorchrun --nproc-per-node=$((9**9**9)) "
                      "--standalone x.py\n")
    other = tmp_path / "other.sh"
    other.write_text("#!/bin/bash\ntorchrun --nproc-per-node=$((2**8**8**8)) x.py\n")
    start = time.monotonic()
    res = run_jobgen("lint", "--site", "local", str(script), timeout=30)
    assert res.returncode == 0, res.stdout + res.stderr
    res = run_jobgen("diff", str(script), str(other), timeout=30)
    assert res.returncode == 1 and "Traceback" not in res.stderr
    assert "$((2**8**8**8))" in res.stdout  # shown as written, not computed
    assert time.monotonic() - start < 30


def test_verify_does_not_evaluate_arithmetic_in_a_generated_script(tmp_path):
    path = tmp_path / "job.sh"
    assert run_jobgen("render", "--site", "local", "--app", "ffn", "--out", str(path)
                      ).returncode == 0
    text = path.read_text().replace("torchrun ", "N=$((9**9**9**9)); torchrun ", 1)
    path.write_text(text)
    res = run_jobgen("verify", str(path), timeout=30)
    assert res.returncode == 1 and "DRIFTED" in res.stdout, res.stderr


@settings(max_examples=300, deadline=None)
@given(st.recursive(
    st.integers(min_value=0, max_value=70).map(str),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "%", "**"]), inner)
        .map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
        inner.map(lambda e: f"({e})"),
        inner.map(lambda e: f"-{e}"),
    ),
    max_leaves=6,
))
def test_evaluated_arithmetic_is_what_bash_computes(expr):
    value = evaluate(expr)
    if value is None:
        return  # left as written; bash decides at run time
    res = subprocess.run(["bash", "-c", f"echo $(({expr}))"], capture_output=True, text=True)
    assert res.returncode == 0 and int(res.stdout) == value, (expr, value, res)


@pytest.mark.parametrize("expr", ["9**9**9", "2**63", "2**-1", "1/0", "7%0", "08",
                                  "(" * 40 + "1" + ")" * 40, "1" * 25, "x+1", "1+" * 100 + "1"])
def test_unbounded_or_invalid_arithmetic_is_not_evaluated(expr):
    assert evaluate(expr) is None


# ---------------------------------------------------------------- linear time
@pytest.mark.slow
def test_400k_continuation_lines_lint_in_linear_time(tmp_path):
    path = tmp_path / "long.sh"
    path.write_text("#!/bin/bash\ntorchrun --standalone \\\n" + " -v \\\n" * 400_000
                    + " x.py\n")
    start = time.monotonic()
    res = run_jobgen("lint", "--site", "local", str(path), timeout=60)
    elapsed = time.monotonic() - start
    assert res.returncode == 0, res.stdout[-300:] + res.stderr[-300:]
    assert elapsed < 10, f"lint took {elapsed:.1f} s"  # quadratic joining took 24 s here


def test_reading_back_many_ansi_c_escapes_is_linear():
    from jobgen.shell import split

    start = time.monotonic()
    split("$'" + "\\x41" * 160_000 + "'")  # a 640 KB word; a script may be 4 MiB
    assert time.monotonic() - start < 2  # 7.5 s here with slicing, ~0.3 s without


# ---------------------------------------------------------------- what may be read
def _inputs(tmp_path):
    fifo = tmp_path / "fifo.sh"
    os.mkfifo(fifo)
    big = tmp_path / "big.sh"
    big.write_bytes(b"#!/bin/bash\n" + b"# padding\n" * (MAX_BYTES // 10 + 1))
    return {"fifo": (fifo, "FIFO"), "/dev/zero": ("/dev/zero", "character device"),
            "directory": (tmp_path, "directory"), "too large": (big, "too large")}


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "directory", "too large"])
@pytest.mark.parametrize("command", ["lint", "verify", "diff"])
def test_non_regular_or_huge_input_is_a_one_line_error(tmp_path, kind, command):
    path, words = _inputs(tmp_path)[kind]
    ok = tmp_path / "ok.sh"
    ok.write_text("#!/bin/bash\necho hi\n")
    args = {"lint": ["lint", "--site", "local", str(path)], "verify": ["verify", str(path)],
            "diff": ["diff", str(ok), str(path)]}[command]
    line = _one_line_error(run_jobgen(*args, timeout=30))
    if not (command == "diff" and kind == "directory"):  # diff takes a directory as profiles
        assert words in line, line


def test_unreadable_bytes_are_a_one_line_error(tmp_path):
    path = tmp_path / "bin.sh"
    path.write_bytes(b"#!/bin/bash\n\xff\xfe\n")
    assert "not a UTF-8 text script" in _one_line_error(
        run_jobgen("lint", "--site", "local", str(path)))


# ---------------------------------------------------------------- CRLF
def test_verify_reports_a_crlf_copy_as_drift_not_up_to_date(tmp_path):
    path = tmp_path / "job.sh"
    assert run_jobgen("render", "--site", "local", "--app", "ffn", "--out", str(path)
                      ).returncode == 0
    assert run_jobgen("verify", str(path)).returncode == 0
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    assert subprocess.run(["bash", str(path)], capture_output=True).returncode != 0
    res = run_jobgen("verify", str(path))
    assert res.returncode == 1, res.stdout + res.stderr
    assert "up to date" not in res.stdout and "DRIFTED" in res.stdout
    assert "CRLF" in res.stdout and "edited by hand" not in res.stdout


def test_lint_reports_crlf_line_endings(tmp_path):
    path = tmp_path / "job.sh"
    path.write_bytes(b"#!/bin/bash\r\ntorchrun --standalone --nproc-per-node=2 x.py\r\n")
    res = run_jobgen("lint", "--site", "local", str(path))
    assert res.returncode == 1
    assert f"{path}:1: TEXT001 crlf-line-endings" in res.stdout


# ---------------------------------------------------------------- any text at all
_VALUES = ["2", "0", "12", "9" * 5000, "\u0663", "\u00b2", "0-99999999999", "1-3,7", "99999999999",
           "$((9**9**9))", "$((2*3))", "$((1/0))", "0x" + "f" * 70, "f" * 20000, "1.2", "-1",
           "01:00:00", "99:99:99", "1-00:00", "${A}", "$(hostname)", "'a b'", '"', "\\", "",
           "\r", "\x00", "list:0-99999999999", "list:0-3:4-7", "depth", "mask_cpu:0x3,0xc",
           "mask_cpu:" + "f" * 20000, "map_cpu:" + "9" * 5000, "user:0+1,2", "packed:7"]
_FLAGS = ["-n", "--ppn", "--depth", "-d", "--cpu-bind=", "-bind-to", "--ntasks-per-node=",
          "--nodes=", "-N", "-a", "-r", "-c", "-g", "--nproc-per-node=", "-np", "-npernode",
          "--hostfile", "-b", "--envall"]
_KEYS = ["-l select=", "-l walltime=", "-l filesystems=", "-q", "--nodes=", "--time=",
         "--partition=", "--gpus-per-node=", "-nnodes", "-W", "-P", "-n", "-t", "-A",
         "-alloc_flags"]
_value = st.sampled_from(_VALUES)
_line = st.one_of(
    st.tuples(st.sampled_from(["#PBS", "#SBATCH", "#BSUB", "#COBALT"]),
              st.sampled_from(_KEYS), _value).map(lambda t: f"{t[0]} {t[1]}{t[2]}"),
    st.tuples(st.sampled_from(["mpiexec", "srun", "jsrun", "torchrun", "mpirun", "time srun"]),
              st.lists(st.tuples(st.sampled_from(_FLAGS), st.sampled_from([" ", ""]), _value)
                       .map("".join), max_size=8))
    .map(lambda t: " ".join([t[0], *t[1], "python3", "x.py"])),
    st.tuples(_value, st.sampled_from(["ZE_AFFINITY_MASK", "CUDA_VISIBLE_DEVICES"]), _value)
    .map(lambda t: f"  {t[0]}) export {t[1]}={t[2]} ;;"),
    st.tuples(st.sampled_from(["export A=", "A=", "export ZE_FLAT_DEVICE_HIERARCHY=",
                               "# local rank "]), _value).map("".join),
    st.sampled_from(["cat > w.sh <<EOF", "EOF", "module load x; module load y", "\\", ""]),
    st.lists(_value, max_size=6).map(" ".join),
)


@pytest.mark.slow
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(site_names()), st.lists(_line, max_size=20),
       st.sampled_from(["\n", "\r\n"]))
def test_lint_reads_any_text_without_crashing(site, lines, newline):
    text = newline.join(["#!/bin/bash", *lines, ""])
    start = time.monotonic()
    try:
        findings = lint(parse_text(text), load_profile(site).profile)
    except JobgenError:
        return
    assert all(f.line >= 1 for f in findings)
    assert time.monotonic() - start < 5
