"""Option values at their edges: bounded counts, no silent empties, short safe error lines."""

from __future__ import annotations

import subprocess

import pytest
from helpers import run_jobgen
from hypothesis import given, settings
from hypothesis import strategies as st

from jobgen.errors import MAX_MESSAGE, JobgenError, one_line
from jobgen.shell import CONTROL

LOCAL = ["render", "--site", "local", "--app", "ffn"]


def _one_line_error(res: subprocess.CompletedProcess[str]) -> str:
    assert res.returncode == 2, (res.returncode, res.stdout[-300:], res.stderr[-2000:])
    assert "Traceback" not in res.stderr and res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


# ---------------------------------------------------------------- counts
def test_requeue_beyond_a_thousand_is_refused():
    line = _one_line_error(run_jobgen("render", "--site", "local-slurm", "--app", "ffn",
                                      "--checkpoint-dir", "ck", "--requeue",
                                      "99999999999999999999"))
    assert line == "jobgen: error: --requeue must be 0 to 1000, not 99999999999999999999"
    ok = run_jobgen("render", "--site", "local-slurm", "--app", "ffn", "--checkpoint-dir", "ck",
                    "--requeue", "1000")
    assert ok.returncode == 0, ok.stderr


def test_ten_million_ranks_per_node_is_refused_before_any_output(tmp_path):
    out = tmp_path / "job.sh"
    line = _one_line_error(run_jobgen(*LOCAL, "--ranks-per-node", "10000000", "--out", str(out),
                                      timeout=60))
    assert "--ranks-per-node 10000000 is more than 64 per hardware thread" in line
    assert "use --ranks-per-node 128 or less" in line and not out.exists()


def test_ranks_beyond_the_hardware_threads_of_a_batch_node_are_refused():
    line = _one_line_error(run_jobgen("render", "--site", "local-slurm", "--app", "ffn",
                                      "--ranks-per-node", "3"))
    assert "more than the 2 hardware threads of one local-slurm node" in line
    assert "use --ranks-per-node 2 or less" in line


def test_more_ranks_than_physical_cores_warns_on_this_machine():
    res = run_jobgen(*LOCAL, "--ranks-per-node", "64")
    assert res.returncode == 0, res.stderr
    assert res.stderr == ("jobgen: warning: 64 ranks per node share the 2 physical cores of "
                          "one local node: they compete for the cores and run slower than fewer "
                          "ranks would\n")
    assert len(res.stdout) < 100_000
    quiet = run_jobgen(*LOCAL, "--ranks-per-node", "2")
    assert quiet.returncode == 0 and quiet.stderr == ""


# ---------------------------------------------------------------- empty values
@pytest.mark.parametrize("args,flag", [
    (["--python", ""], "--python"),
    (["--stage", "d.tar", "--stage-to", ""], "--stage-to"),
    (["--stage", " "], "--stage"),
    (["--container", ""], "--container"),
    (["--checkpoint-dir", ""], "--checkpoint-dir"),
    (["--job-name", ""], "--job-name"),
    (["--walltime", ""], "--walltime"),
    (["--queue", ""], "--queue"),
    (["--framework-module", ""], "--framework-module"),
    (["--filesystems", ""], "--filesystems"),
    (["-A", ""], "--account"),
    (["--copper", "--copper-path", ""], "--copper-path"),
])
def test_an_empty_option_value_is_an_error_not_the_default(args, flag):
    site = "local-slurm" if "--stage" in args else "aurora"
    extra = ["-A", "p"] if site == "aurora" and "-A" not in args else []
    line = _one_line_error(run_jobgen("render", "--site", site, "--app", "ffn", *extra, *args))
    assert line == f"jobgen: error: {flag} is empty: give a value or leave the option out"


def test_an_empty_program_word_is_an_error():
    line = _one_line_error(run_jobgen("render", "--site", "local", "--", "", "x"))
    assert "the program after `--` is an empty word" in line
    ok = run_jobgen("render", "--site", "local", "--", "echo", "")  # an empty argument is fine
    assert ok.returncode == 0, ok.stderr


# ---------------------------------------------------------------- error lines
def test_an_error_clips_a_100kb_value():
    value = "a" * 100_000
    line = _one_line_error(run_jobgen(*LOCAL, "--job-name", value))
    assert len(line) < 600 and "… (99803 more characters)" in line  # 100,002 with quotes
    assert line.startswith("jobgen: error: job name 'aaa")


def test_an_error_shows_control_characters_escaped():
    line = _one_line_error(run_jobgen(*LOCAL, "--job-name", "x\x1b[31mred\x9b"))
    assert "\x1b" not in line and "\x9b" not in line
    assert "\\x1b[31mred" in line


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=300), st.sampled_from(["a" * 250, "\x1b" * 900, " "])),
                max_size=30).map("".join))
def test_every_error_message_is_one_bounded_printable_line(text):
    message = str(JobgenError(f"bad value {text}: fix it"))
    assert message == one_line(message)  # idempotent: clipping twice changes nothing
    assert not CONTROL.search(message) and "\n" not in message
    assert len(message) <= MAX_MESSAGE
